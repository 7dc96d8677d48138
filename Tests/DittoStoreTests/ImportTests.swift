import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import StoreFixtures
import Testing

/// Merges into copies of the fixtures through `DittoStoreDestination` and checks every rule.
@Suite struct ImportTests {
  static let sources = [
    MergeSource(
      kind: "coredata",
      categories: [
        MergeCategory(
          title: "Driving",
          dittos: [
            MergeDitto(text: "What's the address?"), MergeDitto(text: "Running late", useCount: 4),
          ]),
        MergeCategory(
          title: "From 2.x",
          dittos: [MergeDitto(text: "one", useCount: 2), MergeDitto(text: "two")]),
      ])
  ]

  /// A store copy, and a second copy of the same fixture to compare against.
  struct Copies {
    let target: TemporaryDirectory
    let reference: TemporaryDirectory
    let store: String
    let original: String

    init(_ name: String) throws {
      target = try TemporaryDirectory("import")
      reference = try TemporaryDirectory("import-before")
      store = try Fixtures.copy(name, into: target)
      original = try Fixtures.copy(name, into: reference)
    }
  }

  @Test(arguments: Fixtures.names)
  func mergeIntoFixture(name: String) throws {
    let copies = try Copies(name)
    let before = try DittoStoreFile.content(at: copies.store)
    let beforeSummary = try DittoStoreFile.summary(at: copies.store)
    let originalDB = try openStore(copies.original)
    let untouchable = try Untouchable(originalDB)
    let oldMax = try zMax(originalDB)

    let destination = DittoStoreDestination(path: copies.store, now: { pinnedNow })
    let plan = try destination.merge(Self.sources)
    let receipt = try #require(destination.lastReceipt())
    #expect(receipt.facts.hasCloudKitTables == (name == "cloudkit-gaps"))
    #expect(receipt.facts.keepsHistory)
    #expect(plan.createsProfile == (name == "empty"))
    #expect((receipt.createdProfileID != nil) == (name == "empty"))

    let database = try openStore(copies.store)
    #expect(try rows(database, "PRAGMA integrity_check") == [["t:ok"]])
    var unchanged = try Untouchable(database)
    // Z_ENT, Z_NAME and Z_SUPER of every existing entity stay; only the history entities may appear.
    #expect(Set(untouchable.primaryKeyNames).isSubset(of: Set(unchanged.primaryKeyNames)))
    #expect(
      unchanged.primaryKeyNames.count == untouchable.primaryKeyNames.count
        + (name == "empty" ? 3 : 0))
    unchanged.primaryKeyNames = untouchable.primaryKeyNames
    #expect(unchanged == untouchable)

    // Keys above the old Z_MAX, Z_MAX raised to the last key handed out.
    let newMax = try zMax(database)
    let oldCategoryMax = try #require(oldMax["DittoCategory"])
    let oldItemMax = try #require(oldMax["DittoItem"])
    #expect(
      receipt.categoryIDs == [oldCategoryMax + 1] + (name == "empty" ? [oldCategoryMax + 2] : []))
    #expect(receipt.dittoIDs.first == oldItemMax + 1)
    let expectedDittoIDs = (oldItemMax + 1)..<(oldItemMax + 1 + Int64(receipt.dittoIDs.count))
    #expect(receipt.dittoIDs == expectedDittoIDs)
    #expect(newMax["DittoCategory"] == receipt.categoryIDs.last)
    #expect(newMax["DittoItem"] == receipt.dittoIDs.last)
    if let profile = receipt.createdProfileID {
      #expect(profile == (oldMax["Profile"] ?? 0) + 1)
      #expect(newMax["Profile"] == profile)
    } else {
      #expect(newMax["Profile"] == oldMax["Profile"])
    }
    for (entity, value) in oldMax { #expect((newMax[entity] ?? 0) >= value, "\(entity)") }
    #expect(try scalar(database, "SELECT count(*) FROM ZPROFILE") == 1)

    // New rows: every column the model needs, with exact types.
    #expect(
      try scalar(
        database,
        """
        SELECT count(*) FROM ZDITTOITEM WHERE Z_PK > \(oldItemMax) AND NOT (
          Z_ENT = 2 AND Z_OPT = 1 AND typeof(ZSORTORDER) = 'integer' AND typeof(ZUSECOUNT) = 'integer'
          AND typeof(ZMODIFIEDAT) = 'real' AND ZMODIFIEDAT = \(pinnedNow) AND typeof(ZTEXT) = 'text'
          AND typeof(ZCATEGORY) = 'integer')
        """) == 0)
    #expect(
      try scalar(
        database,
        """
        SELECT count(*) FROM ZDITTOCATEGORY WHERE Z_PK > \(oldCategoryMax) AND NOT (
          Z_ENT = 1 AND Z_OPT = 1 AND typeof(ZSORTORDER) = 'integer' AND typeof(ZMODIFIEDAT) = 'real'
          AND typeof(ZTITLE) = 'text' AND typeof(ZPROFILE) = 'integer')
        """) == 0)

    // What the app shows now: the old library, plus the new dittos appended after the largest
    // sortOrder, plus the new category after the largest category sortOrder.
    let after = try DittoStoreFile.content(at: copies.store)
    let largestCategoryOrder = before.categories.map(\.sortOrder).max() ?? -1
    var expected = shown(before)
    if let driving = before.categories.firstIndex(where: { $0.title == "Driving" }) {
      expected[driving].1.append(("Running late", 4))
      let largest = before.categories[driving].dittos.map(\.sortOrder).max() ?? -1
      #expect(after.categories[driving].dittos.last?.sortOrder == largest + 1)
      #expect(
        after.categories[driving].dittos.dropLast().elementsEqual(before.categories[driving].dittos)
      )
    } else {
      expected.append(("Driving", [("What's the address?", 0), ("Running late", 4)]))
    }
    expected.append(("From 2.x", [("one", 2), ("two", 0)]))
    #expect(
      same(
        shown(after),
        expected.map { (title: $0.0, dittos: $0.1.map { (text: $0.0, useCount: $0.1) }) }))
    #expect(after.categories.last?.sortOrder == largestCategoryOrder + (name == "empty" ? 2 : 1))
    #expect(after.categories.last?.dittos.map(\.sortOrder) == [0, 1])
    #expect(
      Array(after.categories.prefix(before.categories.count)).map(\.id)
        == before.categories.map(\.id))

    // History: one transaction by us, one insert change per inserted row.
    let transaction = try #require(receipt.historyTransactionID)
    #expect(transaction == (oldMax["TRANSACTION"] ?? 0) + 1)
    #expect(newMax["TRANSACTION"] == transaction)
    let afterSummary = try DittoStoreFile.summary(at: copies.store)
    #expect(afterSummary.historyTransactions == beforeSummary.historyTransactions + 1)
    let insertedRows =
      receipt.categoryIDs.count + receipt.dittoIDs.count + (plan.createsProfile ? 1 : 0)
    #expect(afterSummary.historyChanges == beforeSummary.historyChanges + insertedRows)
    // Now, or just after the store's latest transaction when that is later (history in order).
    let latestBefore = try rows(originalDB, "SELECT max(ZTIMESTAMP) FROM ATRANSACTION").first?
      .first.flatMap { Double($0.dropFirst(2)) }
    let stamp = max(pinnedNow, (latestBefore ?? 0) + 0.001)
    #expect(
      try rows(
        database,
        "SELECT s.ZNAME, t.Z_ENT, typeof(t.ZTIMESTAMP), t.ZTIMESTAMP FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS WHERE t.Z_PK = \(transaction)"
      ) == [["t:ditto-recover", "i:16002", "t:real", "r:\(stamp)"]])
    var expectedChanges = Set<[String]>()
    if let profile = receipt.createdProfileID { expectedChanges.insert(["i:3", "i:\(profile)"]) }
    for key in receipt.categoryIDs { expectedChanges.insert(["i:1", "i:\(key)"]) }
    for key in receipt.dittoIDs { expectedChanges.insert(["i:2", "i:\(key)"]) }
    let changes = try rows(
      database,
      "SELECT ZENTITY, ZENTITYPK FROM ACHANGE WHERE ZTRANSACTIONID = \(transaction)")
    #expect(changes.count == insertedRows)
    #expect(Set(changes) == expectedChanges)
    var nullColumns = ["ZCOLUMNS", "Z_OPT"]
    nullColumns += try rows(
      database, "SELECT name FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'"
    ).map { String($0[0].dropFirst(2)) }
    #expect(nullColumns.count == (name == "cloudkit-gaps" ? 6 : 2))
    let notNull = nullColumns.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
    #expect(
      try scalar(
        database,
        "SELECT count(*) FROM ACHANGE WHERE ZTRANSACTIONID = \(transaction) AND (Z_ENT <> 16001 OR ZCHANGETYPE <> 0 OR \(notNull))"
      ) == 0)
    #expect(try scalar(database, "SELECT max(Z_PK) FROM ACHANGE") == newMax["CHANGE"])
    #expect(
      try rows(
        database, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 AND Z_ENT < 17000")
        == [
          ["i:16001", "t:CHANGE"], ["i:16002", "t:TRANSACTION"],
          ["i:16003", "t:TRANSACTIONSTRING"],
        ])
  }

  @Test func cloudKitGapsTakesKeysAboveZMaxNotAboveTheLargestKey() throws {
    let copies = try Copies("cloudkit-gaps")
    let destination = DittoStoreDestination(path: copies.store)
    _ = try destination.merge(Self.sources)
    let receipt = try #require(destination.lastReceipt())
    // Z_MAX 31 / 42 while the largest Z_PK is 6 / 17.
    #expect(receipt.categoryIDs == [32])
    #expect(Array(receipt.dittoIDs) == [43, 44, 45])
    #expect(receipt.createdProfileID == nil)
    #expect(receipt.facts.hasCloudKitTables)
  }

  @Test func theEmptyStoreGetsExactlyOneProfile() throws {
    let copies = try Copies("empty")
    let destination = DittoStoreDestination(path: copies.store)
    let plan = try destination.applyImport { (session) throws(ImportFailure) in
      #expect(!session.outline.hasProfile)
      return try LibraryMerger.merge(Self.sources, into: session)
    }
    #expect(plan.createsProfile)
    let again = try destination.applyImport { (session) throws(ImportFailure) in
      #expect(session.outline.hasProfile)
      return try LibraryMerger.merge(
        [
          MergeSource(
            kind: "v1",
            categories: [MergeCategory(title: "General", dittos: [MergeDitto(text: "x")])])
        ],
        into: session)
    }
    #expect(!again.createsProfile)
    let database = try openStore(copies.store)
    #expect(
      try rows(database, "SELECT Z_PK, Z_ENT, Z_OPT FROM ZPROFILE") == [["i:1", "i:3", "i:1"]])
    #expect(try scalar(database, "SELECT count(DISTINCT ZPROFILE) FROM ZDITTOCATEGORY") == 1)
    #expect(try scalar(database, "SELECT count(*) FROM ATRANSACTION") == 2)
  }

  @Test(arguments: Fixtures.names)
  func anEmptyPlanWritesNothing(name: String) throws {
    let copies = try Copies(name)
    let before = try FileHashes(of: copies.target.path)
    let destination = DittoStoreDestination(path: copies.store)
    var calls = 0
    let plan = try destination.applyImport { (session) throws(ImportFailure) in
      calls += 1
      return try LibraryMerger.merge([], into: session)
    }
    #expect(calls == 1)
    #expect(plan.isEmpty && !plan.createsProfile)
    #expect(destination.lastReceipt() == nil)
    let after = try FileHashes(of: copies.target.path)
    #expect(after == before, "\(after.changes(since: before))")
  }

  @Test func anEmptyPlanOnACheckpointedStoreLeavesNoSidecarsBehind() throws {
    let folder = try TemporaryDirectory("import-nosidecars")
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(.presets, to: store)
    #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
    let before = try FileHashes(of: folder.path)
    let plan = try DittoStoreDestination(path: store).merge([])
    #expect(plan.isEmpty)
    let after = try FileHashes(of: folder.path)
    #expect(after == before, "\(after)")
  }

  @Test func aRepeatedImportInsertsNothingTwice() throws {
    let copies = try Copies("presets")
    let destination = DittoStoreDestination(path: copies.store)
    let first = try destination.merge(Self.sources)
    #expect(first.counts.inserted == 3)
    let summary = try DittoStoreFile.summary(at: copies.store)
    let second = try destination.merge(Self.sources)
    #expect(second.isEmpty)
    #expect(second.counts.skipped == 4)
    #expect(try DittoStoreFile.summary(at: copies.store) == summary)
  }

  @Test func twoDestinationsAtOnceInsertNothingTwice() throws {
    let copies = try Copies("presets")
    let before = try DittoStoreFile.content(at: copies.store).dittoCount
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let destination = DittoStoreDestination(path: copies.store, busyTimeoutMilliseconds: 30_000)
      do {
        let plan = try destination.merge(Self.sources)
        results.add(plan.counts.inserted)
      } catch {
        results.add(-1)
      }
    }
    #expect(results.values.sorted() == [0, 0, 0, 3])
    let after = try DittoStoreFile.content(at: copies.store)
    #expect(after.dittoCount == before + 3)
    #expect(after.categories.filter { $0.title == "From 2.x" }.count == 1)
    #expect(try DittoStoreFile.summary(at: copies.store).historyTransactions == 3)
  }

  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func add(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
  }
}
