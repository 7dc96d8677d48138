import SQLiteDB

/// A Ditto store described as SQL, for a connection that ATTACHes its snapshot and copies rows with
/// `INSERT … SELECT`: the same categories, order and rules as ``DittoStoreReader/walk(_:)``, without
/// a row passing through Swift.
///
/// Every table name is qualified with ``schema``; the snapshot at ``databasePath`` must be attached
/// under that name (read-only) for the SQL to run.
public struct DittoBulkSource: Sendable {
  /// One category in walk order and the SQL selecting its dittos in user order.
  public struct Category: Sendable {
    public var title: String
    public var origin: LegacyCategoryOrigin
    /// `"legacy"."ZDITTO"`.
    public var table: String
    /// The row filter, using `?1` when ``parameter`` is set. Rows with a NULL or empty text are not
    /// excluded here: add ``nonEmptyText``.
    public var filter: String
    public var parameter: Int64?
    /// The text column (`ZTEXT`).
    public var text: String
    /// The use-count expression (`ZUSE_COUNT`, or `NULL` when the column is missing).
    public var useCount: String
    /// The ORDER BY terms of user order.
    public var order: String

    /// `ZTEXT IS NOT NULL AND ZTEXT <> ''`: the reader skips other rows.
    public var nonEmptyText: String { "\(text) IS NOT NULL AND \(text) <> ''" }
  }

  /// The snapshot copy of the store's main file (its `-wal` beside it).
  public var databasePath: String
  /// The schema name the SQL expects the snapshot to be attached under.
  public var schema: String
  /// Categories in walk order.
  public var categories: [Category]
}

extension DittoStoreReader {
  /// Describes the store as SQL over the snapshot attached as `schema`; nil when the store cannot be
  /// attached to a UTF-8 database (SQLite attaches only databases of the same text encoding), in which
  /// case callers import its ``walk(_:)`` row by row.
  ///
  /// - Throws: ``LegacyStoreError``.
  public func makeBulkSource(schema: String = "legacy") throws(LegacyStoreError)
    -> DittoBulkSource?
  {
    guard storeTextEncoding == "UTF-8" else { return nil }
    do {
      var summary = LegacyReadSummary()
      let plan = try planCategories(summary: &summary)
      let categories = plan.map { category in
        let query = dittoQuery(for: category.selection, schema: schema)
        return DittoBulkSource.Category(
          title: category.title, origin: category.origin, table: query.table, filter: query.filter,
          parameter: query.parameter, text: query.text, useCount: query.useCount,
          order: query.order)
      }
      return DittoBulkSource(
        databasePath: snapshotPath, schema: schema, categories: categories)
    } catch let error as LegacyStoreError {
      throw error
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: file)
    } catch {
      throw .unreadable(file: file, reason: "\(error)")
    }
  }
}
