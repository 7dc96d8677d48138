import SQLiteDB
import SQLiteSnapshot
import SafeFiles

/// Why a legacy store could not be read. Every case names the file; ``description`` is the
/// "usable error string" that `RecoveryResult.foundButUnreadable` carries.
///
/// None of these means "empty": a store that was read completely and holds no dittos is a
/// ``LegacyLibrary`` with no dittos, never an error, and an error is never turned into one.
public enum LegacyStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing exists at the path.
  case notFound(file: String)
  /// A FIFO, socket, device, directory or symbolic link has the store's name. It was not opened.
  case notARegularFile(file: String, kind: FileKind)
  /// The file exists but reading it failed (permissions, I/O error). Retrying may help.
  case ioError(file: String, reason: String)
  /// The bytes are not an SQLite database (zero bytes, garbage, encrypted, zeroed header).
  case notADatabase(file: String, reason: String)
  /// SQLite reports the database as damaged, at open or in the middle of a read.
  case damaged(file: String, reason: String)
  /// An SQLite database, but not one Core Data wrote: the named tables are missing.
  case notACoreDataStore(file: String, missing: [String])
  /// A Core Data store, but not Ditto's: the named entities, tables or columns are missing.
  case notADittoStore(file: String, missing: [String])
  /// SQLite refused to read it for another reason (the SQLite error is in `reason`).
  case unreadable(file: String, reason: String)
  /// The private snapshot could not be made: the disk is full. The store itself was not touched;
  /// this passes once space is freed.
  case noSpaceForSnapshot(file: String, reason: String)

  /// The file the error is about.
  public var file: String {
    switch self {
    case .notFound(let file), .notARegularFile(let file, _), .ioError(let file, _),
      .notADatabase(let file, _), .damaged(let file, _), .notACoreDataStore(let file, _),
      .notADittoStore(let file, _), .unreadable(let file, _), .noSpaceForSnapshot(let file, _):
      file
    }
  }

  /// A short stable code for logs and JSON (`not_a_database`, `io_error`, …); never user content.
  public var code: String {
    switch self {
    case .notFound: "not_found"
    case .notARegularFile: "not_a_regular_file"
    case .ioError: "io_error"
    case .notADatabase: "not_a_database"
    case .damaged: "damaged"
    case .notACoreDataStore: "not_a_core_data_store"
    case .notADittoStore: "not_a_ditto_store"
    case .unreadable: "unreadable"
    case .noSpaceForSnapshot: "no_space_for_snapshot"
    }
  }

  /// True when trying again later might succeed (I/O errors and locks, not bad contents).
  public var isTransient: Bool {
    switch self {
    case .ioError, .notFound, .noSpaceForSnapshot: true
    case .notARegularFile, .notADatabase, .damaged, .notACoreDataStore, .notADittoStore,
      .unreadable:
      false
    }
  }

  public var description: String {
    switch self {
    case .notFound(let file):
      "\(file): no such file"
    case .notARegularFile(let file, let kind):
      "\(file): is a \(kind.humanName), not a regular file; it was not opened"
    case .ioError(let file, let reason):
      "\(file): could not be read: \(reason)"
    case .notADatabase(let file, let reason):
      "\(file): not an SQLite database (\(reason))"
    case .damaged(let file, let reason):
      "\(file): the database is damaged (\(reason))"
    case .notACoreDataStore(let file, let missing):
      "\(file): not a Core Data store (missing \(missing.joined(separator: ", ")))"
    case .notADittoStore(let file, let missing):
      "\(file): not a Ditto store (missing \(missing.joined(separator: ", ")))"
    case .unreadable(let file, let reason):
      "\(file): could not be read (\(reason))"
    case .noSpaceForSnapshot(let file, let reason):
      "\(file): not enough free space to copy it to a private snapshot (\(reason)); free some space and try again"
    }
  }

  /// Classifies an SQLite error met while opening or reading `file`.
  public static func from(_ error: SQLiteError, file: String) -> LegacyStoreError {
    let reason = "SQLite error \(error.extendedCode): \(error.codeText)"
    switch error.primaryCode {
    case 26: return .notADatabase(file: file, reason: reason)  // SQLITE_NOTADB
    case 11: return .damaged(file: file, reason: reason)  // SQLITE_CORRUPT
    case 10, 14, 5, 6, 3, 13:  // IOERR, CANTOPEN, BUSY, LOCKED, PERM, FULL
      return .ioError(file: file, reason: reason)
    default: return .unreadable(file: file, reason: "\(reason): \(error.message)")
    }
  }

  /// Classifies a failure to make the private snapshot of `file`.
  public static func from(_ error: SnapshotError, file: String) -> LegacyStoreError {
    switch error {
    case .notFound: .notFound(file: file)
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .ioError(let failed, let reason): .ioError(file: failed, reason: reason)
    case .notADatabase(_, let reason): .notADatabase(file: file, reason: reason)
    case .noSpace(_, let reason): .noSpaceForSnapshot(file: file, reason: reason)
    }
  }

  /// Classifies a failure to open or copy `file` itself.
  public static func from(_ error: SafeFileError, file: String) -> LegacyStoreError {
    switch error {
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .access(let access) where access.isNotFound: .notFound(file: file)
    case .access(let access): .ioError(file: file, reason: "\(access.operation): \(access.reason)")
    }
  }
}
