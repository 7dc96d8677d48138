#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Counts the rows a statement evaluates, through an SQL function that always returns 0.
///
/// `INSERT OR IGNORE … SELECT` reports only the rows it inserted (`changes()`); adding
/// `+ counter()` to one selected expression counts the rows it read in the same pass, instead of
/// a second query over the same rows.
package final class RowCounter {
  /// Rows counted since the last ``reset()``.
  package fileprivate(set) var count = 0

  /// Sets the count back to zero.
  package func reset() { count = 0 }
}

extension Database {
  /// Registers `name()` on this connection: returns 0 and adds one to the returned counter each time
  /// it is evaluated. Direct use only (`SQLITE_DIRECTONLY`): a schema cannot call it from a view or
  /// trigger.
  ///
  /// - Throws: ``SQLiteError``.
  package func makeRowCounter(named name: String) throws(SQLiteError) -> RowCounter {
    let counter = RowCounter()
    let context = Unmanaged.passRetained(counter).toOpaque()
    let rc = sqlite3_create_function_v2(
      handle, name, 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, context,
      { invocation, _, _ in
        if let data = sqlite3_user_data(invocation) {
          Unmanaged<RowCounter>.fromOpaque(data).takeUnretainedValue().count += 1
        }
        sqlite3_result_int(invocation, 0)
      }, nil, nil,
      { data in
        if let data { Unmanaged<RowCounter>.fromOpaque(data).release() }
      })
    guard rc == SQLITE_OK else { throw error(code: rc) }
    return counter
  }
}
