extension Database {
  /// The column names of `table`, from `PRAGMA table_info`, uppercased (SQLite compares names
  /// without case); empty when there is no such table.
  ///
  /// - Throws: ``SQLiteError``.
  package func columnNames(of table: String) throws(SQLiteError) -> Set<String> {
    let statement = try makeStatement(sql: "SELECT name FROM pragma_table_info(?)")
    try statement.bind(.text(table))
    defer { statement.reset() }
    var names = Set<String>()
    while try statement.step() {
      if let name = statement.text(at: 0) { names.insert(name.uppercased()) }
    }
    return names
  }
}
