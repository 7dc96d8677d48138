import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The App Group's `NSUserDefaults` file, `<container>/Library/Preferences/group.io.kern.ditto.plist`.
///
/// Reads binary and XML property lists with the package's own reader (the same code on every
/// platform). Writes only the keys it is given, keeps every other key with its value, keeps the
/// file's format, and replaces the file atomically (temporary file in the same folder,
/// a full flush to the drive, `rename`) under an advisory lock on the folder, so the app and its keyboard extension never
/// lose each other's keys. A file that cannot be parsed is never overwritten.
package struct AppGroupDefaults: Sendable {
  /// The defaults file name iOS uses for the App Group.
  package static let fileName = ContainerLayout.appGroupPreferencesFileName
  /// How long ``update(_:)`` waits for another writer's lock before it gives up (transient).
  static let lockWaitMilliseconds = 10_000
  /// 3.0.2's completion flag.
  package static let completionKey = MigrationFlagKeys.completion
  /// 3.0.2's count of automatic attempts that ended in `found_unreadable`.
  package static let attemptsKey = MigrationFlagKeys.attempts
  /// Larger files are refused as unreadable rather than loaded.
  package static let maximumBytes = 64 << 20

  /// The defaults file.
  package let path: String
  /// How the finished temporary file takes the defaults file's place.
  let publishing: any TemporaryFilePublishing

  package init(path: String) {
    self.init(path: path, publishing: RenamePublishing())
  }

  /// A defaults file whose updates are published by `publishing` (tests substitute one that fails).
  init(path: String, publishing: any TemporaryFilePublishing) {
    self.path = path
    self.publishing = publishing
  }

  /// The file's contents, every key as written: nil when there is no file.
  ///
  /// - Throws: `DefaultsError.inaccessible(file:reason:)` when it cannot be opened or read now,
  ///   `DefaultsError.unreadable(file:reason:)` when it is not a property list we can use.
  package func load() throws(DefaultsError) -> PropertyListDictionary? {
    // An unchanged file is read once per run (the flags and the legacy keys, by every look):
    // known by its identity, size and times, looked at without opening it.
    let seen: FileStatus?
    do {
      seen = try FileStatus.of(path: path)
    } catch {
      seen = nil  // the read below names what is wrong
    }
    if let seen, let known = ReadCache.shared.values(of: path, ifStill: seen) { return known }
    guard let read = try loadWithFormat(unpairedSurrogates: .replaced) else { return nil }
    if let status = read.status { ReadCache.shared.keep(read.values, of: path, as: status) }
    return read.values
  }

  /// The contents last read of each defaults file, with the status the file had when it was read.
  private final class ReadCache: @unchecked Sendable {
    static let shared = ReadCache()
    private let lock = NSLock()
    private var entries: [String: (status: FileStatus, values: PropertyListDictionary)] = [:]

    /// What `path` held when it was last read, if `status` says it is the same file, unchanged.
    func values(of path: String, ifStill status: FileStatus) -> PropertyListDictionary? {
      lock.lock()
      defer { lock.unlock() }
      guard let entry = entries[path], status.kind == .regular,
        entry.status.identity == status.identity, entry.status.size == status.size,
        entry.status.modificationTime == status.modificationTime,
        entry.status.changeTime == status.changeTime
      else { return nil }
      return entry.values
    }

    func keep(_ values: PropertyListDictionary, of path: String, as status: FileStatus) {
      lock.lock()
      defer { lock.unlock() }
      entries[path] = (status, values)
    }
  }

  /// True when 3.0.2's completion flag is set.
  package func isMigrationComplete() throws(DefaultsError) -> Bool {
    Self.bool(try load()?[Self.completionKey])
  }

  /// 3.0.2's attempt counter (0 when absent).
  package func attempts() throws(DefaultsError) -> Int {
    Self.integer(try load()?[Self.attemptsKey])
  }

  /// Sets `changes` (every other key untouched, every key where it was, new keys after them) and
  /// returns the contents written.
  ///
  /// Every key and string of the file is written back as it was read: keys that differ only by
  /// Unicode normalization stay two keys. A file holding a string that cannot be written back as
  /// read (an unpaired UTF-16 surrogate) is not rewritten: `DefaultsError.writeFailed` names it.
  ///
  /// - Throws: `DefaultsError`; on error the file is unchanged.
  @discardableResult
  package func update(_ changes: [String: PropertyListValue]) throws(DefaultsError)
    -> PropertyListDictionary
  {
    if let written = try update({ _ in changes }) { return written }
    return try load() ?? PropertyListDictionary()
  }

  /// ``update(_:)`` with the changes `changes` computes from the contents as read under the lock
  /// (nil: no file); nothing is written (or created) when it returns none. Returns the contents
  /// written, nil when nothing was.
  @discardableResult
  package func update(
    _ changes: (PropertyListDictionary?) -> [String: PropertyListValue]
  ) throws(DefaultsError) -> PropertyListDictionary? {
    let folder = (path as NSString).deletingLastPathComponent
    // No folder, no file: nothing to lock yet, and nothing is made for no change.
    if !FileManager.default.fileExists(atPath: folder), changes(nil).isEmpty { return nil }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .writeFailed(
        file: path, reason: "cannot create \(folder): \(error.localizedDescription)")
    }
    let lock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard lock >= 0 else {
      throw .writeFailed(
        file: path, reason: "cannot open \(folder): \(String(cString: strerror(errno)))")
    }
    defer { close(lock) }
    // Waits a bounded time for another writer: a lock held forever is "not now", never a hang.
    var waited = 0
    while flock(lock, LOCK_EX | LOCK_NB) != 0 {
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK where waited < Self.lockWaitMilliseconds:
        usleep(20_000)
        waited += 20
      case EWOULDBLOCK:
        throw .inaccessible(
          file: path,
          reason: "another process has held the lock on \(folder) for \(waited / 1000) s")
      default:
        throw .writeFailed(
          file: path, reason: "cannot lock \(folder): \(String(cString: strerror(errno)))")
      }
    }
    defer { flock(lock, LOCK_UN) }
    // Read under the lock: another process may have written since.
    let current: (values: PropertyListDictionary, format: PropertyListFormat, status: FileStatus?)?
    do {
      current = try loadWithFormat(unpairedSurrogates: .refused)
    } catch {
      // A file that cannot be written back as read is refused only when it must be written.
      guard case .writeFailed = error,
        changes(try loadWithFormat(unpairedSurrogates: .replaced)?.values).isEmpty
      else { throw error }
      return nil
    }
    let wanted = changes(current?.values)
    if wanted.isEmpty { return nil }
    var values = current?.values ?? PropertyListDictionary()
    for (key, value) in PropertyListDictionary(wanted) { values[key] = value }
    let data = PropertyListWriter.encode(
      .dictionary(values), format: current?.format == .xml ? .xml : .binary)
    try replaceAtomically(with: Data(data), in: folder)
    return values
  }

  // MARK: - Reading

  private func loadWithFormat(unpairedSurrogates: PropertyListReader.UnpairedSurrogates)
    throws(DefaultsError)
    -> (values: PropertyListDictionary, format: PropertyListFormat, status: FileStatus?)?
  {
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(path: path)
    } catch .access(let error) where error.isNotFound {
      return nil
    } catch .access(let error) {
      throw .inaccessible(file: path, reason: error.description)
    } catch {
      throw .unreadable(file: path, reason: error.description)
    }
    guard file.size <= Int64(Self.maximumBytes) else {
      throw .unreadable(file: path, reason: "\(file.size) bytes is too large for a defaults file")
    }
    // The status before the bytes: a file changed while it is read no longer matches it.
    let status: FileStatus?
    do {
      status = try file.status()
    } catch {
      status = nil
    }
    let bytes: [UInt8]
    do {
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch {
      throw .inaccessible(file: path, reason: error.description)
    }
    if bytes.isEmpty {
      throw .unreadable(file: path, reason: "the file is empty (0 bytes)")
    }
    let decoded: (value: PropertyListValue, format: PropertyListFormat)
    do {
      decoded = try PropertyListReader.decode(bytes, unpairedSurrogates: unpairedSurrogates)
    } catch  where error.kind == .unpairedSurrogate {
      // Read to be written back: the file is readable, but not rewritable as read.
      throw .writeFailed(
        file: path, reason: "it would not be written back as read: \(error.reason)")
    } catch {
      throw .unreadable(file: path, reason: error.reason)
    }
    guard case .dictionary(let values) = decoded.value else {
      throw .unreadable(file: path, reason: "the property list is not a dictionary")
    }
    return (values, decoded.format, status)
  }

  // MARK: - Writing

  private func replaceAtomically(with data: Data, in folder: String) throws(DefaultsError) {
    // Our own new temporary file beside the defaults file, renamed over it once complete; on
    // failure only that temporary file is removed (CreatedFile checks it is still ours).
    let temporary: CreatedFile
    do {
      temporary = try CreatedFile(uniqueIn: folder, prefix: "." + Self.fileName + ".")
    } catch {
      throw .writeFailed(file: path, reason: "cannot create a temporary file: \(error.reason)")
    }
    let fd = temporary.descriptor
    var failure: String?
    // Keep the permissions of the file being replaced (mkstemp creates 0600).
    var existing = stat()
    let mode = lstat(path, &existing) == 0 ? mode_t(existing.st_mode & 0o7777) : mode_t(0o644)
    if fchmod(fd, mode) != 0 { failure = String(cString: strerror(errno)) }
    data.withUnsafeBytes { raw in
      var offset = 0
      while failure == nil, offset < raw.count {
        let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += written
      }
    }
    if failure == nil {
      let code = syncToDrive(fd)
      if code != 0 { failure = String(cString: strerror(code)) }
    }
    temporary.close()
    if failure == nil {
      let code = publishing.publish(temporary.path, as: path)
      if code != 0 { failure = String(cString: strerror(code)) }
    }
    if let failure {
      temporary.discard()
      throw .writeFailed(file: path, reason: failure)
    }
  }

  // MARK: - Values

  /// A flag as `UserDefaults.bool(forKey:)` reads one: a boolean, a non-zero number, or the
  /// strings `1`, `true`, `yes`.
  static func bool(_ value: PropertyListValue?) -> Bool {
    switch value {
    case .bool(let flag): flag
    case .integer(let number): number != 0
    case .real(let number): number != 0
    case .string(let text): ["1", "true", "yes"].contains(text.lowercased())
    default: false
    }
  }

  /// A counter as `UserDefaults.integer(forKey:)` reads one: an integer, a real's whole part, a
  /// boolean as 0 or 1, or a string of digits.
  static func integer(_ value: PropertyListValue?) -> Int {
    switch value {
    case .integer(let number): Int(clamping: number)
    case .real(let number) where number.isFinite:
      Int(exactly: number.rounded(.towardZero)) ?? 0
    case .bool(let flag): flag ? 1 : 0
    case .string(let text): Int(text) ?? 0
    default: 0
    }
  }
}

// MARK: - As the engine's flag store and legacy source

extension AppGroupDefaults: MigrationFlagStore, LegacyDefaultsSource {
  package func readFlags() throws(FlagStoreError) -> MigrationFlags {
    do {
      return Self.flags(in: try load())
    } catch {
      throw FlagStoreError(store: path, reason: error.reason)
    }
  }

  /// Writes only the keys whose value changes; every other key keeps its value. The flags are
  /// compared and written under the write lock, with one read of the file.
  package func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    do {
      try update { values in
        let current = Self.flags(in: values)
        var changes: [String: PropertyListValue] = [:]
        if flags.isComplete != current.isComplete {
          changes[Self.completionKey] = .bool(flags.isComplete)
        }
        if flags.attempts != current.attempts {
          changes[Self.attemptsKey] = .integer(Int64(flags.attempts))
        }
        return changes
      }
    } catch {
      throw FlagStoreError(store: path, reason: error.reason)
    }
  }

  /// The flags `values` hold (unset ones as their defaults).
  private static func flags(in values: PropertyListDictionary?) -> MigrationFlags {
    MigrationFlags(
      isComplete: bool(values?[completionKey]), attempts: integer(values?[attemptsKey]))
  }

  package var legacySourceName: String { path }

  package func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? {
    try load()?.merged
  }
}

/// How a finished temporary file takes the place of the file it replaces, atomically.
protocol TemporaryFilePublishing: Sendable {
  /// Gives `temporary` the name `path`. Returns 0, or the `errno` of the failure (the temporary
  /// file is then discarded, if it is still ours).
  func publish(_ temporary: String, as path: String) -> Int32
}

/// `rename(2)`: atomic within one folder.
struct RenamePublishing: TemporaryFilePublishing {
  func publish(_ temporary: String, as path: String) -> Int32 {
    rename(temporary, path) == 0 ? 0 : errno
  }
}
