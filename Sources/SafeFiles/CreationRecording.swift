#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thing this process made and has not kept yet: how it is removed, where it is, and what it is
/// (its identity is checked before any removal).
package struct CreatedEntry: Sendable {
  /// How the entry is removed.
  package enum Kind: Sendable {
    /// A folder we made, with everything in it.
    case folder
    /// What an existing empty folder came to hold during this run; the folder stays.
    case contents
    /// A regular file we made.
    case file
  }

  package let kind: Kind
  package let path: String
  package let identity: FileIdentity

  package init(kind: Kind, path: String, identity: FileIdentity) {
    self.kind = kind
    self.path = path
    self.identity = identity
  }
}

/// Keeps the list of what this process has made and not kept, so that an interrupted run can
/// remove it. Installed by `ditto-recover` (the `RunCleanup` target, CLI-only); the app installs
/// none, and then nothing is recorded and no lock is taken.
package protocol CreationRecorder: AnyObject, Sendable {
  /// Runs `make` and records the entry it returns (nil: nothing to record) as one step, so that
  /// nothing made just before an interruption escapes the list.
  func record<Made, Failure: Error>(
    _ make: () throws(Failure) -> (Made, CreatedEntry?)
  ) throws(Failure) -> (Made, Int?)

  /// Forgets an entry: it was removed, or it is kept (a finished output).
  func forget(_ id: Int)

  /// Leftovers of earlier runs that were removed (the tool says so once per run).
  func noteLeftoversRemoved(_ paths: [String])
}

/// The recorder in use, if any.
package enum CreationRecording {
  private final class Slot: @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var recorder: (any CreationRecorder)?

    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
  }

  private static let slot = Slot()

  /// Set by `RunCleanup.install()`, first thing in `ditto-recover`'s `main`; never set in the app.
  /// Read and written under a lock of its own, always released.
  package static var recorder: (any CreationRecorder)? {
    get {
      pthread_mutex_lock(slot.mutex)
      defer { pthread_mutex_unlock(slot.mutex) }
      return slot.recorder
    }
    set {
      pthread_mutex_lock(slot.mutex)
      defer { pthread_mutex_unlock(slot.mutex) }
      slot.recorder = newValue
    }
  }

  static func record<Made, Failure: Error>(
    _ make: () throws(Failure) -> (Made, CreatedEntry?)
  ) throws(Failure) -> (Made, Int?) {
    guard let recorder else { return (try make().0, nil) }
    return try recorder.record(make)
  }

  static func forget(_ id: Int?) {
    guard let id else { return }
    recorder?.forget(id)
  }

  static func noteLeftoversRemoved(_ paths: [String]) {
    guard !paths.isEmpty else { return }
    recorder?.noteLeftoversRemoved(paths)
  }
}
