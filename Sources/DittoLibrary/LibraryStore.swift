import Foundation
import SQLiteDB

/// The current library: a SQLite file this project owns, opened for reading and writing.
///
/// Opening refuses any file that is not a library (checked on its raw header first, so a foreign
/// database is never touched) and brings an older schema up to date.
///
/// ```swift
/// let library = try LibraryStore(path: container + "/DittoLibrary.sqlite")
/// let counts = try library.importItems { sink in try reader.walk(sink) }
/// ```
public final class LibraryStore {
  /// The library file.
  public let path: String
  let database: Database
  /// True while a new library waits for its first import before switching to WAL.
  var isAwaitingWAL = false
  /// Called after each row written during an import with the running count of writes.
  /// Tests use it to stop the process dead at a chosen point.
  public var writeStepHook: (@Sendable (Int) -> Void)?
  /// The largest library (in dittos) for which a bulk import checks "everything already there" with
  /// fingerprints held in memory (about 21 bytes per ditto) rather than one index probe per ditto.
  public var fingerprintPrecheckLimit = 2_000_000

  /// How long a writer waits for another process's import to finish.
  public static let busyTimeoutMilliseconds: Int32 = 60_000

  /// Opens (and when allowed, creates) the library at `path`.
  ///
  /// - Parameter createIfMissing: when false, a missing file is an error instead of a new library.
  /// - Throws: ``LibraryError``.
  public init(path: String, createIfMissing: Bool = true) throws(LibraryError) {
    self.path = path
    let verdict = try LibraryFileCheck.inspect(path: path)
    if verdict == .absent, !createIfMissing {
      throw .cannotOpen(file: path, reason: "no such file")
    }
    do {
      database = try Database(
        path: path, mode: .readWriteCreate, displayName: path,
        options: Database.Options(
          busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds, allowsURIFilenames: true))
    } catch {
      throw .cannotOpen(file: path, reason: "SQLite error \(error.extendedCode): \(error.message)")
    }
    try LibrarySchema.migrate(database, file: path)
    do {
      try database.execute(sql: "PRAGMA foreign_keys = OFF")
      try database.execute(sql: "PRAGMA synchronous = FULL")
      if verdict == .ours {
        try switchToWAL()
      } else {
        // A new library stays in rollback-journal mode until its first import has committed: the
        // header (application_id) reaches the main file at once, and a bulk load writes each page
        // once instead of twice (WAL, then checkpoint). Then WAL lets the app and the keyboard
        // extension read while the other writes.
        isAwaitingWAL = true
      }
    } catch {
      throw .writeFailed(error, file: path)
    }
  }

  /// Opens the library at `path` for reading only: nothing is created, migrated or written.
  ///
  /// When no library exists yet, an empty one is made in memory, so a preview of an import into a
  /// library that does not exist yet still works.
  ///
  /// - Throws: ``LibraryError``.
  public static func openReadOnly(path: String) throws(LibraryError) -> LibraryStore {
    switch try LibraryFileCheck.inspect(path: path) {
    case .absent, .adoptable:
      return try LibraryStore(path: path, database: nil)
    case .ours:
      do {
        let database = try Database(path: path, mode: .readOnly, displayName: path)
        let store = try LibraryStore(path: path, database: database)
        if try store.schemaVersion() > LibrarySchema.currentVersion {
          throw LibraryError.newerSchema(
            file: path, found: try store.schemaVersion(), supported: LibrarySchema.currentVersion)
        }
        return store
      } catch let error as LibraryError {
        throw error
      } catch {
        throw .cannotOpen(file: path, reason: "\(error)")
      }
    }
  }

  /// Wraps an open read-only connection, or (when nil) a new empty library in memory.
  private init(path: String, database: Database?) throws(LibraryError) {
    self.path = path
    if let database {
      self.database = database
      return
    }
    do {
      self.database = try Database(
        path: ":memory:", mode: .readWriteCreate, displayName: "\(path) (not created yet)")
    } catch {
      throw .cannotOpen(file: path, reason: "\(error)")
    }
    try LibrarySchema.migrate(self.database, file: path)
  }

  /// Closes the connection.
  ///
  /// - Throws: ``LibraryError/writeFailed(file:reason:)`` when SQLite refuses to close.
  public func close() throws(LibraryError) {
    do {
      try switchToWAL()
      try database.close()
    } catch {
      throw .writeFailed(error, file: path)
    }
  }

  /// Puts the library in WAL mode unless it already is. Another process holding the file open
  /// can make this wait or fail; the library is then left in rollback mode, which is just as
  /// correct, and the next open tries again.
  func switchToWAL() throws(SQLiteError) {
    guard path != ":memory:" else { return }
    let mode = try database.makeStatement(sql: "PRAGMA main.journal_mode").scalarText()
    guard mode?.lowercased() != "wal" else {
      isAwaitingWAL = false
      return
    }
    do {
      try database.execute(sql: "PRAGMA main.journal_mode = WAL")
      isAwaitingWAL = false
    } catch  where error.isBusy {
      // Left in rollback mode for now (see above).
    }
  }

  /// The schema version recorded in the file.
  public func schemaVersion() throws(LibraryError) -> Int {
    do {
      return Int(try database.makeStatement(sql: "PRAGMA user_version").scalarInt64() ?? 0)
    } catch {
      throw .writeFailed(error, file: path)
    }
  }

  // MARK: - Reading

  /// Streams the library in order: each category, then its dittos.
  ///
  /// - Throws: ``LibraryError`` for SQLite errors; errors from `body` propagate unchanged.
  public func walk(_ body: (LibraryItem) throws -> Void) throws {
    do {
      let categories = try database.makeStatement(
        sql: "SELECT id, title, sort_order, modified_at FROM category ORDER BY sort_order, id")
      let dittos = try database.makeStatement(
        sql: """
          SELECT text, use_count, sort_order, modified_at FROM ditto
          WHERE category_id = ? ORDER BY sort_order, id
          """)
      var rows: [(Int64, LibraryCategory)] = []
      while try categories.step() {
        rows.append(
          (
            categories.int64(at: 0),
            LibraryCategory(
              title: categories.text(at: 1) ?? "", sortOrder: categories.int64(at: 2),
              modifiedAt: categories.optionalDouble(at: 3) ?? 0)
          ))
      }
      categories.reset()
      for (id, category) in rows {
        try body(.category(category))
        try dittos.bind(.integer(id))
        while try dittos.step() {
          try body(
            .ditto(
              LibraryDitto(
                text: dittos.text(at: 0) ?? "", useCount: dittos.int64(at: 1),
                sortOrder: dittos.int64(at: 2), modifiedAt: dittos.optionalDouble(at: 3) ?? 0)))
        }
        dittos.reset()
      }
    } catch let error as SQLiteError {
      throw LibraryError.writeFailed(error, file: path)
    }
  }

  /// Loads the whole library into memory.
  public func load() throws -> Library {
    var library = Library()
    try walk { item in
      switch item {
      case .category(let category): library.categories.append(category)
      case .ditto(let ditto): library.categories[library.categories.count - 1].dittos.append(ditto)
      }
    }
    return library
  }
}

/// One step of a streamed library read.
public enum LibraryItem: Sendable, Equatable {
  /// A category starts (its `dittos` array is empty here).
  case category(LibraryCategory)
  /// A ditto of the current category.
  case ditto(LibraryDitto)
}

@available(*, unavailable)
extension LibraryStore: Sendable {}
