import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One attempt at a time per container, in this process, whatever the number of migrators.
///
/// The launch's automatic import and a tap on "Recover Old Dittos", or two scenes launching at
/// once, would otherwise each plan against the library as they fetched it, and both plans would
/// insert: every ditto twice. An attempt takes its container's turn before it reads the flags or
/// the library and gives it back after its last write, so the next attempt plans against what the
/// previous one saved (and finds the dittos already there).
///
/// A container is known by its folder's identity (device and inode), so two spellings of one
/// folder (a link, another letter case on a Mac) share a turn; by its path when it cannot be
/// looked at.
enum AttemptTurns {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var turns: [String: Turn] = [:]
  /// Each path's turn once known: every later attempt (each launch with the flag set takes one)
  /// finds it without a `stat(2)`.
  nonisolated(unsafe) private static var byPath: [String: Turn] = [:]

  /// The turn of the container at `path`.
  static func turn(forContainer path: String) -> Turn {
    lock.lock()
    if let known = byPath[path] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let key = identity(of: path)
    lock.lock()
    defer { lock.unlock() }
    let turn = turns[key] ?? Turn()
    turns[key] = turn
    byPath[path] = turn
    return turn
  }

  private static func identity(of path: String) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else { return "path:" + path }
    return "inode:\(UInt64(truncatingIfNeeded: status.st_dev)):\(UInt64(status.st_ino))"
  }

  /// One container's turn: held by one attempt at a time, waited for in order by the next ones
  /// (an async waiter suspends, never blocking a thread; a synchronous one, the package's tools,
  /// blocks).
  final class Turn: @unchecked Sendable {
    private let condition = NSCondition()
    private var isHeld = false
    /// Suspended waiters, in order, each with its number (to find it again when its task is
    /// cancelled).
    private var waiters: [(number: Int, resume: CheckedContinuation<Bool, Never>)] = []
    private var nextNumber = 0

    /// Runs `body` holding the turn, waiting (suspended) for it first. A task cancelled while it
    /// waits stops waiting and runs `body` without the turn: the attempt then sees the
    /// cancellation before it reads or writes anything, and ends `reason=cancelled`.
    func take<Result>(_ body: () -> Result) async -> Result {
      let held = await acquire()
      defer { if held { release() } }
      return body()
    }

    /// Runs `body` holding the turn, blocking this thread until it is free.
    func takeBlocking<Result>(_ body: () -> Result) -> Result {
      condition.lock()
      while isHeld { condition.wait() }
      isHeld = true
      condition.unlock()
      defer { release() }
      return body()
    }

    /// True once the turn is this task's; false when the task was cancelled while waiting.
    private func acquire() async -> Bool {
      guard let number = holdOrTakeANumber() else { return true }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
          condition.lock()
          if !isHeld {
            isHeld = true
            condition.unlock()
            continuation.resume(returning: true)
          } else if Task.isCancelled {
            condition.unlock()
            continuation.resume(returning: false)
          } else {
            waiters.append((number, continuation))
            condition.unlock()
          }
        }
      } onCancel: {
        condition.lock()
        guard let index = waiters.firstIndex(where: { $0.number == number }) else {
          condition.unlock()
          return
        }
        let waiter = waiters.remove(at: index)
        condition.unlock()
        waiter.resume.resume(returning: false)
      }
    }

    /// Holds the turn when it is free (nil); otherwise the number to wait with.
    private func holdOrTakeANumber() -> Int? {
      condition.lock()
      defer { condition.unlock() }
      if !isHeld {
        isHeld = true
        return nil
      }
      nextNumber += 1
      return nextNumber
    }

    /// Hands the turn to the first suspended waiter, or frees it for a blocked one.
    private func release() {
      condition.lock()
      if !waiters.isEmpty {
        let next = waiters.removeFirst()
        condition.unlock()
        next.resume.resume(returning: true)  // the turn passes on: it stays held
        return
      }
      isHeld = false
      condition.signal()
      condition.unlock()
    }
  }
}
