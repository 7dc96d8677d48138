import Foundation
import LegacyStore
import SQLiteDB

/// Applies the merge rules to a stream of legacy items, on one connection, inside the caller's transaction.
///
/// Rules: a category whose title equals an existing category's merges into it (the existing one keeps its
/// place); new categories are appended in source order; within a category a ditto whose text is already
/// there is skipped and counted; new dittos are appended in source order with their use counts.
///
/// In preview mode nothing is written to the library: duplicates are found with read-only queries plus a
/// `TEMP` table of the texts the import would have added, so memory stays flat however large the source.
final class LibraryImport {
  private let database: Database
  private let isPreview: Bool
  private let now = Date().timeIntervalSince1970
  private let writeStepHook: (@Sendable (Int) -> Void)?
  /// The largest library (in dittos) whose fingerprints ``bulkCopy(_:)`` holds in memory.
  private let fingerprintLimit: Int
  private var writes = 0

  private(set) var counts = ImportCounts()
  private var currentCategory: Int64?
  /// True while the current category was created by this import and nothing was added yet.
  private var currentCategoryIsEmpty = false
  private var nextDittoOrder: Int64 = 0
  private var nextCategoryOrder: Int64 = 0
  /// Preview only: titles of categories the import would create, with their stand-in keys (negative).
  private var plannedCategories: [String: Int64] = [:]
  /// Library categories (or stand-in keys) that get at least one new ditto.
  private var categoriesReceivingDittos = Set<Int64>()

  private let findCategory: Statement
  private let nextOrderInCategory: Statement
  private let insertCategory: Statement?
  private let insertDitto: Statement?
  private let dittoExists: Statement?
  private let rememberText: Statement?
  private let rowCounter: RowCounter

  init(
    database: Database, isPreview: Bool, writeStepHook: (@Sendable (Int) -> Void)?,
    fingerprintLimit: Int = 0
  ) throws(SQLiteError) {
    self.database = database
    self.fingerprintLimit = fingerprintLimit
    self.isPreview = isPreview
    self.writeStepHook = writeStepHook
    rowCounter = try database.makeRowCounter(named: "ditto_rows_read")
    findCategory = try database.makeStatement(
      sql:
        "SELECT id FROM category WHERE profile_id = 1 AND title = ? ORDER BY sort_order, id LIMIT 1"
    )
    nextOrderInCategory = try database.makeStatement(
      sql: "SELECT coalesce(max(sort_order), -1) + 1 FROM ditto WHERE category_id = ?")
    nextCategoryOrder =
      try database.makeStatement(
        sql: "SELECT coalesce(max(sort_order), -1) + 1 FROM category WHERE profile_id = 1"
      ).scalarInt64() ?? 0
    if isPreview {
      try database.execute(
        sql: """
          CREATE TEMP TABLE IF NOT EXISTS import_preview (
            category_key INTEGER NOT NULL, text TEXT NOT NULL, UNIQUE (category_key, text));
          DELETE FROM temp.import_preview;
          """)
      insertCategory = nil
      insertDitto = nil
      dittoExists = try database.makeStatement(
        sql: "SELECT 1 FROM main.ditto WHERE category_id = ? AND text = ?")
      rememberText = try database.makeStatement(
        sql: "INSERT OR IGNORE INTO temp.import_preview (category_key, text) VALUES (?, ?)")
    } else {
      insertCategory = try database.makeStatement(
        sql: """
          INSERT INTO category (profile_id, title, sort_order, modified_at) VALUES (1, ?, ?, ?)
          """)
      insertDitto = try database.makeStatement(
        sql: """
          INSERT OR IGNORE INTO ditto (category_id, text, use_count, sort_order, modified_at)
          VALUES (?, ?, ?, ?, ?)
          """)
      dittoExists = nil
      rememberText = nil
    }
  }

  /// Applies one item of a source: a category starts (or merges into) it, a ditto is added to it.
  func apply(_ item: LegacyItem) throws(SQLiteError) {
    switch item {
    case .category(let title, _): try beginCategory(title: title)
    case .ditto(let ditto): try add(ditto)
    }
  }

  /// Starts (or merges into) the category titled `title`.
  func beginCategory(title: String) throws(SQLiteError) {
    counts.categoriesRead += 1
    try findCategory.bind(.text(title))
    let existing = try findCategory.scalarInt64()
    currentCategoryIsEmpty = existing == nil
    if let existing {
      currentCategory = existing
      try nextOrderInCategory.bind(.integer(existing))
      nextDittoOrder = try nextOrderInCategory.scalarInt64() ?? 0
      return
    }
    if isPreview {
      if let planned = plannedCategories[title] {
        currentCategory = planned
        return
      }
      let key = -Int64(plannedCategories.count + 1)
      plannedCategories[title] = key
      currentCategory = key
      counts.insertedCategories += 1
      return
    }
    guard let insertCategory else { return }
    try insertCategory.bind(.text(title), .integer(nextCategoryOrder), .real(now))
    try insertCategory.run()
    nextCategoryOrder += 1
    currentCategory = database.lastInsertedRowID
    nextDittoOrder = 0
    counts.insertedCategories += 1
    didWrite()
  }

  /// Adds `ditto` to the current category unless its text is already there.
  func add(_ ditto: LegacyDitto) throws(SQLiteError) {
    if currentCategory == nil {
      // A source that starts with dittos and no category: they go to "Recovered", as the reader does.
      try beginCategory(title: DittoStoreReader.recoveredTitle)
    }
    guard let category = currentCategory else { return }
    counts.dittosRead += 1
    if isPreview {
      var isDuplicate = false
      if category > 0, let dittoExists {
        try dittoExists.bind(.integer(category), .text(ditto.text))
        isDuplicate = try dittoExists.scalarInt64() != nil
      }
      if !isDuplicate, let rememberText {
        try rememberText.bind(.integer(category), .text(ditto.text))
        try rememberText.run()
        isDuplicate = database.changesCount == 0
      }
      if isDuplicate { counts.skipped += 1 } else { countInsert(into: category) }
      return
    }
    guard let insertDitto else { return }
    try insertDitto.bind(
      .integer(category), .text(ditto.text), .integer(ditto.useCount), .integer(nextDittoOrder),
      .real(now))
    try insertDitto.run()
    if database.changesCount == 1 {
      currentCategoryIsEmpty = false
      countInsert(into: category)
      nextDittoOrder += 1
      didWrite()
    } else {
      counts.skipped += 1
    }
  }

  /// Copies every ditto of an attached legacy store with one `INSERT … SELECT`, in walk order,
  /// applying the same rules as ``add(_:)`` row by row: empty texts skipped, a text its category
  /// already holds skipped (the first occurrence wins), positions appended after the category's last.
  func bulkCopy(_ source: DittoBulkSource) throws(SQLiteError) {
    guard !isPreview else { return }
    var values: [[Int64]] = []
    var everyCategoryExisted = !source.categories.isEmpty
    for category in source.categories {
      try beginCategory(title: category.title)
      if currentCategoryIsEmpty { everyCategoryExisted = false }
      values.append([currentCategory ?? 0, nextDittoOrder])
    }
    let lookup = source.lookupRows(values: values)
    try database.registerLookup(
      named: DittoBulkSource.lookupFunction, rows: lookup.rows, fallback: lookup.fallback)
    let ordered = source.orderedCTE(extraColumns: ["cat", "base"])
    let keep = DittoBulkSource.nonEmptyText
    let text = "CAST(t AS TEXT)"
    if everyCategoryExisted {
      // Merging into categories that were all there before: when every text is already there, skip
      // the sorted copy entirely (a duplicate must cost less than an insert).
      let query = SourceQuery(ordered: ordered, keep: keep, text: text)
      var presence = try presenceByFingerprints(query, categories: Set(values.map { $0[0] }))
      if presence == nil { presence = try presenceByProbing(query) }
      if case .allPresent(let total) = presence {
        counts.dittosRead += total
        counts.skipped += total
        return
      }
    }
    let lastID =
      try database.makeStatement(sql: "SELECT coalesce(max(id), 0) FROM main.ditto")
      .scalarInt64() ?? 0
    // ditto_rows_read() counts the rows the SELECT reads (inserted or ignored) in the same pass.
    rowCounter.reset()
    let insert = try database.makeStatement(
      sql: """
        \(ordered)
        INSERT OR IGNORE INTO main.ditto (category_id, text, use_count, sort_order, modified_at)
        SELECT cat, \(text), CAST(coalesce(u, 0) AS INTEGER) + ditto_rows_read(),
               base + row_number() OVER (PARTITION BY cat ORDER BY \(DittoBulkSource.walkOrder)) - 1, ?1
        FROM ordered WHERE \(keep) ORDER BY \(DittoBulkSource.walkOrder)
        """)
    try insert.bind(.real(now), at: 1)
    try insert.run()
    let inserted = database.changesCount
    let read = rowCounter.count
    counts.dittosRead += read
    counts.inserted += inserted
    counts.skipped += read - inserted
    if inserted > 0 {
      let receiving = try database.makeStatement(
        sql: "SELECT DISTINCT category_id FROM main.ditto WHERE id > ?1")
      try receiving.bind(.integer(lastID), at: 1)
      while try receiving.step() {
        if categoriesReceivingDittos.insert(receiving.int64(at: 0)).inserted {
          counts.categoriesReceivingDittos += 1
        }
      }
      receiving.reset()
      currentCategoryIsEmpty = false
    }
    didWrite()
  }

  /// The pieces of SQL that select a bulk source's dittos as the import sees them.
  private struct SourceQuery {
    var ordered: String
    var keep: String
    var text: String
  }

  /// Whether a bulk source holds anything its categories in the library do not.
  private enum Presence {
    case allPresent(dittos: Int)
    case somethingNew
  }

  /// Decides ``Presence`` with two sequential scans (the library's dittos into a set of fingerprints,
  /// then the source, stopping at the first ditto not in the set) instead of one random index probe
  /// per ditto; nil when the library is too large to hold its fingerprints (over
  /// `fingerprintLimit` dittos).
  private func presenceByFingerprints(_ query: SourceQuery, categories: Set<Int64>)
    throws(SQLiteError) -> Presence?
  {
    let largestID =
      try database.makeStatement(sql: "SELECT coalesce(max(id), 0) FROM main.ditto")
      .scalarInt64() ?? 0
    guard largestID <= Int64(fingerprintLimit) else { return nil }
    let fingerprinter = TextFingerprinter()
    var present = FingerprintSet(expectedCount: Int(largestID))
    let library = try database.makeStatement(
      sql: "SELECT category_id, text FROM main.ditto NOT INDEXED")
    while try library.step() {
      let category = library.int64(at: 0)
      // Only TEXT values compare equal to the source's texts in SQL; anything else never matches.
      guard categories.contains(category), library.columnType(at: 1) == .text else { continue }
      let fingerprint = library.withTextBytes(at: 1) {
        fingerprinter.fingerprint(category: category, text: $0)
      }
      guard present.insert(fingerprint) else { return nil }
    }
    library.reset()
    let source = try database.makeStatement(
      sql: "\(query.ordered) SELECT cat, \(query.text) FROM ordered WHERE \(query.keep)")
    defer { source.reset() }
    var total = 0
    while try source.step() {
      let category = source.int64(at: 0)
      let fingerprint = source.withTextBytes(at: 1) {
        fingerprinter.fingerprint(category: category, text: $0)
      }
      guard present.contains(fingerprint) else { return .somethingNew }
      total += 1
    }
    return .allPresent(dittos: total)
  }

  /// Decides ``Presence`` in SQL, one probe of the library's `(category_id, text)` index per ditto.
  private func presenceByProbing(_ query: SourceQuery) throws(SQLiteError) -> Presence {
    let fresh = try database.makeStatement(
      sql: """
        \(query.ordered) SELECT count(*), coalesce(sum(NOT EXISTS (
          SELECT 1 FROM main.ditto AS x WHERE x.category_id = cat AND x.text = \(query.text))), 0)
        FROM ordered WHERE \(query.keep)
        """)
    defer { fresh.reset() }
    guard try fresh.step() else { return .somethingNew }
    return fresh.int64(at: 1) == 0 ? .allPresent(dittos: Int(fresh.int64(at: 0))) : .somethingNew
  }

  private func countInsert(into category: Int64) {
    counts.inserted += 1
    if categoriesReceivingDittos.insert(category).inserted {
      counts.categoriesReceivingDittos += 1
    }
  }

  private func didWrite() {
    writes += 1
    writeStepHook?(writes)
  }
}
