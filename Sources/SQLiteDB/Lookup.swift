#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A table of integers an SQL function reads from, so one statement can map keys to values without a
/// join (a join on a VALUES list is scanned row by row: SQLite does not index it).
///
/// It is called once per row of a scan, so a key is found without hashing when keys are small
/// (Core Data's `Z_PK`s are): a direct index by key, else a dictionary.
final class LookupTable {
  /// Every row's values, one after another; row `r` is `values[starts[r]..<starts[r + 1]]`.
  private let values: [Int64]
  private let starts: [Int]
  /// Row index by key when every key is in `0..<byKey.count`; -1 for a key with no row.
  private let byKey: [Int32]
  private let byKeySparse: [Int64: Int32]
  private let fallbackRow: Int32

  init(rows: [Int64: [Int64]], fallback: [Int64]?) {
    var values: [Int64] = []
    var starts: [Int] = [0]
    var index: [Int64: Int32] = [:]
    for (key, row) in rows {
      index[key] = Int32(starts.count - 1)
      values += row
      starts.append(values.count)
    }
    if let fallback {
      values += fallback
      starts.append(values.count)
      fallbackRow = Int32(starts.count - 2)
    } else {
      fallbackRow = -1
    }
    self.values = values
    self.starts = starts
    let largest = rows.keys.max() ?? -1
    let smallest = rows.keys.min() ?? 0
    if smallest >= 0, largest < Int64(max(4096, 4 * rows.count)) {
      var byKey = [Int32](repeating: -1, count: Int(largest) + 1)
      for (key, row) in index { byKey[Int(key)] = row }
      self.byKey = byKey
      byKeySparse = [:]
    } else {
      byKey = []
      byKeySparse = index
    }
  }

  /// The value in `column` for `key`; the fallback row for a key that is NULL, not an integer or not
  /// in the table; nil (SQL NULL) when there is no such row or column.
  func value(key: OpaquePointer?, column: Int) -> Int64? {
    var row = fallbackRow
    switch sqlite3_value_type(key) {
    case SQLITE_INTEGER:
      if let found = self.row(for: sqlite3_value_int64(key)) { row = found }
    case SQLITE_FLOAT:
      let number = sqlite3_value_double(key)
      if number.rounded() == number, abs(number) < 9.0e18, let found = self.row(for: Int64(number))
      {
        row = found
      }
    default:
      break
    }
    guard row >= 0, column >= 0 else { return nil }
    let start = starts[Int(row)]
    guard column < starts[Int(row) + 1] - start else { return nil }
    return values[start + column]
  }

  private func row(for key: Int64) -> Int32? {
    if !byKey.isEmpty {
      guard key >= 0, key < Int64(byKey.count) else { return nil }
      let row = byKey[Int(key)]
      return row >= 0 ? row : nil
    }
    return byKeySparse[key]
  }
}

extension Database {
  /// Registers `name(key, column)` on this connection: the `column`th value of `rows[key]`, or of
  /// `fallback` when `key` is NULL or unknown, or NULL. Deterministic, direct use only.
  ///
  /// - Throws: ``SQLiteError``.
  package func registerLookup(named name: String, rows: [Int64: [Int64]], fallback: [Int64]?)
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
