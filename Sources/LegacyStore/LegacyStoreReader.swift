import SQLiteDB

// DITTO 2.x CORE DATA STORE (what LegacyStoreReader relies on; each line is pinned by a test)
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
package final class LegacyStoreReader {
  /// The title given to a category whose title is NULL.
  package static let untitledTitle = "Untitled"
  /// The title of the category that collects dittos without a category.
  package static let recoveredTitle = "Recovered"

  private let store: CoreDataStore
  private let layout: Layout
  /// The walk's rows, held by ``count()`` when the store is small: a later ``walk(_:)`` replays
  /// them instead of reading and sorting the table again (the snapshot is private: it cannot have
  /// changed). Nil for a large store, which is walked again from the snapshot (memory stays flat).
  private var held: HeldWalk?
  /// The categories in walk order, once planned (the snapshot is private: the plan cannot change),
  /// with what planning counted (`profiles`, `categoriesWithoutProfile`).
  private var planned: (categories: [PlannedCategory], summary: LegacyReadSummary)?

  /// The most text ``count()`` holds for the walk that follows (bytes of UTF-8): a small store,
  /// the common one, is read from its snapshot once; a larger one is streamed twice, flat.
  package static let heldTextBudget = 4 << 20
  /// The most rows ``count()`` holds.
  package static let heldRowBudget = 50_000

  /// The walk, as ``count()`` read it: the plan, the rows in walk order, the summary's counts.
  private struct HeldWalk {
    struct Row {
      var rank: Int
      /// The order key; nil for an orphan or a NULL key (sorted last, as `NULLS LAST`).
      var key: Int64?
      var primaryKey: Int64
      var text: String
      var useCount: Int64
    }
    var plan: [PlannedCategory]
    /// The rows in table order.
    var rows: [Row]
    /// Positions in ``rows``, in walk order.
    var order: [Int32]
    /// What planning counted (profiles, categories without one) and the empty texts skipped.
    var summary: LegacyReadSummary
  }

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
  package init(store: CoreDataStore) throws(LegacyStoreError) {
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
  package static func read(path: String) throws(LegacyStoreError) -> LegacyLibrary {
    try CoreDataStore.withSnapshot(of: path) { store throws(LegacyStoreError) in
      try LegacyStoreReader(store: store).read()
    }
  }

  /// The store file as the user named it (every error names it).
  package var file: String { store.file }

  /// The store's text encoding (`UTF-8`, `UTF-16le`, `UTF-16be`).
  package var storeTextEncoding: String { store.textEncoding }

  /// Reads every category and ditto into memory.
  ///
  /// - Throws: ``LegacyStoreError``.
  package func read() throws(LegacyStoreError) -> LegacyLibrary {
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
  package func walk(_ sink: (LegacyItem) throws -> Void) throws -> LegacyReadSummary {
    if let held { return try replay(held, sink) }
    do {
      return try walkUnmapped(sink)
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    }
  }

  /// Reads every row the walk would read, once, in table order (no sort), touching each text, and
  /// counts what ``walk(_:)`` would yield: the survey's pass, which proves the store readable to its
  /// end. A small store's rows (``heldTextBudget``, ``heldRowBudget``) are held, in walk order,
  /// for the walk that follows; a larger one's are not (memory stays flat).
  ///
  /// - Returns: the counts a complete walk returns (`categories`, `dittos`, `skippedEmptyTexts`,
  ///   `profiles`, `categoriesWithoutProfile`, `dittosWithoutCategory`).
  /// - Throws: ``LegacyStoreError``.
  package func count() throws(LegacyStoreError) -> LegacyReadSummary {
    do {
      var summary = LegacyReadSummary()
      // `Recovered` is planned only when a ditto with a text has no (known) category. This pass
      // reads every row anyway, so it is planned here provisionally, last, and kept only when a row
      // reaches it (no separate scan of the table to ask first).
      var plan = try planListedCategories(summary: &summary)
      let provisionalRank = plan.count
      plan.append(Self.recoveredCategory)
      var emptyWithoutCategory = 0
      let source = bulkSource(schema: "main", plan: plan)
      // The rows of `ordered` (see DittoBulkSource), each category mapped to its rank here rather
      // than by the SQL function (the same rule: an integer key, or a whole real, of a planned
      // category; anything else to `Recovered` when it is planned, else not read).
      let ranks = CategoryRanks(source.lookupRows())
      let orphanRank = source.categories.firstIndex { $0.key == nil }
      let columns = [
        source.categoryKey == "NULL" ? "NULL" : "d.\(source.categoryKey)", "d.ZTEXT",
        source.orderKey.map { "d.\($0)" } ?? "NULL", "d.Z_PK",
        source.useCount == "NULL" ? "NULL" : "d.\(source.useCount)",
      ]
      let statement = try store.database.makeStatement(
        sql: "SELECT \(columns.joined(separator: ", ")) FROM \(source.table) AS d NOT INDEXED")
      defer { statement.reset() }
      let planning = summary
      var rows: [HeldWalk.Row] = []
      // Room for every row at once (the table's rows, up to what is held): no copy as it grows.
      // Only a hint: when the count fails, the scan below meets the same damage and names it.
      if let rowCount = Self.rowCountHint(of: source.table, in: store.database) {
        rows.reserveCapacity(min(Self.heldRowBudget, rowCount))
      }
      var holding = true
      var heldBytes = 0
      while try statement.step() {
        guard let rank = ranks.rank(of: statement, column: 0) else { continue }
        // The type first: reading a value as text converts it, after which SQLite's type is moot.
        let length = statement.isNull(at: 1) ? 0 : statement.withTextBytes(at: 1) { $0.count }
        guard length > 0 else {
          summary.skippedEmptyTexts += 1
          if rank == provisionalRank { emptyWithoutCategory += 1 }
          continue
        }
        summary.dittos += 1
        if rank < plan.count, case .withoutCategory = plan[rank].selection {
          summary.dittosWithoutCategory += 1
        }
        guard holding else { continue }
        heldBytes += length
        // Held only while small, and only when SQLite's order is the one Swift sorts by here: an
        // order key that is not an integer (a damaged or odd store) leaves the walk to SQLite.
        let keyType = rank == orphanRank ? .null : statement.columnType(at: 2)
        if heldBytes <= Self.heldTextBudget, rows.count < Self.heldRowBudget,
          keyType == .integer || keyType == .null
        {
          rows.append(
            HeldWalk.Row(
              rank: rank, key: keyType == .integer ? statement.int64(at: 2) : nil,
              primaryKey: statement.int64(at: 3),
              text: statement.withTextBytes(at: 1) { String(decoding: $0, as: UTF8.self) },
              useCount: statement.optionalInt64(at: 4) ?? 0))
        } else {
          holding = false
          rows = []
        }
      }
      if summary.dittosWithoutCategory == 0 {
        // No ditto with a text reached `Recovered`: it is not planned, and the rows without a
        // category were never the walk's (their empty texts are not counted as skipped).
        plan.removeLast()
        summary.skippedEmptyTexts -= emptyWithoutCategory
      }
      summary.categories = plan.count
      planned = (plan, planning)
      if holding {
        let order = Self.walkOrder(of: rows, ranks: plan.count)
        var heldSummary = planning
        heldSummary.skippedEmptyTexts = summary.skippedEmptyTexts
        held = HeldWalk(plan: plan, rows: rows, order: order, summary: heldSummary)
      }
      return summary
    } catch let error as LegacyStoreError {
      throw error
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    } catch {
      throw .unreadable(file: store.file, reason: "\(error)")
    }
  }

  /// The titles of the categories a walk announces, in order (empty ones and `Recovered` included).
  ///
  /// - Throws: ``LegacyStoreError``.
  package func categoryTitles() throws(LegacyStoreError) -> [String] {
    do {
      var summary = LegacyReadSummary()
      return try planCategories(summary: &summary).map(\.title)
    } catch let error as LegacyStoreError {
      throw error
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    } catch {
      throw .unreadable(file: store.file, reason: "\(error)")
    }
  }

  // MARK: - Planning

  /// Which dittos belong to a planned category.
  enum Selection {
    /// The rows whose `ZCATEGORY` is this `Z_PK`.
    case category(Int64)
    /// The rows whose category is NULL or missing.
    case withoutCategory
  }

  /// One category in walk order, and how to select its dittos.
  struct PlannedCategory {
    var title: String
    var origin: LegacyCategoryOrigin
    var selection: Selection
  }

  /// The SQL pieces that select one category's dittos in user order, for tables in `schema`.
  struct DittoQuery {
    /// `"schema"."ZDITTO"`.
    var table: String
    /// The row filter; contains one `?` for `.category`.
    var filter: String
    var parameter: Int64?
    /// `ZTEXT`.
    var text = "ZTEXT"
    /// `ZUSE_COUNT`, or `NULL` when the column is missing.
    var useCount: String
    /// `Z_FOK_CATEGORY NULLS LAST, Z_PK` (or `Z_PK`).
    var order: String
  }

  /// The category that collects dittos without a (known) category.
  private static let recoveredCategory = PlannedCategory(
    title: recoveredTitle, origin: .recovered, selection: .withoutCategory)

  /// The categories in walk order (steps 1, 2 and 4 of the format comment), planned once.
  func planCategories(summary: inout LegacyReadSummary) throws -> [PlannedCategory] {
    if let planned {
      summary.profiles = planned.summary.profiles
      summary.categoriesWithoutProfile = planned.summary.categoriesWithoutProfile
      return planned.categories
    }
    var planning = LegacyReadSummary()
    var plan = try planListedCategories(summary: &planning)
    // 4. "Recovered", when a ditto with a text has no (known) category. A text is one whose bytes
    // are not empty, as every pass reads it (a zero-length blob is empty; one NUL byte is not).
    let orphans = dittoQuery(for: .withoutCategory, schema: "main")
    let probe = try store.database.makeStatement(
      sql:
        "SELECT 1 FROM \(orphans.table) WHERE (\(orphans.filter)) AND ZTEXT IS NOT NULL AND CAST(ZTEXT AS BLOB) <> x'' LIMIT 1"
    )
    if try probe.step() { plan.append(Self.recoveredCategory) }
    probe.reset()
    planned = (plan, planning)
    summary.profiles = planning.profiles
    summary.categoriesWithoutProfile = planning.categoriesWithoutProfile
    return plan
  }

  /// The categories the store lists, in walk order (steps 1 and 2 of the format comment).
  private func planListedCategories(summary: inout LegacyReadSummary) throws -> [PlannedCategory] {
    let db = store.database
    let category = quoted(layout.categoryTable)
    let title = layout.categoryColumns.contains("ZTITLE") ? "ZTITLE" : "NULL"
    let hasProfileLink = layout.categoryColumns.contains("ZPROFILE")
    let categoryOrder =
      layout.categoryColumns.contains("Z_FOK_PROFILE")
      ? "Z_FOK_PROFILE NULLS LAST, Z_PK" : "Z_PK"
    var plan: [PlannedCategory] = []
    var visited = Set<Int64>()
    func add(_ rows: [(Int64, String?)], origin: LegacyCategoryOrigin) {
      // A schema without a primary key can repeat a Z_PK: that category is planned once.
      for (pk, rawTitle) in rows where visited.insert(pk).inserted {
        plan.append(
          PlannedCategory(
            title: rawTitle ?? Self.untitledTitle, origin: origin, selection: .category(pk)))
      }
    }
    func rows(_ statement: Statement) throws -> [(Int64, String?)] {
      var rows: [(Int64, String?)] = []
      while try statement.step() { rows.append((statement.int64(at: 0), statement.text(at: 1))) }
      statement.reset()
      return rows
    }

    // 1. Profiles by Z_PK, and each profile's categories in order.
    // The category table is always scanned (NOT INDEXED), never searched through an index: a damaged
    // index would hide a category and, with it, every ditto in it. Categories are few.
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
        sql:
          "SELECT Z_PK, \(title) FROM \(category) NOT INDEXED WHERE ZPROFILE = ? ORDER BY \(categoryOrder)"
      )
      for profile in profileKeys {
        try categoriesOfProfile.bind(.integer(profile))
        add(try rows(categoriesOfProfile), origin: .profile(profile))
      }
    }

    // 2. Categories without a (known) profile, by Z_PK.
    var profileFilter = "1"
    if hasProfileLink, let profileTable = layout.profileTable {
      profileFilter =
        "ZPROFILE IS NULL OR ZPROFILE NOT IN (SELECT Z_PK FROM \(quoted(profileTable)) WHERE Z_PK IS NOT NULL)"
    }
    let loose = try db.makeStatement(
      sql: "SELECT Z_PK, \(title) FROM \(category) NOT INDEXED WHERE \(profileFilter) ORDER BY Z_PK"
    )
    let before = plan.count
    add(try rows(loose), origin: .withoutProfile)
    summary.categoriesWithoutProfile = plan.count - before
    return plan
  }

  /// How to select the dittos of `selection` from the store's tables in `schema`.
  func dittoQuery(for selection: Selection, schema: String) -> DittoQuery {
    let table = quoted(schema) + "." + quoted(layout.dittoTable)
    let useCount = layout.dittoColumns.contains("ZUSE_COUNT") ? "ZUSE_COUNT" : "NULL"
    let hasCategoryLink = layout.dittoColumns.contains("ZCATEGORY")
    switch selection {
    case .category(let pk):
      return DittoQuery(
        table: table, filter: hasCategoryLink ? "ZCATEGORY = ?1" : "0", parameter: pk,
        useCount: useCount,
        order: layout.dittoColumns.contains("Z_FOK_CATEGORY")
          ? "Z_FOK_CATEGORY NULLS LAST, Z_PK" : "Z_PK")
    case .withoutCategory:
      let categories = quoted(schema) + "." + quoted(layout.categoryTable)
      return DittoQuery(
        table: table,
        filter: hasCategoryLink
          ? "ZCATEGORY IS NULL OR ZCATEGORY NOT IN (SELECT Z_PK FROM \(categories) NOT INDEXED WHERE Z_PK IS NOT NULL)"
          : "1",
        parameter: nil, useCount: useCount, order: "Z_PK")
    }
  }

  /// Category keys to walk ranks, as ``DittoBulkSource/lookupFunction`` maps them.
  private struct CategoryRanks {
    let ranks: [Int64: Int]
    /// The same ranks by key, for keys in `0..<byKey.count` (`Z_PK`s are small: categories are few):
    /// -1 for a key no category has.
    let byKey: [Int]
    let fallback: Int?

    /// The largest key looked up by position instead of hashing.
    static let directKeys: Int64 = 4096

    init(_ lookup: (rows: [Int64: [Int64]], fallback: [Int64]?)) {
      ranks = lookup.rows.compactMapValues { $0.first.map(Int.init) }
      fallback = lookup.fallback?.first.map(Int.init)
      let largest = ranks.keys.filter { $0 >= 0 && $0 < Self.directKeys }.max() ?? -1
      var byKey = [Int](repeating: -1, count: Int(largest + 1))
      for (key, rank) in ranks where key >= 0 && key <= largest { byKey[Int(key)] = rank }
      self.byKey = byKey
    }

    /// The rank of category key `key`, or the fallback.
    func rank(ofKey key: Int64) -> Int? {
      if key >= 0, key < byKey.count {
        let rank = byKey[Int(key)]
        return rank >= 0 ? rank : fallback
      }
      return ranks[key] ?? fallback
    }

    /// The rank of the current row's category key in `column`; nil for a row no category takes.
    func rank(of statement: Statement, column: Int32) -> Int? {
      switch statement.columnType(at: column) {
      case .integer:
        return rank(ofKey: statement.int64(at: column))
      case .real:
        let number = statement.optionalDouble(at: column) ?? .nan
        guard number.rounded() == number, abs(number) < 9.0e18 else { return fallback }
        return rank(ofKey: Int64(number))
      default:
        return fallback
      }
    }
  }

  /// How many rows `table` holds, for reserving room; nil when SQLite cannot tell.
  private static func rowCountHint(of table: String, in database: Database) -> Int? {
    do {
      let count = try database.makeStatement(sql: "SELECT count(*) FROM \(table) NOT INDEXED")
        .scalarInt64()
      return count.map { Int(clamping: $0) }
    } catch {
      return nil
    }
  }

  /// The positions of `rows` in walk order (`r, k NULLS LAST, p`), sorted on plain keys (no row
  /// is copied): grouped by rank first (a counting pass: ranks are category positions), then
  /// each category's rows sorted by order key and `Z_PK`, unless they already are.
  private static func walkOrder(of rows: [HeldWalk.Row], ranks: Int) -> [Int32] {
    struct SortKey: Comparable {
      /// 1 for no key (NULLS LAST), 0 for a key.
      var missing: UInt8
      /// The order key with its sign bit flipped, so that unsigned order is signed order (0 when
      /// there is none).
      var key: UInt64
      var primaryKey: Int64
      var index: Int32

      static func < (left: SortKey, right: SortKey) -> Bool {
        if left.missing != right.missing { return left.missing < right.missing }
        if left.key != right.key { return left.key < right.key }
        return left.primaryKey < right.primaryKey
      }
    }
    let ranks = max(ranks, (rows.lazy.map(\.rank).max() ?? -1) + 1)
    // Where each rank's rows start, in a counting pass.
    var starts = [Int](repeating: 0, count: ranks + 2)
    for row in rows { starts[row.rank + 2] += 1 }
    for rank in 0..<ranks { starts[rank + 2] += starts[rank + 1] }
    var keys = [SortKey](
      repeating: SortKey(missing: 0, key: 0, primaryKey: 0, index: 0), count: rows.count)
    for (index, row) in rows.enumerated() {
      let key = row.key.map { UInt64(bitPattern: $0) ^ (1 << 63) } ?? 0
      keys[starts[row.rank + 1]] = SortKey(
        missing: row.key == nil ? 1 : 0, key: key, primaryKey: row.primaryKey,
        index: Int32(index))
      starts[row.rank + 1] += 1
    }
    // `starts[rank]` is now where rank `rank` begins and `starts[rank + 1]` where it ends.
    keys.withUnsafeMutableBufferPointer { keys in
      func isSorted(_ range: Range<Int>) -> Bool {
        !range.dropFirst().contains(where: { keys[$0] < keys[$0 - 1] })
      }
      for rank in 0..<ranks {
        let range = starts[rank]..<starts[rank + 1]
        if isSorted(range) { continue }
        // Most categories: every row has a key and the keys span less than 2^44. Each is then
        // sorted as one word (its key above its position), and checked: keys that repeat, whose
        // order is `Z_PK`'s, may need the whole comparison.
        let positionBits = 20
        if range.count < 1 << positionBits,
          !keys[range].contains(where: { $0.missing != 0 }),
          let low = keys[range].lazy.map(\.key).min(),
          let high = keys[range].lazy.map(\.key).max(),
          high - low < 1 << (64 - positionBits)
        {
          let original = Array(keys[range])
          var words = original.enumerated().map { position, key in
            (key.key - low) << positionBits | UInt64(position)
          }
          words.sort()
          for (offset, word) in words.enumerated() {
            keys[range.lowerBound + offset] = original[Int(word & (1 << positionBits - 1))]
          }
          if isSorted(range) { continue }
        }
        keys[range].sort()
      }
    }
    return keys.map(\.index)
  }

  // MARK: - Walking

  /// The walk of a store ``count()`` held: the same items and counts as the walk over SQLite.
  private func replay(_ held: HeldWalk, _ sink: (LegacyItem) throws -> Void) throws
    -> LegacyReadSummary
  {
    var summary = held.summary
    try held.rows.withUnsafeBufferPointer { rows in
      try held.order.withUnsafeBufferPointer { order in
        var next = 0
        func emitRows(through rank: Int) throws {
          while next < order.count, rows[Int(order[next])].rank <= rank {
            let row = rows[Int(order[next])]
            try sink(.ditto(LegacyDitto(text: row.text, useCount: row.useCount)))
            summary.dittos += 1
            if row.rank < held.plan.count, case .withoutCategory = held.plan[row.rank].selection {
              summary.dittosWithoutCategory += 1
            }
            next += 1
          }
        }
        for (rank, category) in held.plan.enumerated() {
          summary.categories += 1
          try sink(.category(title: category.title, origin: category.origin))
          try emitRows(through: rank)
        }
        try emitRows(through: .max)
      }
    }
    return summary
  }

  private func walkUnmapped(_ sink: (LegacyItem) throws -> Void) throws -> LegacyReadSummary {
    try scan(
      category: { try sink(.category(title: $0.title, origin: $0.origin)) },
      ditto: { statement in
        guard let text = statement.text(at: 1), !text.isEmpty else { return false }
        try sink(.ditto(LegacyDitto(text: text, useCount: statement.optionalInt64(at: 2) ?? 0)))
        return true
      })
  }

  /// Streams the store like ``walk(_:)`` but hands each ditto's text over as UTF-8 bytes, valid only
  /// during the call (repaired when the store holds invalid UTF-8): exports use it to avoid building
  /// a `String` per ditto.
  ///
  /// - Returns: counts of what was read, once the walk is complete.
  @discardableResult
  package func walkUTF8(
    category: (_ title: String, _ origin: LegacyCategoryOrigin) throws -> Void,
    ditto: (_ text: UnsafeBufferPointer<UInt8>, _ useCount: Int64) throws -> Void
  ) throws -> LegacyReadSummary {
    do {
      return try scan(
        category: { try category($0.title, $0.origin) },
        ditto: { statement in
          guard !statement.isNull(at: 1) else { return false }
          let useCount = statement.optionalInt64(at: 2) ?? 0
          return try statement.withValidUTF8Text(at: 1) { bytes in
            guard !bytes.isEmpty else { return false }
            try ditto(bytes, useCount)
            return true
          }
        })
    } catch let error as SQLiteError {
      throw LegacyStoreError.from(error, file: store.file)
    }
  }

  /// The walk itself: one ordered pass over every ditto (see DittoBulkSource); categories are
  /// announced as the rows reach them, empty ones included. `ditto` reads columns 1 (text) and
  /// 2 (use count) of the current row and answers false for a row it skipped (NULL or empty text).
  private func scan(
    category: (PlannedCategory) throws -> Void, ditto: (Statement) throws -> Bool
  ) throws -> LegacyReadSummary {
    var summary = LegacyReadSummary()
    let plan = try planCategories(summary: &summary)
    let source = bulkSource(schema: "main", plan: plan)
    let lookup = source.lookupRows()
    try store.database.registerLookup(
      named: DittoBulkSource.lookupFunction, rows: lookup.rows, fallback: lookup.fallback)
    let statement = try store.database.makeStatement(
      sql:
        "\(source.orderedCTE()) SELECT r, t, u FROM ordered ORDER BY \(DittoBulkSource.walkOrder)")
    defer { statement.reset() }
    var announced = 0
    func announce(through rank: Int) throws {
      while announced <= rank, announced < plan.count {
        summary.categories += 1
        try category(plan[announced])
        announced += 1
      }
    }
    while try statement.step() {
      let rank = Int(statement.int64(at: 0))
      try announce(through: rank)
      guard try ditto(statement) else {
        summary.skippedEmptyTexts += 1
        continue
      }
      summary.dittos += 1
      if rank < plan.count, case .withoutCategory = plan[rank].selection {
        summary.dittosWithoutCategory += 1
      }
    }
    try announce(through: plan.count - 1)
    return summary
  }

  /// True when dittos carry a category key (`ZCATEGORY`).
  var hasCategoryLink: Bool { layout.dittoColumns.contains("ZCATEGORY") }

  /// True when dittos carry an order key (`Z_FOK_CATEGORY`).
  var hasOrderKey: Bool { layout.dittoColumns.contains("Z_FOK_CATEGORY") }

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
    let categoryTable = try table(for: LegacySchema.category.entity)
    let dittoTable = try table(for: LegacySchema.ditto.entity)
    guard let categoryTable, let dittoTable else {
      if !store.hasPrimaryKeyTable {
        throw LegacyStoreError.notACoreDataStore(file: store.file, missing: ["Z_PRIMARYKEY"])
      }
      if store.entity(named: "DittoCategory") != nil, store.entity(named: "DittoItem") != nil {
        throw LegacyStoreError.ditto3Library(file: store.file)
      }
      var missing: [String] = []
      if categoryTable == nil {
        missing.append(Self.describeMissing(LegacySchema.category.entity, store))
      }
      if dittoTable == nil {
        missing.append(Self.describeMissing(LegacySchema.ditto.entity, store))
      }
      throw LegacyStoreError.notADittoStore(file: store.file, missing: missing)
    }
    let categoryColumns = try store.database.columnNames(of: categoryTable)
    let dittoColumns = try store.database.columnNames(of: dittoTable)
    var missing: [String] = []
    if !categoryColumns.contains("Z_PK") { missing.append("\(categoryTable).Z_PK") }
    if !dittoColumns.contains("Z_PK") { missing.append("\(dittoTable).Z_PK") }
    if !dittoColumns.contains("ZTEXT") { missing.append("\(dittoTable).ZTEXT") }
    guard missing.isEmpty else {
      throw LegacyStoreError.notADittoStore(file: store.file, missing: missing)
    }
    var profileTable = try table(for: LegacySchema.profile.entity)
    if let candidate = profileTable, try !store.database.columnNames(of: candidate).contains("Z_PK")
    {
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
extension LegacyStoreReader: Sendable {}
