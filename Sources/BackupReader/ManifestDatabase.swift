import SQLiteDB
import SQLiteSnapshot

/// `Manifest.db` opened read-only on a private copy.
///
/// The file and any `-wal`/`-shm` beside it are copied into a fresh private folder first
/// (``StoreSnapshot``), so SQLite never opens anything inside the backup, and the copy is opened
/// read-only with the untrusted-reader settings (defensive mode, no triggers or views, query only).
///
/// Schema relied on (`.schema` of a Finder backup; reference §3):
///
///   TABLE   COLUMN        MEANING
///   Files   fileID        40 hex characters: the stored file's name
///           domain        `AppDomainGroup-group.io.kern.ditto`, `AppDomain-io.kern.Ditto`, …
///           relativePath  path inside the domain, no leading slash; '' for the domain root
///           flags         1 file, 2 folder, 4 link (others are skipped)
///           file          MBFile keyed archive (see MBFileRecord)
///
/// The manifest is accepted only if `Files` has those five columns; otherwise
/// ``BackupError/manifestUnreadable(file:reason:)`` is thrown. Rows are never guessed at: a Ditto row
/// whose `fileID` or `relativePath` is not text is reported in ``ManifestListing/problems``.
package final class ManifestDatabase {
  /// The manifest as the user knows it (`<backup>/Manifest.db`): every error names it.
  package let file: String
  private let snapshot: StoreSnapshot
  private let database: Database

  static let requiredColumns = ["fileID", "domain", "relativePath", "flags", "file"]

  /// Copies and opens the manifest at `path`.
  ///
  /// - Parameter displayName: the name used in errors (the backup's file when `path` is a decrypted copy).
  /// - Throws: ``BackupError``. A file without the SQLite header gives `.notADatabase`; callers decide
  ///   whether that means "encrypted".
  package init(path: String, displayName: String? = nil) throws(BackupError) {
    file = displayName ?? path
    do {
      snapshot = try StoreSnapshot(of: path)
    } catch {
      throw Self.classify(error, file: displayName ?? path)
    }
    do {
      database = try Database(
        path: snapshot.mainCopy, mode: .readOnly, displayName: file, options: .untrustedReader)
      try Self.checkSchema(database, file: file)
    } catch let error as BackupError {
      snapshot.remove()
      throw error
    } catch let error as SQLiteError {
      snapshot.remove()
      throw .manifestUnreadable(file: file, reason: error.description)
    } catch {
      snapshot.remove()
      throw .manifestUnreadable(file: file, reason: "\(error)")
    }
  }

  deinit {
    snapshot.remove()
  }

  /// Every row of Ditto's domains, decoded, after a complete scan of the query.
  ///
  /// - Throws: ``BackupError/manifestUnreadable(file:reason:)`` when SQLite fails part-way.
  package func dittoListing() throws(BackupError) -> ManifestListing {
    var listing = ManifestListing()
    do {
      listing.totalRows =
        try database.makeStatement(sql: "SELECT count(*) FROM Files").scalarInt64() ?? 0
      let statement = try database.makeStatement(
        sql: """
          SELECT rowid, fileID, domain, relativePath, flags, file FROM Files
          WHERE lower(domain) LIKE ? ORDER BY domain, relativePath, fileID
          """)
      try statement.bind(.text(DittoDomain.likePattern), at: 1)
      try statement.forEachRow { row in
        guard row.columnType(at: 2) == .text, let domain = row.text(at: 2),
          let kind = DittoDomain.of(domain)
        else { return }
        let rowID = row.int64(at: 0)
        guard row.columnType(at: 1) == .text, let fileID = row.text(at: 1) else {
          listing.problems.append("row \(rowID) of \(domain): fileID is not text; skipped")
          return
        }
        guard row.columnType(at: 3) == .text, let relativePath = row.text(at: 3) else {
          listing.problems.append("row \(rowID) (\(fileID)): relativePath is not text; skipped")
          return
        }
        var entry = ManifestEntry(
          fileID: fileID, domain: domain, dittoDomain: kind, relativePath: relativePath,
          flags: row.columnType(at: 4) == .integer ? row.int64(at: 4) : nil)
        if let blob = row.blob(at: 5) {
          do throws(MBFileError) {
            entry.record = try MBFileRecord.decode(blob)
          } catch {
            entry.recordProblem = error.reason
          }
        }
        listing.entries.append(entry)
      }
    } catch let error as SQLiteError {
      throw .manifestUnreadable(file: file, reason: error.description)
    } catch {
      throw .manifestUnreadable(file: file, reason: "\(error)")
    }
    return listing
  }

  // MARK: - Opening

  private static func checkSchema(_ database: Database, file: String) throws {
    var columns: Set<String> = []
    try database.makeStatement(sql: "PRAGMA table_info(Files)").forEachRow { row in
      if let name = row.text(at: 1) { columns.insert(name) }
    }
    let missing = requiredColumns.filter { !columns.contains($0) }
    guard missing.isEmpty else {
      throw BackupError.manifestUnreadable(
        file: file,
        reason: columns.isEmpty
          ? "no Files table: not a backup manifest"
          : "the Files table lacks \(missing.joined(separator: ", "))")
    }
  }

  private static func classify(_ error: SnapshotError, file: String) -> BackupError {
    switch error {
    case .notFound: .notFound(path: file)
    case .notARegularFile(_, let kind): .unreadable(file: file, reason: "is a \(kind.humanName)")
    case .ioError(_, let reason), .noSpace(_, let reason), .permissionDenied(_, let reason),
      .busy(_, let reason):
      .unreadable(file: file, reason: reason)
    case .changing: .unreadable(file: file, reason: error.description)
    case .notADatabase(_, let reason): .notADatabase(file: file, reason: reason)
    }
  }
}

@available(*, unavailable)
extension ManifestDatabase: Sendable {}
