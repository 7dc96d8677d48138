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
  private var writes = 0

  private(set) var counts = ImportCounts()
  private var currentCategory: Int64?
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

  init(database: Database, isPreview: Bool, writeStepHook: (@Sendable (Int) -> Void)?)
    throws(SQLiteError)
  {
    self.database = database
    self.isPreview = isPreview
    self.writeStepHook = writeStepHook
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

  /// Starts (or merges into) the category titled `title`.
  func beginCategory(title: String) throws(SQLiteError) {
    counts.categoriesRead += 1
    try findCategory.bind(.text(title))
    let existing = try findCategory.scalarInt64()
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
      countInsert(into: category)
      nextDittoOrder += 1
      didWrite()
    } else {
      counts.skipped += 1
    }
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
