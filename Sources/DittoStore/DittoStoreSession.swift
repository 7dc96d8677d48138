import LibraryMerge
import SQLiteDB

/// One import into (or, writing nothing, a preview against) a `Ditto.store` open on `database`:
/// the merge's questions answered from the store itself, its inserts written by a ``RowWriter``.
///
/// Whether a category held a text is answered by a ``CategoryTextIndex`` of that category alone,
/// built when the merge first asks and kept while it asks about the same category (a source's
/// dittos come category by category), so memory holds one category's digests at a time.
final class DittoStoreSession: ImportSession, MergeProgressReporting {
  /// Told how far the merge has gone (a progress line), when set.
  var onProgress: ((MergeProgress) -> Void)?
  let outline: LibraryOutline
  let facts: LibraryFacts
  private let database: Database
  private let layout: StoreLayout
  private let file: String
  /// Nil for a preview: inserts are then only counted.
  private var writer: RowWriter?
  /// Rows at or above this key are this import's, never "held before".
  private let keysBelow: Int64
  private var index: CategoryTextIndex?
  /// A preview's handles for the categories it would create (above every existing key).
  private var previewCategoryKey: Int64
  /// The categories a ditto may go to: the library's and those this import created.
  private var knownCategories: Set<Int64>
  /// Whether ``LibraryChecks/beforeFirstWrite(_:file:)`` has passed (writing sessions only).
  private var checkedBeforeWriting = false

  /// - Parameter writes: false for a preview on a snapshot.
  /// - Throws: ``SQLiteError``.
  init(database: Database, layout: StoreLayout, writes: Bool, now: Double, file: String)
    throws(SQLiteError)
  {
    self.database = database
    self.layout = layout
    self.file = file
    let (outline, profile) = try LibraryQueries(database: database, layout: layout).outline()
    self.outline = outline
    facts = LibraryFacts(hasCloudKitTables: layout.hasCloudKit, keepsHistory: layout.hasHistory)
    if writes {
      let writer = try RowWriter(
        database: database, layout: layout, profile: profile, now: now, file: file)
      keysBelow = writer.firstDittoKey
      self.writer = writer
    } else {
      keysBelow = .max
    }
    previewCategoryKey =
      try RowWriter.firstFreeKey(layout.category, table: "ZDITTOCATEGORY", in: database)
    knownCategories = Set(outline.categories.map(\.id.rawValue))
  }

  func heldBeforeImport(_ text: String, in category: CategoryID) throws(DestinationError) -> Bool {
    do {
      if index?.category != category.rawValue {
        index = nil  // one category's digests at a time
        index = try CategoryTextIndex(
          category: category.rawValue, database: database, layout: layout, keysBelow: keysBelow)
      }
      return try index?.holds(text) ?? false
    } catch {
      throw DestinationError.fromRead(error, file: file)
    }
  }

  func insertCategory(title: String, sortOrder: Int64) throws(DestinationError) -> CategoryID {
    try checkBeforeFirstWrite()
    do {
      if let key = try writer?.insertCategory(title: title, sortOrder: sortOrder) {
        knownCategories.insert(key)
        return CategoryID(key)
      }
    } catch {
      throw DestinationError.fromWrite(error, file: file)
    }
    previewCategoryKey += 1
    knownCategories.insert(previewCategoryKey - 1)
    return CategoryID(previewCategoryKey - 1)
  }

  func insertDitto(
    text: String, useCount: Int64, sortOrder: Int64, in category: CategoryID
  ) throws(DestinationError) {
    guard knownCategories.contains(category.rawValue) else {
      throw DestinationError(
        .writeFailed, file: file,
        reason: "the import names a category the library does not hold; nothing was written")
    }
    try checkBeforeFirstWrite()
    do {
      try writer?.insertDitto(
        text: text, useCount: useCount, sortOrder: sortOrder, category: category.rawValue)
    } catch {
      throw DestinationError.fromWrite(error, file: file)
    }
  }

  func mergeProgressed(_ progress: MergeProgress) { onProgress?(progress) }

  /// The library's integrity, checked once, before this import writes its first row.
  private func checkBeforeFirstWrite() throws(DestinationError) {
    guard writer != nil, !checkedBeforeWriting else { return }
    try LibraryChecks.beforeFirstWrite(database, file: file)
    checkedBeforeWriting = true
  }

  /// Finishes the writes (keys, history) before the commit.
  ///
  /// - Returns: what was inserted; nil when nothing was (the transaction is then rolled back).
  /// - Throws: ``DestinationError`` or ``SQLiteError``.
  func finish(author: String, now: Double) throws -> DittoStoreImportReceipt? {
    index = nil
    guard var writer, writer.hasInserted else { return nil }
    let ranges = try writer.finish()
    self.writer = writer
    var receipt = DittoStoreImportReceipt(
      createdProfileID: writer.createdProfile, categoryIDs: writer.categoryKeys,
      dittoIDs: writer.firstDittoKey..<(writer.firstDittoKey + Int64(writer.dittoCount)),
      historyTransactionID: nil, facts: facts)
    if layout.hasHistory {
      receipt.historyTransactionID = try HistoryWriter(
        database: database, author: author, now: now, file: file,
        transactionColumns: layout.transactionColumns
      ).record(ranges)
    }
    return receipt
  }
}
