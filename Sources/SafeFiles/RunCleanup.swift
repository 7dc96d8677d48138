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
public enum RunCleanup {
  /// How a recorded entry is removed.
  enum Kind {
    /// A folder we made, with everything in it.
    case folder
    /// What an existing empty folder came to hold during this run; the folder stays.
    case contents
    /// A regular file we made.
    case file
  }

  struct Entry {
    let kind: Kind
    let path: String
    let identity: FileIdentity
  }

  /// What ``removeEverythingAndStop()`` did.
  public struct Summary: Sendable, Equatable {
    /// Paths removed, newest first.
    public var removed: [String] = []
    /// Paths that could not be removed (an interrupted run cannot do more; the next run's
    /// ``PrivateDirectory/removeLeftovers(in:prefixes:olderThan:)`` may).
    public var leftBehind: [String] = []
  }

  private final class Ledger: @unchecked Sendable {
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
  }

  private static let ledger = Ledger()

  /// Makes something and records it, as one step under the ledger's lock: `make` returns the entry
  /// to record (nil when it made nothing to record).
  static func record<Made, Failure: Error>(
    _ make: () throws(Failure) -> (Made, Entry?)
  ) throws(Failure) -> (Made, Int?) {
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    let (made, entry) = try make()
    guard let entry else { return (made, nil) }
    let id = ledger.nextID
    ledger.nextID += 1
    ledger.entries[id] = entry
    return (made, id)
  }

  /// Forgets an entry: it was removed, or it is kept (a finished output).
  static func forget(_ id: Int?) {
    guard let id else { return }
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    ledger.entries[id] = nil
  }

  static func noteLeftoversRemoved(_ paths: [String]) {
    guard !paths.isEmpty else { return }
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    ledger.leftoversRemoved += paths
  }

  /// Takes the paths ``PrivateDirectory/removeLeftovers(in:prefixes:olderThan:)`` removed since
  /// the last call (the tool says so once per run).
  public static func takeLeftoversRemoved() -> [String] {
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    let paths = ledger.leftoversRemoved
    ledger.leftoversRemoved = []
    return paths
  }

  /// The paths recorded now, oldest first.
  public static var recordedPaths: [String] {
    pthread_mutex_lock(ledger.mutex)
    defer { pthread_mutex_unlock(ledger.mutex) }
    return ledger.entries.sorted { $0.key < $1.key }.map(\.value.path)
  }

  /// Removes everything recorded, newest first, and keeps the lock: nothing new is made or recorded
  /// in this process afterwards. For the interrupt handler, right before the process exits; a
  /// second call returns an empty summary.
  public static func removeEverythingAndStop() -> Summary {
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

/// An output folder a command is filling: removed (or emptied, if it existed empty) when the run
/// is interrupted before ``keep()``; kept as it is once kept, or when released (an error that
/// stops a command leaves what it wrote, and says where).
public final class OutputInProgress {
  /// The folder's path.
  public let path: String
  private var id: Int?

  private init(path: String, id: Int?) {
    self.path = path
    self.id = id
  }

  /// Creates the folder `path` (mode 0700), which must not exist.
  ///
  /// - Throws: ``FileAccessError`` (`mkdir`), `EEXIST` when something has that name.
  public static func makeFolder(_ path: String) throws(FileAccessError) -> OutputInProgress {
    let (_, id) = try RunCleanup.record { () throws(FileAccessError) -> ((), RunCleanup.Entry?) in
      guard mkdir(path, 0o700) == 0 else {
        throw FileAccessError(path: path, operation: "mkdir", code: errno)
      }
      guard let status = try FileStatus.of(path: path), status.kind == .directory else {
        return ((), nil)
      }
      return ((), RunCleanup.Entry(kind: .folder, path: path, identity: status.identity))
    }
    return OutputInProgress(path: path, id: id)
  }

  /// A new folder `<base>/<prefix>XXXXXX` (`mkdtemp`, mode 0700), its path with links resolved.
  ///
  /// - Throws: ``FileAccessError`` (`mkdtemp`, `realpath`).
  public static func makeUniqueFolder(prefix: String, in base: String) throws(FileAccessError)
    -> OutputInProgress
  {
    let (path, id) = try RunCleanup.record {
      () throws(FileAccessError) -> (String, RunCleanup.Entry?) in
      let made = try PrivateDirectory.makeUnique(prefix: prefix, in: base, resolvingLinks: true)
      return (
        made.path, RunCleanup.Entry(kind: .folder, path: made.path, identity: made.identity)
      )
    }
    return OutputInProgress(path: path, id: id)
  }

  /// An existing empty folder `path` (links in its path followed) that this run fills: an
  /// interruption removes what it holds and leaves the folder.
  ///
  /// - Throws: ``FileAccessError`` when `path` is not a folder.
  public static func filling(_ path: String) throws(FileAccessError) -> OutputInProgress {
    let real = UserPath.resolved(path)
    let (_, id) = try RunCleanup.record { () throws(FileAccessError) -> ((), RunCleanup.Entry?) in
      guard let status = try FileStatus.of(path: real), status.kind == .directory else {
        throw FileAccessError(path: path, operation: "lstat", code: ENOTDIR)
      }
      return ((), RunCleanup.Entry(kind: .contents, path: real, identity: status.identity))
    }
    return OutputInProgress(path: path, id: id)
  }

  /// The output is complete: an interruption from now on leaves it.
  public func keep() {
    RunCleanup.forget(id)
    id = nil
  }

  deinit {
    RunCleanup.forget(id)
  }
}

@available(*, unavailable)
extension OutputInProgress: Sendable {}
