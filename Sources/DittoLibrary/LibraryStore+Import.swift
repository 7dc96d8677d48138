import LegacyStore
import SQLiteDB

/// A source of legacy items: calls its argument for each category and ditto, in order, and returns
/// only after reading everything (or throws).
public typealias LegacyItemSource = ((LegacyItem) throws -> Void) throws -> Void

extension LibraryStore {
  /// Imports `source` in one immediate transaction: all of it or nothing.
  ///
  /// The write lock is taken at `BEGIN`, and duplicates are checked inside the transaction, so a second
  /// process importing the same data at the same time waits, then finds everything present.
  /// When the source offers no ditto at all, nothing is written (not even its empty categories).
  ///
  /// - Throws: ``LibraryError/writeFailed(file:reason:)`` for SQLite errors (rolled back);
  ///   errors thrown by `source` propagate unchanged (also rolled back).
  /// - Parameter willFinish: called with the counts once the source is read, before the commit.
  public func importItems(
    _ source: LegacyItemSource, willFinish: (ImportCounts) -> Void = { _ in }
  ) throws -> ImportCounts {
    var counts = ImportCounts()
    do {
      try database.inTransaction(.immediate) {
        let session = try LibraryImport(
          database: database, isPreview: false, writeStepHook: writeStepHook)
        try source { item in
          try session.apply(item)
        }
        counts = session.counts
        willFinish(counts)
        return counts.dittosRead == 0 ? .rollback : .commit
      }
      if isAwaitingWAL { try switchToWAL() }
    } catch let error as SQLiteError {
      throw LibraryError.writeFailed(error, file: path)
    }
    return counts
  }

  /// Imports a 2.x store by SQL (its snapshot attached read-only, each category copied with one
  /// `INSERT … SELECT` in user order), then `extra` item by item, all in one immediate transaction.
  ///
  /// Same rules and counts as ``importItems(_:willFinish:)`` over the store's walk, without each row
  /// passing through Swift.
  ///
  /// - Throws: ``LibraryError/writeFailed(file:reason:)`` for SQLite errors (rolled back);
  ///   errors thrown by `extra` propagate unchanged (also rolled back).
  public func importItems(
    bulk source: DittoBulkSource, then extra: LegacyItemSource = { _ in },
    willFinish: (ImportCounts) -> Void = { _ in }
  ) throws -> ImportCounts {
    var counts = ImportCounts()
    let schema = SQLText.quotedIdentifier(source.schema)
    do {
      try database.execute(
        sql:
          "ATTACH DATABASE '\(SQLText.escapedLiteral(Database.readOnlyURI(path: source.databasePath)))' AS \(schema)"
      )
    } catch {
      throw LibraryError.writeFailed(error, file: path)
    }
    defer {
      do { try database.execute(sql: "DETACH DATABASE \(schema)") } catch {
        // The connection is closed soon after; a failed detach leaves nothing behind.
      }
    }
    do {
      try database.inTransaction(.immediate) {
        let session = try LibraryImport(
          database: database, isPreview: false, writeStepHook: writeStepHook,
          fingerprintLimit: fingerprintPrecheckLimit)
        try session.bulkCopy(source)
        try extra { item in
          try session.apply(item)
        }
        counts = session.counts
        willFinish(counts)
        return counts.dittosRead == 0 ? .rollback : .commit
      }
      if isAwaitingWAL { try switchToWAL() }
    } catch let error as SQLiteError {
      throw LibraryError.writeFailed(error, file: path)
    }
    return counts
  }

  /// Computes what ``importItems(_:)`` would do, without writing anything to the library.
  ///
  /// - Throws: ``LibraryError`` for SQLite errors; errors from `source` propagate unchanged.
  public func previewImport(_ source: LegacyItemSource) throws -> ImportCounts {
    do {
      let session = try LibraryImport(database: database, isPreview: true, writeStepHook: nil)
      try source { item in
        try session.apply(item)
      }
      return session.counts
    } catch let error as SQLiteError {
      throw LibraryError.writeFailed(error, file: path)
    }
  }
}
