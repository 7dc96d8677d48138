import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles

/// What one applied import inserted into the store (keys only, never content).
public struct DittoStoreImportReceipt: Sendable, Equatable {
  /// `Z_PK` of the Profile the import created; nil when the store already had one.
  public var createdProfileID: Int64?
  /// `Z_PK`s of the new categories, in the plan's order.
  public var categoryIDs: [Int64]
  /// `Z_PK`s of the new dittos, in the plan's order (one contiguous range).
  public var dittoIDs: [Int64]
  /// `Z_PK` of the history transaction recorded; nil when the store has no history tables.
  public var historyTransactionID: Int64?
}

/// The `ditto-recover` destination: imports into an existing Ditto 3.x `Ditto.store`, insert only.
///
/// Before anything is opened for writing, a snapshot of the file is validated (a Ditto 3.x store with
/// exactly the app's tables and columns); anything else is refused and left byte-identical. The
/// import is one `BEGIN IMMEDIATE` transaction on the original file: the library is read inside it,
/// the plan is made once, then the new rows (and, when the store keeps persistent history, one
/// history transaction with an insert change per row) are inserted and committed together. Keys come
/// from `Z_PRIMARYKEY.Z_MAX`, which is only ever raised. Nothing existing is updated; the metadata,
/// model cache, schema, CloudKit tables, journal mode, page size and auto-vacuum are never touched.
public final class DittoStoreDestination: MigrationDestination {
  /// The author recorded on our history transactions (never a CloudKit mirroring name).
  public static let defaultAuthor = "ditto-recover"

  /// The store file, as given.
  public let path: String
  /// The author string of the history transaction.
  public let author: String
  /// How long to wait for another process's lock before failing with `.writeFailed`.
  public let busyTimeoutMilliseconds: Int32
  /// True when the store has CloudKit mirroring tables: the app exports the new dittos to iCloud on
  /// its next launch. Known after ``currentLibrary()`` or ``applyImport(_:)`` read the store.
  public private(set) var hasCloudKit = false
  /// True when the store keeps persistent history (known after a read, like ``hasCloudKit``).
  public private(set) var hasHistory = false
  /// What the last successful ``applyImport(_:)`` inserted; nil before, or when its plan was empty.
  public private(set) var lastReceipt: DittoStoreImportReceipt?
  private let now: () -> Double

  /// A destination for the store at `path`; nothing is opened until it is used.
  ///
  /// - Parameters:
  ///   - author: recorded in `ATRANSACTIONSTRING`; a `NSCloudKitMirroringDelegate…` name is
  ///     replaced by ``defaultAuthor`` (the CloudKit exporter skips such transactions).
  ///   - now: the current time in Cocoa seconds (tests pin it).
  public init(
    path: String, author: String = DittoStoreDestination.defaultAuthor,
    busyTimeoutMilliseconds: Int32 = 5_000,
    now: @escaping () -> Double = { Date().timeIntervalSinceReferenceDate }
  ) {
    self.path = path
    self.author =
      author.isEmpty || author.hasPrefix("NSCloudKitMirroringDelegate")
      ? Self.defaultAuthor : author
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    self.now = now
  }

  /// The library as the app shows it, read on a snapshot (the original is not opened).
  public func currentLibrary() throws(DestinationError) -> CurrentLibrary {
    let path = path
    let (library, layout) = try DittoStoreFile.withSnapshot(of: path) {
      (database, layout) throws(SQLiteError) in
      (try LibraryQueries(database: database, layout: layout).currentLibrary().library, layout)
    }
    hasCloudKit = layout.hasCloudKit
    hasHistory = layout.hasHistory
    return library
  }

  /// Validates the store, then reads, plans and inserts in one write transaction (see the type).
  ///
  /// An empty plan writes nothing (the transaction is rolled back, no history is recorded).
  ///
  /// - Returns: the plan applied (`createsProfile` says whether a Profile was created).
  /// - Throws: ``DestinationError``: `.noLibrary` (no file), `.refused` (not a Ditto 3.x store this
  ///   tool may write; the file is untouched), `.writeFailed` (read-only file, still locked after the
  ///   busy timeout, I/O error, disk full; rolled back), `.readFailed`.
  public func applyImport(_ plan: (CurrentLibrary) -> ImportPlan) throws(DestinationError)
    -> ImportPlan
  {
    lastReceipt = nil
    let checked = try DittoStoreFile.validateForWrite(at: path)
    if let refusal = DittoStoreFile.writeRefusal(checked) {
      throw DestinationError(.refused, file: path, reason: refusal)
    }
    hasCloudKit = checked.hasCloudKit
    hasHistory = checked.hasHistory
    try checkWritable()

    // Opening a WAL store creates `-wal` and `-shm` when they are missing. When nothing is
    // committed they are removed again at close (an empty WAL checkpoints nothing); an existing
    // `-wal` is left exactly as it was.
    let hadWAL: Bool
    do {
      hadWAL = try FileStatus.of(path: path + "-wal") != nil
    } catch {
      hadWAL = true
    }
    let database: Database
    do {
      // The folders the caller named may sit behind links (a Mac's /tmp and /var); the store itself
      // must be a regular file, never a link.
      database = try Database(
        path: UserPath.resolvingFolder(of: path), mode: .readWrite, displayName: path,
        options: Database.Options(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
      // Until something is committed, closing must not checkpoint: the files stay as they were.
      try database.setCheckpointsOnClose(false)
    } catch {
      throw DestinationError.fromWrite(error, file: path)
    }
    var committed = false
    defer {
      if !committed && !hadWAL { Self.enableCheckpointsOnClose(database) }
      Self.close(database)
    }
    do {
      try database.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
    } catch {
      throw DestinationError.fromWrite(error, file: path)
    }
    do {
      let result = try planAndInsert(database, plan)
      guard let receipt = result.receipt else {
        try database.execute(sql: "ROLLBACK TRANSACTION")
        return result.plan
      }
      try database.execute(sql: "COMMIT TRANSACTION")
      committed = true
      lastReceipt = receipt
      Self.enableCheckpointsOnClose(database)
      return result.plan
    } catch let error as DestinationError {
      Self.rollback(database)
      throw error
    } catch let error as SQLiteError {
      Self.rollback(database)
      throw DestinationError.fromWrite(error, file: path)
    } catch {
      Self.rollback(database)
      throw DestinationError(.writeFailed, file: path, reason: "\(error); nothing was written")
    }
  }

  // MARK: - Inside the transaction

  private func planAndInsert(_ database: Database, _ plan: (CurrentLibrary) -> ImportPlan) throws
    -> (plan: ImportPlan, receipt: DittoStoreImportReceipt?)
  {
    // The schema is checked again under the lock: it may have changed since the snapshot.
    let layout = try StoreLayout.inspect(database, file: path)
    if let refusal = DittoStoreFile.writeRefusal(layout) {
      throw DestinationError(.refused, file: path, reason: refusal)
    }
    hasCloudKit = layout.hasCloudKit
    hasHistory = layout.hasHistory
    let queries = LibraryQueries(database: database, layout: layout)
    let (library, firstProfile) = try queries.currentLibrary()
    var planned = plan(library)
    guard !planned.isEmpty else {
      planned.createsProfile = false
      return (planned, nil)
    }
    try checkTargets(planned, library: library)
    planned.createsProfile = firstProfile == nil
    var writer = try RowWriter(
      database: database, layout: layout, queries: queries, author: author, now: now(), file: path)
    let receipt = try writer.insert(planned, profile: firstProfile)
    return (planned, receipt)
  }

  private func checkTargets(_ plan: ImportPlan, library: CurrentLibrary) throws(DestinationError) {
    let known = Set(library.categories.map(\.id))
    for ditto in plan.dittos {
      let valid: Bool
      switch ditto.target {
      case .existing(let id): valid = known.contains(id)
      case .new(let index): valid = plan.newCategories.indices.contains(index)
      }
      guard valid else {
        throw DestinationError(
          .writeFailed, file: path,
          reason: "the import plan names a category the library does not hold; nothing was written")
      }
    }
  }

  // MARK: - Files

  /// Refuses a file without any write permission bit before SQLite opens it (root could write it
  /// anyway; a read-only library is the user's choice).
  private func checkWritable() throws(DestinationError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR {
        throw DestinationError(.noLibrary, file: path, reason: DestinationError.noLibraryReason)
      }
      throw DestinationError(
        .writeFailed, file: path,
        reason: "cannot check the file: \(String(cString: strerror(code))); nothing was written")
    }
    if info.st_mode & 0o222 == 0 || access(path, W_OK) != 0 {
      throw DestinationError(
        .writeFailed, file: path, reason: "the library file is read-only; nothing was written")
    }
  }

  private static func rollback(_ database: Database) {
    guard database.isInsideTransaction else { return }
    do {
      try database.execute(sql: "ROLLBACK TRANSACTION")
    } catch {
      // The first error is the one reported.
    }
  }

  private static func enableCheckpointsOnClose(_ database: Database) {
    do {
      try database.setCheckpointsOnClose(true)
    } catch {
      // The WAL is then left for the app to checkpoint; nothing is lost.
    }
  }

  private static func close(_ database: Database) {
    do {
      try database.close()
    } catch {
      // Statements are gone by now; a failed close is finished by the connection's deinit.
    }
  }
}

/// The keys one entity's new rows received: `first ..< first + count`.
private struct InsertedRange {
  var entity: Int64
  var table: String
  var first: Int64
  var count: Int
}

/// Inserts one plan's rows with prepared statements, keys allocated once per entity.
private struct RowWriter {
  let database: Database
  let layout: StoreLayout
  let queries: LibraryQueries
  let author: String
  let now: Double
  let file: String

  init(
    database: Database, layout: StoreLayout, queries: LibraryQueries, author: String, now: Double,
    file: String
  ) throws {
    self.database = database
    self.layout = layout
    self.queries = queries
    self.author = author
    self.now = now
    self.file = file
  }

  /// The next free key of an entity: above both `Z_MAX` and the table's largest `Z_PK` (Core Data
  /// may have handed out keys above the table's maximum; a damaged `Z_MAX` must not make us reuse one).
  private func firstFreeKey(_ entity: EntityRow, table: String) throws -> Int64 {
    max(entity.max, try queries.largestKey(of: table)) + 1
  }

  private func raiseMax(of entity: Int64, to value: Int64) throws {
    let statement = try database.makeStatement(
      sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ?1 WHERE Z_ENT = ?2 AND (Z_MAX IS NULL OR Z_MAX < ?1)")
    try statement.bind(.integer(value), .integer(entity))
    try statement.run()
  }

  mutating func insert(_ plan: ImportPlan, profile existingProfile: Int64?) throws
    -> DittoStoreImportReceipt
  {
    var receipt = DittoStoreImportReceipt(
      createdProfileID: nil, categoryIDs: [], dittoIDs: [], historyTransactionID: nil)
    // Inserted rows, for the history: each entity's new keys are one contiguous range.
    var changes: [InsertedRange] = []

    let profile: Int64
    if let existingProfile {
      profile = existingProfile
    } else {
      profile = try firstFreeKey(layout.profile, table: "ZPROFILE")
      let statement = try database.makeStatement(
        sql: "INSERT INTO ZPROFILE (Z_PK, Z_ENT, Z_OPT) VALUES (?, ?, 1)")
      try statement.bind(.integer(profile), .integer(layout.profile.number))
      try statement.run()
      try raiseMax(of: layout.profile.number, to: profile)
      receipt.createdProfileID = profile
      changes.append(
        InsertedRange(entity: layout.profile.number, table: "ZPROFILE", first: profile, count: 1))
    }

    if !plan.newCategories.isEmpty {
      var key = try firstFreeKey(layout.category, table: "ZDITTOCATEGORY")
      changes.append(
        InsertedRange(
          entity: layout.category.number, table: "ZDITTOCATEGORY", first: key,
          count: plan.newCategories.count))
      let statement = try database.makeStatement(
        sql: """
          INSERT INTO ZDITTOCATEGORY (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZPROFILE, ZMODIFIEDAT, ZTITLE)
          VALUES (?, ?, 1, ?, ?, ?, ?)
          """)
      for category in plan.newCategories {
        try statement.bind(
          .integer(key), .integer(layout.category.number), .integer(category.sortOrder),
          .integer(profile), .real(now), .text(category.title))
        try statement.run()
        receipt.categoryIDs.append(key)
        key += 1
      }
      try raiseMax(of: layout.category.number, to: key - 1)
    }

    if !plan.dittos.isEmpty {
      var key = try firstFreeKey(layout.item, table: "ZDITTOITEM")
      changes.append(
        InsertedRange(
          entity: layout.item.number, table: "ZDITTOITEM", first: key, count: plan.dittos.count))
      let statement = try database.makeStatement(
        sql: """
          INSERT INTO ZDITTOITEM
          (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZUSECOUNT, ZCATEGORY, ZMODIFIEDAT, ZTEXT)
          VALUES (?, ?, 1, ?, ?, ?, ?, ?)
          """)
      receipt.dittoIDs.reserveCapacity(plan.dittos.count)
      for ditto in plan.dittos {
        let category: Int64
        switch ditto.target {
        case .existing(let id): category = id.rawValue
        case .new(let index): category = receipt.categoryIDs[index]
        }
        try statement.bind(
          .integer(key), .integer(layout.item.number), .integer(ditto.sortOrder),
          .integer(ditto.useCount), .integer(category), .real(now), .text(ditto.text))
        try statement.run()
        receipt.dittoIDs.append(key)
        key += 1
      }
      try raiseMax(of: layout.item.number, to: key - 1)
    }

    if layout.hasHistory {
      receipt.historyTransactionID = try recordHistory(changes)
    }
    return receipt
  }

  /// One ATRANSACTION with our author and one ACHANGE insert row per inserted object.
  private func recordHistory(_ changes: [InsertedRange]) throws -> Int64 {
    // Absent until the first history write of the store's life.
    try database.execute(
      sql: """
        INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES
        (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0)
        """)
    let entities = try StoreLayout.inspect(database, file: file).entities
    func entity(_ name: String) throws -> EntityRow {
      guard let row = entities.first(where: { $0.name == name }) else {
        throw DestinationError(
          .refused, file: file,
          reason:
            "Z_PRIMARYKEY has no \(name) history entity and its usual number is taken; nothing was written"
        )
      }
      return row
    }
    let change = try entity("CHANGE")
    let transaction = try entity("TRANSACTION")
    let string = try entity("TRANSACTIONSTRING")

    let lookup = try database.makeStatement(
      sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ? ORDER BY Z_PK LIMIT 1")
    try lookup.bind(.text(author))
    let authorKey: Int64
    if let found = try lookup.scalarInt64() {
      authorKey = found
    } else {
      authorKey = try firstFreeKey(string, table: "ATRANSACTIONSTRING")
      let insert = try database.makeStatement(
        sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)")
      try insert.bind(.integer(authorKey), .integer(string.number), .text(author))
      try insert.run()
      try raiseMax(of: string.number, to: authorKey)
    }

    let transactionKey = try firstFreeKey(transaction, table: "ATRANSACTION")
    let insertTransaction = try database.makeStatement(
      sql: """
        INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZTIMESTAMP)
        VALUES (?, ?, NULL, ?, ?)
        """)
    try insertTransaction.bind(
      .integer(transactionKey), .integer(transaction.number), .integer(authorKey), .real(now))
    try insertTransaction.run()
    try raiseMax(of: transaction.number, to: transactionKey)

    // One statement per entity over its new key range (the rows were just inserted, in key order).
    var key = try firstFreeKey(change, table: "ACHANGE")
    for range in changes where range.count > 0 {
      let insertChanges = try database.makeStatement(
        sql: """
          INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
          SELECT ?1 + (Z_PK - ?2), ?3, NULL, 0, ?4, Z_PK, ?5 FROM \(range.table)
          WHERE Z_PK BETWEEN ?2 AND ?6 ORDER BY Z_PK
          """)
      try insertChanges.bind(
        .integer(key), .integer(range.first), .integer(change.number), .integer(range.entity),
        .integer(transactionKey), .integer(range.first + Int64(range.count) - 1))
      try insertChanges.run()
      guard database.changesCount == range.count else {
        throw DestinationError(
          .writeFailed, file: file,
          reason:
            "the history of \(range.table) did not match the rows inserted; nothing was written"
        )
      }
      key += Int64(range.count)
    }
    if !changes.isEmpty { try raiseMax(of: change.number, to: key - 1) }
    return transactionKey
  }
}
