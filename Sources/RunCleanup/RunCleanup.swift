import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What this process has made and not kept yet: its private folders, the files it is still
/// writing, the output folders it is filling. When a run is interrupted (SIGINT, SIGTERM, SIGHUP),
/// ``removeEverythingAndStop()`` removes them all before the process exits.
///
/// Things are made and recorded under one lock, so that nothing made just before an interruption
/// escapes the list; once the list is being removed, that lock is never given back, so nothing new
/// is made while the process exits. Every removal checks identity first, as everywhere else (the
/// table in OwnFiles.swift): a path that names something else by then is left alone.
///
/// CLI-only: ``install()`` makes it the process's ``CreationRecorder``; the app's libraries never
/// install it, hold no ledger and take no lock for it.
package enum RunCleanup {
  typealias Entry = CreatedEntry

  /// What ``removeEverythingAndStop()`` did.
  package struct Summary: Sendable, Equatable {
    /// Paths removed, newest first.
    package var removed: [String] = []
    /// Paths that could not be removed (an interrupted run cannot do more; the next run's
    /// ``PrivateDirectory/removeLeftovers(in:prefixes:olderThan:)`` may).
    package var leftBehind: [String] = []
  }

  private final class Ledger: CreationRecorder, @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var entries: [Int: Entry] = [:]
    var nextID = 0
    var isStopped = false
    var leftoversRemoved: [String] = []

    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }

    func record<Made, Failure: Error>(
      _ make: () throws(Failure) -> (Made, CreatedEntry?)
    ) throws(Failure) -> (Made, Int?) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      let (made, entry) = try make()
      guard let entry else { return (made, nil) }
      let id = nextID
      nextID += 1
      entries[id] = entry
      return (made, id)
    }

    func forget(_ id: Int) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      entries[id] = nil
    }

    func noteLeftoversRemoved(_ paths: [String]) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      leftoversRemoved += paths
    }
  }

  private static let ledger = Ledger()

  /// Makes this process record what it makes (private folders, files being written, outputs being
  /// filled) so that ``removeEverythingAndStop()`` can remove them. Call it first in `main`, before
  /// any other thread starts; calling it again does nothing.
  package static func install() {
    CreationRecording.recorder = ledger
  }

  /// Takes the paths ``PrivateDirectory/removeLeftovers(in:prefixes:olderThan:)`` removed since
  /// the last call (the tool says so once per run).
  package static func takeLeftoversRemoved() -> [String] {
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    let paths = ledger.leftoversRemoved
    ledger.leftoversRemoved = []
    return paths
  }

  /// The paths recorded now, oldest first.
  package static var recordedPaths: [String] {
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    return ledger.entries.sorted { $0.key < $1.key }.map(\.value.path)
  }

  /// Removes everything recorded, newest first, and keeps the lock: nothing new is made or recorded
  /// in this process afterwards. For the interrupt handler, right before the process exits; a
  /// second call returns an empty summary.
  package static func removeEverythingAndStop() -> Summary {
    pthread_mutex_lock(ledger.mutex)
    // Never unlocked: the process is about to exit, and nothing may be made meanwhile.
    guard !ledger.isStopped else { return Summary() }
    ledger.isStopped = true
    var summary = Summary()
    for (_, entry) in ledger.entries.sorted(by: { $0.key > $1.key }) {
      let removed: Bool
      switch entry.kind {
      case .folder:
        removed = PrivateDirectory.removeFolder(
          at: entry.path, identity: entry.identity, keepingFolder: false)
      case .contents:
        removed = PrivateDirectory.removeFolder(
          at: entry.path, identity: entry.identity, keepingFolder: true)
      case .file:
        removed = CreatedFile.removeFile(at: entry.path, identity: entry.identity)
      }
      if removed {
        summary.removed.append(entry.path)
      } else if (try? FileStatus.of(path: entry.path))?.identity == entry.identity {
        summary.leftBehind.append(entry.path)
      }
    }
    ledger.entries = [:]
    return summary
  }
}
