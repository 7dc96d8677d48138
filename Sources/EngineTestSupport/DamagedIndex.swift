import SQLiteDB
import SafeFiles

/// Makes an index disagree with its table, as one changed byte in an index page does (what the
/// `ditto-store` fuzz target found), but reproducibly: the index is rebuilt on `builtOn` while its
/// declaration goes back to what it was, so searches through it answer for the wrong column.
/// `PRAGMA quick_check` still says `ok`; `PRAGMA integrity_check` does not.
///
/// It writes the schema (`PRAGMA writable_schema`), which defensive mode forbids: its connections
/// lift `SQLITE_DBCONFIG_DEFENSIVE` (on by default in every connection of this package, as in
/// Apple's SQLite), and only they do.
package enum DamagedIndex {
  /// Rebuilds `index` of `table` in the database at `path` on column `builtOn`, then restores its
  /// declaration `declared` (the column it is declared on). The WAL is checkpointed into the file.
  package static func make(
    _ index: String, of table: String, declared: String, builtOn: String, in path: String
  ) throws {
    let resolved = UserPath.resolvingFolder(of: path)
    func declare(_ column: String) throws {
      var options = Database.Options()
      options.permitsSchemaWrites = true
      let database = try Database(path: resolved, mode: .readWrite, options: options)
      try database.execute(
        sql: """
          PRAGMA writable_schema = ON;
          UPDATE sqlite_master SET sql = 'CREATE INDEX \(index) ON \(table) (\(column))'
            WHERE name = '\(index)';
          PRAGMA writable_schema = OFF;
          """)
      try database.close()
    }
    try declare(builtOn)
    let rebuild = try Database(path: resolved, mode: .readWrite)
    try rebuild.execute(sql: "REINDEX \(index); PRAGMA wal_checkpoint(TRUNCATE)")
    try rebuild.close()
    try declare(declared)
  }
}
