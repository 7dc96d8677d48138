import CSQLite
import ExampleApp
import LibraryMerge

/// The simplest competent import, the reference for the engine's: the SQLite C API reading the
/// store's categories and dittos in their order (in place: no snapshot, no second pass, no
/// survey), one plan built as the engine's is against an empty library (every ditto of a new
/// category inserted, in order), and the same in-memory save into an `ExampleLibrary`.
enum SQLiteImport {
  static func run(store path: String, into library: ExampleLibrary) -> Int {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
      sqlite3_close(database)
      return 0
    }
    defer { sqlite3_close(database) }
    var plan = ImportPlan()
    var categoryIndex: [Int64: Int] = [:]
    query(database, "SELECT Z_PK, ZTITLE FROM ZCATEGORY ORDER BY ZPROFILE, Z_FOK_PROFILE") {
      statement in
      let key = sqlite3_column_int64(statement, 0)
      let title = text(statement, 1)
      categoryIndex[key] = plan.newCategories.count
      plan.newCategories.append(
        PlannedCategory(title: title, sortOrder: Int64(plan.newCategories.count)))
    }
    var nextOrder = [Int64](repeating: 0, count: plan.newCategories.count)
    query(
      database, "SELECT ZCATEGORY, ZTEXT, ZUSE_COUNT FROM ZDITTO ORDER BY ZCATEGORY, Z_FOK_CATEGORY"
    ) { statement in
      guard let index = categoryIndex[sqlite3_column_int64(statement, 0)] else { return }
      let text = text(statement, 1)
      guard !text.isEmpty else { return }
      plan.dittos.append(
        PlannedDitto(
          target: .new(index), text: text, useCount: sqlite3_column_int64(statement, 2),
          sortOrder: nextOrder[index]))
      nextOrder[index] += 1
    }
    plan.createsProfile = !plan.dittos.isEmpty
    do {
      try ExampleDestination(library: library).holdLibrary().apply(plan)
    } catch {
      return 0
    }
    return plan.dittos.count
  }

  private static func query(
    _ database: OpaquePointer?, _ sql: String, _ row: (OpaquePointer?) -> Void
  ) {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { return }
    defer { sqlite3_finalize(statement) }
    while sqlite3_step(statement) == SQLITE_ROW { row(statement) }
  }

  private static func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(statement, column) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(
      decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}
