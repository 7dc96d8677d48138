#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A table of integers an SQL function reads from, so one statement can map keys to values without a
/// join (a join on a VALUES list is scanned row by row: SQLite does not index it).
final class LookupTable {
  let rows: [Int64: [Int64]]
  let fallback: [Int64]?

  init(rows: [Int64: [Int64]], fallback: [Int64]?) {
    self.rows = rows
    self.fallback = fallback
  }

  /// The value in `column` for `key`; the fallback row for a key that is NULL, not an integer or not
  /// in the table; nil (SQL NULL) when there is no such row or column.
  func value(key: OpaquePointer?, column: Int) -> Int64? {
    var row = fallback
    switch sqlite3_value_type(key) {
    case SQLITE_INTEGER:
      if let found = rows[sqlite3_value_int64(key)] { row = found }
    case SQLITE_FLOAT:
      let number = sqlite3_value_double(key)
      if number.rounded() == number, abs(number) < 9.0e18, let found = rows[Int64(number)] {
        row = found
      }
    default:
      break
    }
    guard let row, column >= 0, column < row.count else { return nil }
    return row[column]
  }
}

extension Database {
  /// Registers `name(key, column)` on this connection: the `column`th value of `rows[key]`, or of
  /// `fallback` when `key` is NULL or unknown, or NULL. Deterministic, direct use only.
  ///
  /// - Throws: ``SQLiteError``.
  public func registerLookup(named name: String, rows: [Int64: [Int64]], fallback: [Int64]?)
    throws(SQLiteError)
  {
    let table = LookupTable(rows: rows, fallback: fallback)
    let context = Unmanaged.passRetained(table).toOpaque()
    let rc = sqlite3_create_function_v2(
      handle, name, 2, SQLITE_UTF8 | SQLITE_DIRECTONLY | SQLITE_DETERMINISTIC, context,
      { invocation, count, arguments in
        guard let data = sqlite3_user_data(invocation), count == 2, let arguments else {
          sqlite3_result_null(invocation)
          return
        }
        let table = Unmanaged<LookupTable>.fromOpaque(data).takeUnretainedValue()
        let column = Int(sqlite3_value_int64(arguments[1]))
        if let value = table.value(key: arguments[0], column: column) {
          sqlite3_result_int64(invocation, value)
        } else {
          sqlite3_result_null(invocation)
        }
      }, nil, nil,
      { data in
        if let data { Unmanaged<LookupTable>.fromOpaque(data).release() }
      })
    guard rc == SQLITE_OK else { throw error(code: rc) }
  }
}
