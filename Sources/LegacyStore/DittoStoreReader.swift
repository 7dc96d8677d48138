import SQLiteDB

// DITTO 2.x CORE DATA STORE (what DittoStoreReader relies on; each line is pinned by a test)
//
//   ENTITY    TABLE      COLUMN          MEANING
//   Profile   ZPROFILE   Z_PK            one per install (several are tolerated: walked by Z_PK)
//   Category  ZCATEGORY  ZPROFILE        Z_PK of its profile (NULL or dangling: "without profile")
//                        Z_FOK_PROFILE   order key in Profile.categories (sparse; NULLs sort last)
//                        ZTITLE          title (NULL becomes "Untitled")
//   Ditto     ZDITTO     ZCATEGORY       Z_PK of its category (NULL or dangling: goes to "Recovered")
//                        Z_FOK_CATEGORY  order key in Category.dittos (sparse; NULLs sort last)
//                        ZTEXT           the snippet (NULL or empty: skipped and counted)
//                        ZUSE_COUNT      use count (NULL is 0)
//
// Entities are found in Z_PRIMARYKEY by name; when that table is missing, the conventional table names
// are tried. Tables must be real tables (not views). Columns are found with PRAGMA table_info; a missing
// ZTEXT is fatal (.notADittoStore), a missing order key falls back to Z_PK order, a missing ZUSE_COUNT
// reads as 0, a missing ZTITLE as "Untitled", a missing relationship column makes every row an orphan.
//
// Walk order:
//   1. profiles by Z_PK; each profile's categories by (Z_FOK_PROFILE IS NULL, Z_FOK_PROFILE, Z_PK)
//   2. categories without a profile, by Z_PK
//   3. in each category, its dittos by (Z_FOK_CATEGORY IS NULL, Z_FOK_CATEGORY, Z_PK)
//   4. dittos without a category, by Z_PK, in a category titled "Recovered"
// The reader returns only after the whole walk; any SQLite error on the way throws.

/// Reads the Ditto 2.x entities of an open Core Data store.
public final class DittoStoreReader {
  /// The title given to a category whose title is NULL.
  public static let untitledTitle = "Untitled"
  /// The title of the category that collects dittos without a category.
  public static let recoveredTitle = "Recovered"

  private let store: CoreDataStore
  private let layout: Layout

  /// The tables and columns found for the Ditto entities.
  struct Layout {
    var profileTable: String?
    var categoryTable: String
    var categoryColumns: Set<String>
    var dittoTable: String
    var dittoColumns: Set<String>
  }

  /// Resolves the Ditto entities in `store`.
  ///
  /// - Throws: ``LegacyStoreError/notACoreDataStore(file:missing:)`` or
  ///   ``LegacyStoreError/notADittoStore(file:missing:)`` naming what is missing.
  public init(store: CoreDataStore) throws(LegacyStoreError) {
    self.store = store
    do {
      layout = try Self.resolveLayout(store)
    } catch let error as LegacyStoreError {
      throw error
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    } catch {
      throw .unreadable(file: store.file, reason: "\(error)")
    }
  }

  /// Reads the whole store at `path` into memory (snapshot, open, read, remove the snapshot).
  ///
  /// - Throws: ``LegacyStoreError``.
  public static func read(path: String) throws(LegacyStoreError) -> LegacyLibrary {
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    return try DittoStoreReader(store: store).read()
  }

  /// Reads every category and ditto into memory.
  ///
  /// - Throws: ``LegacyStoreError``.
  public func read() throws(LegacyStoreError) -> LegacyLibrary {
    do {
      return try LegacyLibrary(collecting: { sink in try walk(sink) })
    } catch let error as LegacyStoreError {
      throw error
    } catch {
      throw .unreadable(file: store.file, reason: "\(error)")
    }
  }

  /// Streams the store in user order: each category, then its dittos.
  ///
  /// Memory stays flat: one category's statement is stepped at a time. Errors from `sink` propagate
  /// unchanged; SQLite errors become ``LegacyStoreError``.
  ///
  /// - Returns: counts of what was read, once the walk is complete.
  @discardableResult
  public func walk(_ sink: (LegacyItem) throws -> Void) throws -> LegacyReadSummary {
    do {
      return try walkUnmapped(sink)
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    }
  }

  // MARK: - Walking

  private func walkUnmapped(_ sink: (LegacyItem) throws -> Void) throws -> LegacyReadSummary {
    var summary = LegacyReadSummary()
    let db = store.database
    let category = quoted(layout.categoryTable)
    let ditto = quoted(layout.dittoTable)
    let title = layout.categoryColumns.contains("ZTITLE") ? "ZTITLE" : "NULL"
    let hasProfileLink = layout.categoryColumns.contains("ZPROFILE")
    let hasCategoryLink = layout.dittoColumns.contains("ZCATEGORY")
    let useCount = layout.dittoColumns.contains("ZUSE_COUNT") ? "ZUSE_COUNT" : "NULL"
    let dittoOrder =
      layout.dittoColumns.contains("Z_FOK_CATEGORY")
      ? "(Z_FOK_CATEGORY IS NULL), Z_FOK_CATEGORY, Z_PK" : "Z_PK"
    let categoryOrder =
      layout.categoryColumns.contains("Z_FOK_PROFILE")
      ? "(Z_FOK_PROFILE IS NULL), Z_FOK_PROFILE, Z_PK" : "Z_PK"

    let dittosOfCategory = try db.makeStatement(
      sql: "SELECT ZTEXT, \(useCount) FROM \(ditto) WHERE ZCATEGORY = ? ORDER BY \(dittoOrder)")
    var visitedCategories = Set<Int64>()

    func emitCategory(pk: Int64, rawTitle: String?, origin: LegacyCategoryOrigin) throws {
      // A schema without a primary key can repeat a Z_PK: its dittos are emitted once.
      guard visitedCategories.insert(pk).inserted else { return }
      summary.categories += 1
      try sink(.category(title: rawTitle ?? Self.untitledTitle, origin: origin))
      guard hasCategoryLink else { return }
      try dittosOfCategory.bind(.integer(pk))
      try emitDittos(from: dittosOfCategory)
    }

    func emitDittos(from statement: Statement) throws {
      defer { statement.reset() }
      while try statement.step() {
        let text = statement.text(at: 0)
        guard let text, !text.isEmpty else {
          summary.skippedEmptyTexts += 1
          continue
        }
        summary.dittos += 1
        try sink(.ditto(LegacyDitto(text: text, useCount: statement.optionalInt64(at: 1) ?? 0)))
      }
    }

    // 1. Profiles and their categories.
    var profileKeys: [Int64] = []
    if let profileTable = layout.profileTable {
      let profiles = try db.makeStatement(
        sql:
          "SELECT DISTINCT Z_PK FROM \(quoted(profileTable)) WHERE Z_PK IS NOT NULL ORDER BY Z_PK")
      while try profiles.step() { profileKeys.append(profiles.int64(at: 0)) }
      profiles.reset()
    }
    summary.profiles = profileKeys.count
    if hasProfileLink {
      let categoriesOfProfile = try db.makeStatement(
        sql: "SELECT Z_PK, \(title) FROM \(category) WHERE ZPROFILE = ? ORDER BY \(categoryOrder)")
      for profile in profileKeys {
        try categoriesOfProfile.bind(.integer(profile))
        var rows: [(Int64, String?)] = []
        while try categoriesOfProfile.step() {
          rows.append((categoriesOfProfile.int64(at: 0), categoriesOfProfile.text(at: 1)))
        }
        categoriesOfProfile.reset()
        for (pk, rawTitle) in rows {
          try emitCategory(pk: pk, rawTitle: rawTitle, origin: .profile(profile))
        }
      }
    }

    // 2. Categories without a (known) profile.
    let profileFilter: String
    if !hasProfileLink {
      profileFilter = "1"
    } else if let profileTable = layout.profileTable {
      profileFilter =
        "ZPROFILE IS NULL OR ZPROFILE NOT IN (SELECT Z_PK FROM \(quoted(profileTable)) WHERE Z_PK IS NOT NULL)"
    } else {
      profileFilter = "1"
    }
    let loose = try db.makeStatement(
      sql: "SELECT Z_PK, \(title) FROM \(category) WHERE \(profileFilter) ORDER BY Z_PK")
    var looseRows: [(Int64, String?)] = []
    while try loose.step() { looseRows.append((loose.int64(at: 0), loose.text(at: 1))) }
    loose.reset()
    for (pk, rawTitle) in looseRows where !visitedCategories.contains(pk) {
      summary.categoriesWithoutProfile += 1
      try emitCategory(pk: pk, rawTitle: rawTitle, origin: .withoutProfile)
    }

    // 3. Dittos without a (known) category.
    let categoryFilter =
      hasCategoryLink
      ? "ZCATEGORY IS NULL OR ZCATEGORY NOT IN (SELECT Z_PK FROM \(category) WHERE Z_PK IS NOT NULL)"
      : "1"
    let orphans = try db.makeStatement(
      sql: "SELECT ZTEXT, \(useCount) FROM \(ditto) WHERE \(categoryFilter) ORDER BY Z_PK")
    var announced = false
    defer { orphans.reset() }
    while try orphans.step() {
      let text = orphans.text(at: 0)
      guard let text, !text.isEmpty else {
        summary.skippedEmptyTexts += 1
        continue
      }
      if !announced {
        announced = true
        summary.categories += 1
        try sink(.category(title: Self.recoveredTitle, origin: .recovered))
      }
      summary.dittos += 1
      summary.dittosWithoutCategory += 1
      try sink(.ditto(LegacyDitto(text: text, useCount: orphans.optionalInt64(at: 1) ?? 0)))
    }
    return summary
  }

  // MARK: - Layout

  private static func resolveLayout(_ store: CoreDataStore) throws -> Layout {
    func table(for entityName: String) throws -> String? {
      if store.hasPrimaryKeyTable {
        guard let entity = store.entity(named: entityName) else { return nil }
        return entity.table
      }
      let conventional = "Z" + entityName.uppercased()
      return try store.hasTable(conventional) ? conventional : nil
    }
    let categoryTable = try table(for: "Category")
    let dittoTable = try table(for: "Ditto")
    guard let categoryTable, let dittoTable else {
      if !store.hasPrimaryKeyTable {
        throw LegacyStoreError.notACoreDataStore(file: store.file, missing: ["Z_PRIMARYKEY"])
      }
      var missing: [String] = []
      if categoryTable == nil { missing.append(Self.describeMissing("Category", store)) }
      if dittoTable == nil { missing.append(Self.describeMissing("Ditto", store)) }
      throw LegacyStoreError.notADittoStore(file: store.file, missing: missing)
    }
    let categoryColumns = try store.columnNames(of: categoryTable)
    let dittoColumns = try store.columnNames(of: dittoTable)
    var missing: [String] = []
    if !categoryColumns.contains("Z_PK") { missing.append("\(categoryTable).Z_PK") }
    if !dittoColumns.contains("Z_PK") { missing.append("\(dittoTable).Z_PK") }
    if !dittoColumns.contains("ZTEXT") { missing.append("\(dittoTable).ZTEXT") }
    guard missing.isEmpty else {
      throw LegacyStoreError.notADittoStore(file: store.file, missing: missing)
    }
    var profileTable = try table(for: "Profile")
    if let candidate = profileTable, try !store.columnNames(of: candidate).contains("Z_PK") {
      profileTable = nil
    }
    return Layout(
      profileTable: profileTable, categoryTable: categoryTable, categoryColumns: categoryColumns,
      dittoTable: dittoTable, dittoColumns: dittoColumns)
  }

  private static func describeMissing(_ entity: String, _ store: CoreDataStore) -> String {
    store.entity(named: entity) == nil ? "entity \(entity)" : "table Z\(entity.uppercased())"
  }
}

@available(*, unavailable)
extension DittoStoreReader: Sendable {}
