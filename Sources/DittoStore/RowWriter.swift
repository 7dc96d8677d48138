import SQLiteDB

/// The keys one entity's new rows received: `first ..< first + count`.
struct InsertedRange: Equatable {
  var entity: Int64
  var table: String
  var first: Int64
  var count: Int
}

/// Inserts an import's rows as they come, inside the destination's write transaction, with
/// prepared statements.
///
/// Keys: each entity's new rows get one contiguous range starting above both `Z_PRIMARYKEY.Z_MAX`
/// and the table's largest `Z_PK` (Core Data may have handed out keys above the table's maximum; a
/// damaged `Z_MAX` must not make us reuse one). `Z_MAX` is raised to the last key at ``finish()``,
/// never lowered. Every row gets `Z_ENT` by name, `Z_OPT` 1, `ZMODIFIEDAT` now and no NULL in any
/// attribute. The first Profile is the parent; exactly one is created, before the first row, when
/// the store has none.
struct RowWriter {
  let database: Database
  let layout: StoreLayout
  let now: Double
  let file: String
  /// The Profile the rows belong to: the first one, or the one this import creates.
  private(set) var profile: Int64?
  /// The key the first new ditto gets (rows at or above it are this import's).
  let firstDittoKey: Int64
  private(set) var createdProfile: Int64?
  private(set) var categoryKeys: [Int64] = []
  private(set) var dittoCount = 0
  private var nextCategoryKey: Int64?
  private var insertCategory: Statement?
  private var insertItem: Statement?

  init(database: Database, layout: StoreLayout, profile: Int64?, now: Double, file: String)
    throws(SQLiteError)
  {
    self.database = database
    self.layout = layout
    self.profile = profile
    self.now = now
    self.file = file
    firstDittoKey = try Self.firstFreeKey(layout.item, table: "ZDITTOITEM", in: database)
  }

  /// True once a row was inserted.
  var hasInserted: Bool { createdProfile != nil || !categoryKeys.isEmpty || dittoCount > 0 }

  /// Inserts a category after the library's last.
  ///
  /// - Returns: its `Z_PK`.
  mutating func insertCategory(title: String, sortOrder: Int64) throws(SQLiteError) -> Int64 {
    let parent = try ensureProfile()
    let key: Int64
    if let next = nextCategoryKey {
      key = next
    } else {
      key = try Self.firstFreeKey(layout.category, table: "ZDITTOCATEGORY", in: database)
    }
    nextCategoryKey = key + 1
    let statement = try categoryStatement()
    try statement.bind(
      .integer(key), .integer(layout.category.number), .integer(sortOrder), .integer(parent),
      .real(now), .text(title))
    try statement.run()
    categoryKeys.append(key)
    return key
  }

  /// Appends a ditto to category `category` (an existing `Z_PK`, or one this import inserted).
  mutating func insertDitto(text: String, useCount: Int64, sortOrder: Int64, category: Int64)
    throws(SQLiteError)
  {
    _ = try ensureProfile()
    let statement = try itemStatement()
    try statement.bind(
      .integer(firstDittoKey + Int64(dittoCount)), .integer(layout.item.number),
      .integer(sortOrder), .integer(useCount), .integer(category), .real(now), .text(text))
    try statement.run()
    dittoCount += 1
  }

  /// Raises `Z_MAX` over every new key, and returns the ranges inserted (for the history).
  mutating func finish() throws(SQLiteError) -> [InsertedRange] {
    var ranges: [InsertedRange] = []
    if let createdProfile {
      try Self.raiseMax(of: layout.profile.number, to: createdProfile, in: database)
      ranges.append(
        InsertedRange(
          entity: layout.profile.number, table: "ZPROFILE", first: createdProfile, count: 1))
    }
    if let first = categoryKeys.first, let last = categoryKeys.last {
      try Self.raiseMax(of: layout.category.number, to: last, in: database)
      ranges.append(
        InsertedRange(
          entity: layout.category.number, table: "ZDITTOCATEGORY", first: first,
          count: categoryKeys.count))
    }
    if dittoCount > 0 {
      try Self.raiseMax(
        of: layout.item.number, to: firstDittoKey + Int64(dittoCount) - 1, in: database)
      ranges.append(
        InsertedRange(
          entity: layout.item.number, table: "ZDITTOITEM", first: firstDittoKey, count: dittoCount))
    }
    insertCategory = nil
    insertItem = nil
    return ranges
  }

  // MARK: - Statements and keys

  private mutating func categoryStatement() throws(SQLiteError) -> Statement {
    if let insertCategory { return insertCategory }
    let statement = try database.makeStatement(
      sql: """
        INSERT INTO ZDITTOCATEGORY (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZPROFILE, ZMODIFIEDAT, ZTITLE)
        VALUES (?, ?, 1, ?, ?, ?, ?)
        """)
    insertCategory = statement
    return statement
  }

  private mutating func itemStatement() throws(SQLiteError) -> Statement {
    if let insertItem { return insertItem }
    let statement = try database.makeStatement(
      sql: """
        INSERT INTO ZDITTOITEM
        (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZUSECOUNT, ZCATEGORY, ZMODIFIEDAT, ZTEXT)
        VALUES (?, ?, 1, ?, ?, ?, ?, ?)
        """)
    insertItem = statement
    return statement
  }

  private mutating func ensureProfile() throws(SQLiteError) -> Int64 {
    if let profile { return profile }
    let key = try Self.firstFreeKey(layout.profile, table: "ZPROFILE", in: database)
    let statement = try database.makeStatement(
      sql: "INSERT INTO ZPROFILE (Z_PK, Z_ENT, Z_OPT) VALUES (?, ?, 1)")
    try statement.bind(.integer(key), .integer(layout.profile.number))
    try statement.run()
    profile = key
    createdProfile = key
    return key
  }

  /// The next free key of an entity: above both its `Z_MAX` and its table's largest `Z_PK`.
  static func firstFreeKey(_ entity: EntityRow, table: String, in database: Database)
    throws(SQLiteError) -> Int64
  {
    let largest =
      try database.makeStatement(
        sql: "SELECT coalesce(max(Z_PK), 0) FROM \(SQLText.quotedIdentifier(table))"
      ).scalarInt64() ?? 0
    return max(entity.max, largest) + 1
  }

  /// Raises `Z_MAX` of entity `number` to `value` (never lowers it).
  static func raiseMax(of number: Int64, to value: Int64, in database: Database)
    throws(SQLiteError)
  {
    let statement = try database.makeStatement(
      sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ?1 WHERE Z_ENT = ?2 AND (Z_MAX IS NULL OR Z_MAX < ?1)")
    try statement.bind(.integer(value), .integer(number))
    try statement.run()
  }
}
