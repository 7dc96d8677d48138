import SQLiteDB

/// A Ditto store described as SQL: its categories in walk order and one statement shape that yields
/// every ditto in walk order, for the reader's walk of a store too large to hold (and the survey's
/// pass, which maps categories by the same rule).
///
/// The dittos are read in one pass over the table (`NOT INDEXED`: a full scan, then one sort), which
/// is how SQLite reads a large table fastest: following the category index instead fetches rows in
/// key order, one page read per ditto when keys are scattered.
///
/// Every table name is qualified with ``schema``.
package struct DittoBulkSource: Sendable {
  /// One category in walk order.
  package struct Category: Sendable {
    package var title: String
    package var origin: LegacyCategoryOrigin
    /// The category's `Z_PK`; nil for `Recovered` (dittos whose category is NULL or missing).
    package var key: Int64?
  }

  /// The schema name the SQL expects the store under.
  package var schema: String
  /// Categories in walk order (`Recovered` last, when planned).
  package var categories: [Category]
  /// `"schema"."ZDITTO"`.
  var table: String
  /// `ZUSE_COUNT`, or `NULL` when the column is missing.
  var useCount: String
  /// `ZCATEGORY`, or `NULL` when the column is missing (every ditto is then an orphan).
  var categoryKey: String
  /// `Z_FOK_CATEGORY`, or nil when the column is missing (order falls back to `Z_PK`).
  var orderKey: String?

  /// The ORDER BY of walk order over ``orderedCTE(extraColumns:)``'s `ordered` rows.
  package static let walkOrder = "r, k NULLS LAST, p"

  /// The name of the SQL function ``orderedCTE(lookup:extraColumns:)`` calls: register it with
  /// ``lookupRows(values:)`` on the connection that runs the statement.
  package static let lookupFunction = "ditto_category_lookup"

  /// `WITH ordered AS (…)`: one row per ditto of a planned category with `r` (the category's
  /// position in walk order), `k` (order key, NULL for orphans), `p` (`Z_PK`), `t` (text),
  /// `u` (use count) and each extra column of its category.
  ///
  /// Categories are mapped through ``lookupFunction`` (a hash lookup per row) rather than a join.
  ///
  /// - Parameter extraColumns: names of the per-category values registered after the rank
  ///   (for example the library category id and its first free position).
  package func orderedCTE(extraColumns: [String] = []) -> String {
    let link = categoryKey == "NULL" ? "NULL" : "d.\(categoryKey)"
    let uses = useCount == "NULL" ? "NULL" : "d.\(useCount)"
    let order = orderKey.map { "d.\($0)" } ?? "NULL"
    let function = Self.lookupFunction
    var inner = ["\(function)(\(link), 0) AS r", "\(order) AS k0"]
    for (position, name) in extraColumns.enumerated() {
      inner.append("\(function)(\(link), \(position + 1)) AS \(name)")
    }
    inner += ["d.Z_PK AS p", "d.ZTEXT AS t", "\(uses) AS u"]
    let orphanRank = categories.firstIndex { $0.key == nil }.map(String.init) ?? "NULL"
    let outer =
      ["r", "CASE WHEN r IS \(orphanRank) THEN NULL ELSE k0 END AS k"] + extraColumns + [
        "p", "t", "u",
      ]
    return """
      WITH ordered AS (SELECT \(outer.joined(separator: ", ")) FROM (
        SELECT \(inner.joined(separator: ", ")) FROM \(table) AS d NOT INDEXED) WHERE r IS NOT NULL)
      """
  }

  /// The rows ``lookupFunction`` serves: for each category key, its rank then `values[i]`; the
  /// `Recovered` category's row (when planned) serves keys that are NULL or unknown.
  ///
  /// - Parameter values: one array per entry of ``categories``, in order.
  package func lookupRows(values: [[Int64]] = []) -> (rows: [Int64: [Int64]], fallback: [Int64]?) {
    var rows: [Int64: [Int64]] = [:]
    var fallback: [Int64]?
    for (index, category) in categories.enumerated() {
      let row = [Int64(index)] + (index < values.count ? values[index] : [])
      if let key = category.key {
        if rows[key] == nil { rows[key] = row }
      } else {
        fallback = row
      }
    }
    return (rows, fallback)
  }
}

extension LegacyStoreReader {
  /// The SQL description of `plan` for tables in `schema`.
  func bulkSource(schema: String, plan: [PlannedCategory]) -> DittoBulkSource {
    let query = dittoQuery(for: .withoutCategory, schema: schema)
    return DittoBulkSource(
      schema: schema,
      categories: plan.map { category in
        let key: Int64?
        switch category.selection {
        case .category(let pk): key = pk
        case .withoutCategory: key = nil
        }
        return DittoBulkSource.Category(title: category.title, origin: category.origin, key: key)
      },
      table: query.table, useCount: query.useCount,
      categoryKey: hasCategoryLink ? "ZCATEGORY" : "NULL",
      orderKey: hasOrderKey ? "Z_FOK_CATEGORY" : nil)
  }
}
