import SQLiteDB
import SQLiteSnapshot
import SafeFiles

/// Why a legacy store could not be read. Every case names the file; ``description`` is the
/// "usable error string" that `RecoveryResult.foundButUnreadable` carries.
///
/// None of these means "empty": a store that was read completely and holds no dittos is a
/// ``LegacyLibrary`` with no dittos, never an error, and an error is never turned into one.
/// ``kind`` says, once for every caller, whether the failure is ``FailureKind/transient(_:)`` (the
/// store may be fine; try later) or ``FailureKind/permanent``.
package enum LegacyStoreError: Error, Equatable, Sendable, NamingFiles {
  /// Nothing exists at the path (it was there when the places were probed).
  case notFound(file: String)
  /// A FIFO, socket, device, directory or symbolic link has the store's name, or a probed folder is
  /// a link. It was not opened or followed.
  case notARegularFile(file: String, kind: FileKind)
  /// A probed folder (or one on the way to it) is a symbolic link: it is never followed, so what it
  /// leads to was not looked at.
  case linkedFolder(file: String)
  /// The process may not open the file, a sidecar or a folder on the way (EACCES, EPERM).
  case permissionDenied(file: String, reason: String)
  /// Another process holds the file or a lock on it (EAGAIN, EBUSY, SQLite busy or locked).
  case busy(file: String, reason: String)
  /// Reading failed with an I/O error (EIO, SQLite's I/O and cannot-open errors).
  case ioError(file: String, reason: String)
  /// The files kept changing while they were copied to the private snapshot.
  case changing(file: String, reason: String)
  /// The bytes are not an SQLite database (zero bytes, garbage, encrypted, zeroed header).
  case notADatabase(file: String, reason: String)
  /// SQLite reports the database as damaged, at open or in the middle of a read.
  case damaged(file: String, reason: String)
  /// An SQLite database, but not one Core Data wrote: the named tables are missing.
  case notACoreDataStore(file: String, missing: [String])
  /// A Core Data store, but not Ditto's: the named entities, tables or columns are missing.
  case notADittoStore(file: String, missing: [String])
  /// The Ditto 3.x library (`Ditto.store`: `DittoCategory`, `DittoItem`), not a 2.x store: nothing
  /// to recover from it.
  case ditto3Library(file: String)
  /// SQLite refused to read it for another reason (the SQLite error is in `reason`).
  case unreadable(file: String, reason: String)
  /// The private snapshot could not be made: the disk is full. The store itself was not touched;
  /// this passes once space is freed.
  case noSpaceForSnapshot(file: String, reason: String)

  /// The file the error is about.
  package var file: String {
    switch self {
    case .notFound(let file), .notARegularFile(let file, _), .linkedFolder(let file),
      .permissionDenied(let file, _),
      .busy(let file, _), .ioError(let file, _), .changing(let file, _),
      .notADatabase(let file, _), .damaged(let file, _), .notACoreDataStore(let file, _),
      .notADittoStore(let file, _), .ditto3Library(let file), .unreadable(let file, _),
      .noSpaceForSnapshot(let file, _):
      file
    }
  }

  /// A short stable code for logs and JSON (`not_a_database`, `io_error`, …); never user content.
  package var code: String {
    switch self {
    case .notFound: "not_found"
    case .notARegularFile: "not_a_regular_file"
    case .linkedFolder: "linked_folder"
    case .permissionDenied: "permission_denied"
    case .busy: "busy"
    case .ioError: "io_error"
    case .changing: "changing"
    case .notADatabase: "not_a_database"
    case .damaged: "damaged"
    case .notACoreDataStore: "not_a_core_data_store"
    case .notADittoStore: "not_a_ditto_store"
    case .ditto3Library: "ditto_3_library"
    case .unreadable: "unreadable"
    case .noSpaceForSnapshot: "no_space_for_snapshot"
    }
  }

  /// Whether this failure says something about the store's bytes: the one classification every
  /// caller uses (the attempt cap, the telemetry `reason=`, the advice shown).
  package var kind: FailureKind {
    switch self {
    case .permissionDenied: .transient(.permission)
    case .busy: .transient(.busy)
    case .ioError: .transient(.locked)
    case .noSpaceForSnapshot: .transient(.noSpace)
    case .changing, .notFound: .transient(.changing)
    case .notARegularFile, .linkedFolder: .transient(.notAFile)
    case .notADatabase, .damaged, .notACoreDataStore, .notADittoStore, .ditto3Library,
      .unreadable:
      .permanent
    }
  }

  /// True when trying again later might succeed (``kind`` is transient).
  package var isTransient: Bool { kind != .permanent }

  package func described(naming shown: (String) -> String) -> String {
    problem.described(naming: shown)
  }

  /// The file and why, apart (see ``FileProblem``).
  package var problem: FileProblem { FileProblem(file: file, reason: reason) }

  /// Why, without the file's name.
  private var reason: String {
    switch self {
    case .notFound:
      "no such file"
    case .notARegularFile(_, let kind):
      "is a \(kind.humanName), not a regular file; it was not opened"
    case .linkedFolder:
      "is a symbolic link to a folder; links are never followed, so what it leads to was not looked at"
    case .permissionDenied(_, let reason):
      "not allowed to read it (\(reason))"
    case .busy(_, let reason):
      "in use by another process (\(reason))"
    case .ioError(_, let reason):
      "could not be read: \(reason)"
    case .changing(_, let reason):
      reason
    case .notADatabase(_, let reason):
      "not an SQLite database (\(reason))"
    case .damaged(_, let reason):
      "the database is damaged (\(reason))"
    case .notACoreDataStore(_, let missing):
      "not a Core Data store (missing \(missing.joined(separator: ", ")))"
    case .notADittoStore(_, let missing):
      "not a Ditto store (missing \(missing.joined(separator: ", ")))"
    case .ditto3Library:
      "is a Ditto 3.x library (Ditto.store), not a Ditto 2.x store: there are no old dittos to recover in it"
    case .unreadable(_, let reason):
      "could not be read (\(reason))"
    case .noSpaceForSnapshot(_, let reason):
      "not enough free space to copy it to a private snapshot (\(reason)); free some space and try again"
    }
  }

  /// Classifies an SQLite error met while opening or reading `file` (its private copy).
  package static func from(_ error: SQLiteError, file: String) -> LegacyStoreError {
    let reason = "SQLite error \(error.extendedCode): \(error.codeText)"
    switch error.primaryCode {
    case 26: return .notADatabase(file: file, reason: reason)  // SQLITE_NOTADB
    case 11: return .damaged(file: file, reason: reason)  // SQLITE_CORRUPT
    case 5, 6: return .busy(file: file, reason: reason)  // SQLITE_BUSY, SQLITE_LOCKED
    case 3, 23: return .permissionDenied(file: file, reason: reason)  // SQLITE_PERM, SQLITE_AUTH
    case 13: return .noSpaceForSnapshot(file: file, reason: reason)  // SQLITE_FULL
    case 10, 14, 7, 9, 22:  // IOERR, CANTOPEN, NOMEM, INTERRUPT, NOLFS
      return .ioError(file: file, reason: reason)
    default: return .unreadable(file: file, reason: "\(reason): \(error.message)")
    }
  }

  /// Classifies a failure to make the private snapshot of `file`.
  package static func from(_ error: SnapshotError, file: String) -> LegacyStoreError {
    switch error {
    case .notFound: .notFound(file: file)
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .permissionDenied(let failed, let reason): .permissionDenied(file: failed, reason: reason)
    case .busy(let failed, let reason): .busy(file: failed, reason: reason)
    case .ioError(let failed, let reason): .ioError(file: failed, reason: reason)
    case .notADatabase(_, let reason): .notADatabase(file: file, reason: reason)
    case .noSpace(_, let reason): .noSpaceForSnapshot(file: file, reason: reason)
    case .changing(_, let attempts):
      .changing(
        file: file,
        reason:
          "kept changing while it was copied (\(attempts) tries): another process is writing it"
      )
    }
  }

  /// Classifies a failure to open or copy `file` itself.
  package static func from(_ error: SafeFileError, file: String) -> LegacyStoreError {
    switch error {
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .access(let access): from(access, file: file)
    }
  }

  /// Classifies a system call's failure on `file` by its `errno`.
  package static func from(_ access: FileAccessError, file: String) -> LegacyStoreError {
    from(SnapshotError.from(access, file: file), file: file)
  }
}
