import LibraryMerge
import SQLiteDB

/// The queries that read what the app shows, on any open connection (a snapshot, or the original
/// inside the write transaction). Rows count only with their entity's `Z_ENT`: Core Data does not
/// fetch a row whose `Z_ENT` is another entity's.
struct LibraryQueries {
  let database: Database
  let layout: StoreLayout

  /// Number of Profile rows and the lowest `Z_PK` among them.
  func profiles() throws(SQLiteError) -> (count: Int, first: Int64?) {
    let statement = try database.makeStatement(
      sql: "SELECT count(*), min(Z_PK) FROM ZPROFILE WHERE Z_ENT = ?")
    try statement.bind(.integer(layout.profile.number))
    defer { statement.reset() }
    guard try statement.step() else { return (0, nil) }
    return (Int(statement.int64(at: 0)), statement.optionalInt64(at: 1))
  }

  /// The first Profile's categories in display order, without their dittos.
  func categories(of profile: Int64) throws(SQLiteError) -> [DittoStoreCategory] {
    let statement = try database.makeStatement(
      sql: """
        SELECT Z_PK, ZTITLE, ZSORTORDER, ZMODIFIEDAT FROM ZDITTOCATEGORY
        WHERE ZPROFILE = ? AND Z_ENT = ? ORDER BY coalesce(ZSORTORDER, 0), Z_PK
        """)
    try statement.bind(.integer(profile), .integer(layout.category.number))
    var categories: [DittoStoreCategory] = []
    while try statement.step() {
      categories.append(
        DittoStoreCategory(
          id: statement.int64(at: 0), title: statement.text(at: 1) ?? "",
          sortOrder: statement.optionalInt64(at: 2) ?? 0,
          modifiedAt: statement.optionalDouble(at: 3), dittos: []))
    }
    statement.reset()
    return categories
  }

  /// Calls `body` for each ditto of `category` in display order (columns: 0 Z_PK, 1 ZTEXT,
  /// 2 ZUSECOUNT, 3 ZSORTORDER, 4 ZMODIFIEDAT), with one statement reused for every category.
  final class DittoCursor {
    let statement: Statement
    let itemEntity: Int64

    init(_ queries: LibraryQueries) throws(SQLiteError) {
      statement = try queries.database.makeStatement(
        sql: """
          SELECT Z_PK, ZTEXT, ZUSECOUNT, ZSORTORDER, ZMODIFIEDAT FROM ZDITTOITEM
          WHERE ZCATEGORY = ? AND Z_ENT = ? ORDER BY coalesce(ZSORTORDER, 0), Z_PK
          """)
      itemEntity = queries.layout.item.number
    }

    func forEach(in category: Int64, _ body: (Statement) -> Void) throws(SQLiteError) {
      try statement.bind(.integer(category), .integer(itemEntity))
      defer { statement.reset() }
      while try statement.step() { body(statement) }
    }
  }

  /// The whole library the app shows.
  func content() throws(SQLiteError) -> DittoStoreContent {
    let (count, first) = try profiles()
    guard let first else {
      return DittoStoreContent(profileID: nil, profileCount: 0, categories: [])
    }
    var categories = try categories(of: first)
    let cursor = try DittoCursor(self)
    for index in categories.indices {
      var dittos: [DittoStoreItem] = []
      try cursor.forEach(in: categories[index].id) { row in
        dittos.append(
          DittoStoreItem(
            id: row.int64(at: 0), text: row.text(at: 1) ?? "",
            useCount: row.optionalInt64(at: 2) ?? 0, sortOrder: row.optionalInt64(at: 3) ?? 0,
            modifiedAt: row.optionalDouble(at: 4)))
      }
      categories[index].dittos = dittos
    }
    return DittoStoreContent(profileID: first, profileCount: count, categories: categories)
  }

  /// The library as the planner needs it (texts and the largest ditto `sortOrder` only).
  func currentLibrary() throws(SQLiteError) -> (library: CurrentLibrary, profile: Int64?) {
    let (_, first) = try profiles()
    guard let first else { return (.empty, nil) }
    let cursor = try DittoCursor(self)
    var result: [CurrentCategory] = []
    for category in try categories(of: first) {
      var texts: [String] = []
      var largest: Int64?
      try cursor.forEach(in: category.id) { row in
        texts.append(row.text(at: 1) ?? "")
        let order = row.optionalInt64(at: 3) ?? 0
        largest = Swift.max(largest ?? order, order)
      }
      result.append(
        CurrentCategory(
          id: CategoryID(category.id), title: category.title, sortOrder: category.sortOrder,
          texts: texts, largestDittoSortOrder: largest))
    }
    return (CurrentLibrary(hasProfile: true, categories: result), first)
  }

  /// The library the app shows, in outline: the first Profile's categories in display order with
  /// their ditto counts and largest ditto `sortOrder`, no texts.
  func outline() throws(SQLiteError) -> (outline: LibraryOutline, profile: Int64?) {
    let (_, first) = try profiles()
    guard let first else { return (.empty, nil) }
    let statement = try database.makeStatement(
      sql: """
        SELECT c.Z_PK, c.ZTITLE, c.ZSORTORDER,
          (SELECT count(*) FROM ZDITTOITEM i WHERE i.ZCATEGORY = c.Z_PK AND i.Z_ENT = ?1),
          (SELECT max(coalesce(i.ZSORTORDER, 0)) FROM ZDITTOITEM i
            WHERE i.ZCATEGORY = c.Z_PK AND i.Z_ENT = ?1)
        FROM ZDITTOCATEGORY c WHERE c.ZPROFILE = ?2 AND c.Z_ENT = ?3
        ORDER BY coalesce(c.ZSORTORDER, 0), c.Z_PK
        """)
    try statement.bind(
      .integer(layout.item.number), .integer(first), .integer(layout.category.number))
    defer { statement.reset() }
    var categories: [OutlineCategory] = []
    while try statement.step() {
      categories.append(
        OutlineCategory(
          id: CategoryID(statement.int64(at: 0)), title: statement.text(at: 1) ?? "",
          sortOrder: statement.optionalInt64(at: 2) ?? 0, dittoCount: Int(statement.int64(at: 3)),
          largestDittoSortOrder: statement.optionalInt64(at: 4)))
    }
    return (LibraryOutline(hasProfile: true, categories: categories), first)
  }

  /// Categories and dittos the app shows, counted without reading the texts.
  func shownCounts(of profile: Int64) throws(SQLiteError) -> (categories: Int, dittos: Int) {
    let categories = try database.makeStatement(
      sql: "SELECT count(*) FROM ZDITTOCATEGORY WHERE ZPROFILE = ? AND Z_ENT = ?")
    try categories.bind(.integer(profile), .integer(layout.category.number))
    let dittos = try database.makeStatement(
      sql: """
        SELECT count(*) FROM ZDITTOITEM WHERE Z_ENT = ?1 AND ZCATEGORY IN
        (SELECT Z_PK FROM ZDITTOCATEGORY WHERE ZPROFILE = ?2 AND Z_ENT = ?3)
        """)
    try dittos.bind(
      .integer(layout.item.number), .integer(profile), .integer(layout.category.number))
    return (
      Int(try categories.scalarInt64() ?? 0), Int(try dittos.scalarInt64() ?? 0)
    )
  }

  /// Rows of `table` (a history table).
  func rowCount(of table: String) throws(SQLiteError) -> Int {
    Int(
      try database.makeStatement(sql: "SELECT count(*) FROM \(SQLText.quotedIdentifier(table))")
        .scalarInt64() ?? 0)
  }

}
