import Foundation
import LegacyStore
import SQLiteDB
import SafeFiles

/// Writes Ditto 2.x stores with the real SQLite library, as Core Data lays them out.
///
/// The connection stays open until ``close()``: copy the files while it is open to capture rows
/// that live only in the `-wal` (`wal_autocheckpoint = 0`), or close first for a checkpointed store.
final class DittoStoreBuilder {
  /// The store file.
  let path: String
  let database: Database
  private var nextCategoryKey: Int64 = 1
  private var nextDittoKey: Int64 = 1

  /// The 2.x DDL with each index right after its table (another page order than Core Data's).
  static let ddl =
    [
      LegacySchema.category.createStatement, LegacySchema.linkIndexes[0],
      LegacySchema.ditto.createStatement, LegacySchema.linkIndexes[1],
      LegacySchema.profile.createStatement,
    ] + LegacySchema.bookkeeping + ["CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"]

  /// Creates the store at `folder/name` with Core Data's pragmas, tables, metadata and one profile.
  init(
    folder: String, name: String = "Ditto.sqlite", secureDelete: Bool = false, pageSize: Int = 4096
  )
    throws
  {
    path = folder + "/" + name
    database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    for pragma in [
      "page_size = \(pageSize)", "auto_vacuum = 2", "journal_mode = WAL", "wal_autocheckpoint = 0",
      "secure_delete = \(secureDelete ? 1 : 0)",
    ] {
      try database.execute(sql: "PRAGMA \(pragma)")
    }
    try database.write { () throws(SQLiteError) in
      for statement in Self.ddl { try database.execute(sql: statement) }
      try database.execute(
        sql: """
          INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 0), (2, 'Ditto', 0, 0), (3, 'Profile', 0, 1);
          INSERT INTO Z_METADATA VALUES (1, '6B1F0A52-7A1E-4C1B-9C55-3A1E2B7C9D10', x'62706C6973743030');
          INSERT INTO Z_MODELCACHE VALUES (zeroblob(2000));
          INSERT INTO ZPROFILE VALUES (1, 3, 1);
          """)
    }
  }

  /// Adds categories and their dittos in one transaction; keys are handed out in `keyOrder`
  /// (by default reversed inside each category, so key order differs from list order).
  func add(_ categories: [(title: String, dittos: [(text: String, useCount: Int64?)])]) throws {
    try database.write { () throws(SQLiteError) in
      let category = try database.makeStatement(
        sql: "INSERT INTO ZCATEGORY VALUES (?, 1, 1, 1, ?, ?)")
      let ditto = try database.makeStatement(sql: "INSERT INTO ZDITTO VALUES (?, 2, 1, ?, ?, ?, ?)")
      for (position, entry) in categories.enumerated() {
        let categoryKey = nextCategoryKey
        nextCategoryKey += 1
        try category.bind(
          .integer(categoryKey), .integer(2048 + 1024 * Int64(position)), .text(entry.title))
        try category.run()
        for (index, item) in entry.dittos.enumerated().reversed() {
          try ditto.bind(
            .integer(nextDittoKey), item.useCount.map { .integer($0) } ?? .null,
            .integer(categoryKey), .integer(2048 + 1024 * Int64(index)), .text(item.text))
          try ditto.run()
          nextDittoKey += 1
        }
      }
    }
  }

  /// Runs `sql` in its own transaction.
  func execute(_ sql: String) throws {
    try database.write { () throws(SQLiteError) in try database.execute(sql: sql) }
  }

  /// Copies the store and the sidecars that exist into `folder` (while the connection is open).
  func copyFiles(to folder: String, suffixes: [String] = ["", "-wal", "-shm"]) throws {
    for suffix in suffixes where FileManager.default.fileExists(atPath: path + suffix) {
      let name = (path as NSString).lastPathComponent + suffix
      try FileManager.default.copyItem(atPath: path + suffix, toPath: folder + "/" + name)
    }
  }

  /// Closes the connection: SQLite checkpoints the WAL into the main file and deletes it.
  func close() throws {
    try database.close()
  }

  // MARK: - Sample content

  /// `count` categories of `perCategory` dittos; every `longEvery`-th text is over 4 KB (spills to
  /// overflow pages); a few use counts are NULL.
  static func sample(categories count: Int, perCategory: Int, longEvery: Int = 0, tag: String = "")
    -> [(title: String, dittos: [(text: String, useCount: Int64?)])]
  {
    (0..<count).map { category in
      let dittos = (0..<perCategory).map { index -> (text: String, useCount: Int64?) in
        let serial = category * perCategory + index
        var text = "Ditto \(tag)\(serial): reply \(index) in list \(category) — café ✓"
        if longEvery > 0, serial % longEvery == longEvery - 1 {
          text += String(repeating: " long line \(serial) of text.", count: 300)
        }
        return (text, serial % 17 == 5 ? nil : Int64(serial % 23))
      }
      return ("List \(category) ❤️", dittos)
    }
  }
}
