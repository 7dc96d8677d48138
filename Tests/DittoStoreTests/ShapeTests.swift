import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles
import StoreFixtures
import Testing

/// Stores shaped unlike the fixtures: several profiles, odd sort orders, integer dates, other column
/// orders, no history, decomposed text.
@Suite struct ShapeTests {
  typealias Category = SwiftDataStoreSpec.Category
  typealias Ditto = SwiftDataStoreSpec.Ditto

  func write(_ spec: SwiftDataStoreSpec, _ folder: TemporaryDirectory) throws -> String {
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(spec, to: store, journal: .walOnly)
    return store
  }

  @Test func theFirstProfileWins() throws {
    let folder = try TemporaryDirectory("shape-profiles")
    let store = try write(
      SwiftDataStoreSpec(
        profiles: 2,
        categories: [
          Category(title: "Work", profile: 2, dittos: [Ditto("hidden")]),
          Category(title: "Home", profile: 1, dittos: [Ditto("shown")]),
          Category(title: "Loose", profile: nil, dittos: [Ditto("loose")]),
        ]), folder)
    let content = try DittoStoreFile.content(at: store)
    #expect(content.profileID == 1 && content.profileCount == 2)
    #expect(shown(content).map(\.0) == ["Home"])
    let summary = try DittoStoreFile.summary(at: store)
    #expect(summary.categories == 1 && summary.dittos == 1 && summary.profiles == 2)

    let destination = DittoStoreDestination(path: store)
    let plan = try destination.merge(
      [
        MergeSource(
          kind: "v1",
          categories: [MergeCategory(title: "Work", dittos: [MergeDitto(text: "hidden")])])
      ])
    // Profile 2's "Work" is not what the app shows: a new "Work" goes to profile 1.
    #expect(plan.counts.insertedCategories == 1 && !plan.createsProfile)
    let database = try openStore(store)
    let id = try #require(destination.lastReceipt()?.categoryIDs.first)
    #expect(try scalar(database, "SELECT ZPROFILE FROM ZDITTOCATEGORY WHERE Z_PK = \(id)") == 1)
    #expect(try scalar(database, "SELECT count(*) FROM ZPROFILE") == 2)
  }

  @Test func sortOrderGapsAndOrderUnlikeZPK() throws {
    let folder = try TemporaryDirectory("shape-order")
    let store = try write(
      SwiftDataStoreSpec(
        profiles: 1,
        categories: [
          Category(
            title: "C", sortOrder: 9,
            dittos: [Ditto("c2", sortOrder: 40), Ditto("c1", sortOrder: -3)]),
          Category(
            title: "A", sortOrder: 2,
            dittos: [
              Ditto("a3", sortOrder: 7), Ditto("a1", sortOrder: 7), Ditto("a0", sortOrder: nil),
            ]),
          Category(title: "B", sortOrder: 5),
          Category(title: "A2", sortOrder: 2, dittos: [Ditto(nil, useCount: nil, sortOrder: 1)]),
        ]), folder)
    let content = try DittoStoreFile.content(at: store)
    // By ZSORTORDER, then Z_PK.
    #expect(content.categories.map(\.title) == ["A", "A2", "B", "C"])
    #expect(content.categories[0].dittos.map(\.text) == ["a0", "a3", "a1"])
    #expect(content.categories[3].dittos.map(\.text) == ["c1", "c2"])
    // NULL text and use count read as the model's defaults.
    #expect(content.categories[1].dittos.map(\.text) == [""])
    #expect(content.categories[1].dittos.map(\.useCount) == [0])

    let destination = DittoStoreDestination(path: store)
    let plan = try destination.merge(
      [
        MergeSource(
          kind: "coredata",
          categories: [
            MergeCategory(title: "C", dittos: [MergeDitto(text: "c3")]),
            MergeCategory(title: "D", dittos: [MergeDitto(text: "d1")]),
          ])
      ])
    #expect(plan.counts.inserted == 2 && plan.counts.insertedCategories == 1)
    let after = try DittoStoreFile.content(at: store)
    #expect(after.categories.map(\.title) == ["A", "A2", "B", "C", "D"])
    #expect(after.categories[3].dittos.map(\.text) == ["c1", "c2", "c3"])
    // Appended after the largest sortOrder of its category (40), and of the categories (9).
    #expect(after.categories[3].dittos.last?.sortOrder == 41)
    #expect(after.categories[4].sortOrder == 10)
    #expect(after.categories[4].dittos.map(\.sortOrder) == [0])
  }

  @Test func integerDatesAndUseCountBeforeSortOrder() throws {
    let folder = try TemporaryDirectory("shape-columns")
    var spec = SwiftDataStoreSpec(
      profiles: 1,
      categories: [Category(title: "Work", dittos: [Ditto("a", useCount: 7, sortOrder: 3)])])
    spec.integerDates = true
    spec.useCountBeforeSortOrder = true
    let store = try write(spec, folder)
    let content = try DittoStoreFile.content(at: store)
    let item = try #require(content.categories.first?.dittos.first)
    #expect(item.useCount == 7 && item.sortOrder == 3)
    let date = try #require(item.modifiedAt)
    #expect(date == date.rounded() && date > 800_000_000)

    _ = try DittoStoreDestination(path: store, now: { pinnedNow }).merge(
      [
        MergeSource(
          kind: "v1",
          categories: [MergeCategory(title: "Work", dittos: [MergeDitto(text: "b", useCount: 5)])]
        )
      ])
    // Written by column name: the use count lands in ZUSECOUNT whatever the declaration order.
    let database = try openStore(store)
    #expect(
      try rows(
        database, "SELECT ZUSECOUNT, ZSORTORDER, ZMODIFIEDAT FROM ZDITTOITEM WHERE ZTEXT = 'b'")
        == [["i:5", "i:4", "r:\(pinnedNow)"]])
  }

  @Test func withoutHistoryTablesNoHistoryIsWritten() throws {
    let folder = try TemporaryDirectory("shape-nohistory")
    var spec = SwiftDataStoreSpec.presets
    spec.hasHistoryTables = false
    let store = try write(spec, folder)
    let destination = DittoStoreDestination(path: store)
    let plan = try destination.merge(
      [
        MergeSource(
          kind: "v1",
          categories: [MergeCategory(title: "General", dittos: [MergeDitto(text: "x")])])
      ])
    #expect(plan.counts.inserted == 1)
    #expect(destination.lastReceipt()?.facts.keepsHistory == false)
    #expect(destination.lastReceipt()?.historyTransactionID == nil)
    let database = try openStore(store)
    #expect(try scalar(database, "SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == 0)
    #expect(try scalar(database, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'A%'") == 0)
    #expect(!(try DittoStoreFile.summary(at: store).history))
  }

  @Test func decomposedTitlesAndTextsMergeWithPrecomposedOnes() throws {
    let folder = try TemporaryDirectory("shape-nfd")
    let decomposedTitle = "Cafe\u{301}"
    let decomposedText = "cafe\u{301} cre\u{300}me"
    let store = try write(
      SwiftDataStoreSpec(
        profiles: 1, categories: [Category(title: decomposedTitle, dittos: [Ditto(decomposedText)])]
      ),
      folder)
    let destination = DittoStoreDestination(path: store)
    let plan = try destination.merge(
      [
        MergeSource(
          kind: "coredata",
          categories: [
            MergeCategory(
              title: "Caf\u{E9}",
              dittos: [MergeDitto(text: "caf\u{E9} cr\u{E8}me"), MergeDitto(text: "th\u{E9}")])
          ])
      ])
    #expect(plan.counts.insertedCategories == 0)
    #expect(plan.counts.skipped == 1 && plan.counts.inserted == 1)
    let content = try DittoStoreFile.content(at: store)
    #expect(content.categories.count == 1)
    // The stored title keeps its own bytes; the new ditto went into that category.
    #expect(
      content.categories[0].title.unicodeScalars.elementsEqual(decomposedTitle.unicodeScalars))
    #expect(content.categories[0].dittos.map(\.text) == [decomposedText, "th\u{E9}"])
  }

  @Test func zMaxBelowTheLargestKeyNeverReusesAKey() throws {
    let folder = try TemporaryDirectory("shape-lowmax")
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(.presets, to: store)
    let database = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWrite)
    try database.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'DittoItem'")
    try database.close()
    let destination = DittoStoreDestination(path: store)
    _ = try destination.merge(
      [
        MergeSource(
          kind: "v1",
          categories: [MergeCategory(title: "Driving", dittos: [MergeDitto(text: "new")])])
      ])
    #expect(destination.lastReceipt().map { Array($0.dittoIDs) } == [14])
    #expect(try zMax(try openStore(store))["DittoItem"] == 14)
  }

  @Test func aHotWALFromACrashIsReadWithoutTouchingTheOriginal() throws {
    // A writer killed mid-life leaves -wal and -shm beside a main file that lacks its rows.
    let folder = try TemporaryDirectory("shape-hotwal")
    let store = try write(.presets, folder)
    try FileManager.default.removeItem(atPath: store + "-shm")
    let before = try FileHashes(of: folder.path)
    let content = try DittoStoreFile.content(at: store)
    #expect(content.dittoCount == 13)
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func aMirroringAuthorIsNeverRecorded() throws {
    let folder = try TemporaryDirectory("shape-author")
    let store = try write(.presets, folder)
    let destination = DittoStoreDestination(
      path: store, author: "NSCloudKitMirroringDelegate.import")
    #expect(destination.author == DittoStoreDestination.defaultAuthor)
    _ = try destination.merge(
      [
        MergeSource(
          kind: "v1",
          categories: [MergeCategory(title: "General", dittos: [MergeDitto(text: "x")])])
      ])
    let transaction = try #require(destination.lastReceipt()?.historyTransactionID)
    #expect(
      try rows(
        try openStore(store),
        "SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS WHERE t.Z_PK = \(transaction)"
      ) == [["t:ditto-recover"]])
    // The app's own strings are kept; ours are added once each, above TRANSACTIONSTRING's Z_MAX:
    // the author and process name "ditto-recover" (one string), the bundle id.
    #expect(try DittoStoreFile.summary(at: store).zMax["TRANSACTIONSTRING"] == 4)
  }

  @Test func theSummaryEncodesWithTheStatusKeys() throws {
    let folder = try TemporaryDirectory("shape-json")
    let store = try Fixtures.copy("cloudkit-gaps", into: folder)
    let data = try JSONEncoder().encode(try DittoStoreFile.summary(at: store))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for key in [
      "path", "exists", "categories", "dittos", "history", "cloudKit", "profiles", "zMax",
    ] {
      #expect(object[key] != nil, "\(key)")
    }
    #expect(object["cloudKit"] as? Bool == true)
    #expect(object["dittos"] as? Int == 17)
  }
}
