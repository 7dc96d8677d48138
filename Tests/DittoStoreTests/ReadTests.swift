import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import Testing

@Suite struct ReadTests {
  @Test(arguments: Fixtures.names)
  func fixtureReadsAsExpected(name: String) throws {
    let folder = try TemporaryDirectory("read")
    let store = try Fixtures.copy(name, into: folder)
    let expected = try Fixtures.expected(name)
    let content = try DittoStoreFile.content(at: store)
    #expect(same(shown(content), expected.categories), "\(shown(content))")
    #expect(content.profileCount == expected.profiles)
    #expect((content.profileID != nil) == (expected.profiles > 0))

    let summary = try DittoStoreFile.summary(at: store)
    #expect(summary.exists)
    #expect(summary.path == store)
    #expect(summary.categories == expected.categories.count)
    #expect(summary.dittos == expected.categories.reduce(0) { $0 + $1.dittos.count })
    #expect(summary.profiles == expected.profiles)
    #expect(summary.zMax == expected.zMax)
    #expect(summary.historyTransactions == expected.historyTransactions)
    #expect(summary.history)
    #expect(summary.cloudKit == (name == "cloudkit-gaps"))
    #expect(summary.writeRefusal == nil)

    let library = try DittoStoreFile.currentLibrary(at: store)
    #expect(library.hasProfile == (expected.profiles > 0))
    #expect(library.categories.map(\.title) == expected.categories.map(\.title))
    #expect(library.categories.map(\.id.rawValue) == content.categories.map(\.id))
    #expect(
      library.categories.map(\.largestDittoSortOrder)
        == content.categories.map { $0.dittos.map(\.sortOrder).max() })
  }

  @Test(arguments: Fixtures.names)
  func aReadNeverChangesTheOriginalFiles(name: String) throws {
    let folder = try TemporaryDirectory("read-hash")
    let store = try Fixtures.copy(name, into: folder)
    let before = try FileHashes(of: folder.path)
    _ = try DittoStoreFile.content(at: store)
    _ = try DittoStoreFile.summary(at: store)
    _ = try DittoStoreDestination(path: store).outline()
    let after = try FileHashes(of: folder.path)
    #expect(after == before, "\(after.changes(since: before))")
  }

  @Test func presetsLiveOnlyInTheWALAndAreReadFromIt() throws {
    let folder = try TemporaryDirectory("wal")
    let store = try Fixtures.copy("presets", into: folder)
    // The main file is one page: without its -wal the store has no schema at all.
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    #expect(size == 4096)
    let content = try DittoStoreFile.content(at: store)
    #expect(content.dittoCount == 17)
    try FileManager.default.removeItem(atPath: store + "-wal")
    try FileManager.default.removeItem(atPath: store + "-shm")
    #expect(throws: DestinationError.self) { try DittoStoreFile.content(at: store) }
  }

  @Test func cloudKitGapsReadsDatesOfBothStorageClassesAndSortOrderGaps() throws {
    let folder = try TemporaryDirectory("gaps")
    let store = try Fixtures.copy("cloudkit-gaps", into: folder)
    let content = try DittoStoreFile.content(at: store)
    let database = try openStore(store)
    let integerDates = try #require(
      try scalar(
        database, "SELECT count(*) FROM ZDITTOCATEGORY WHERE typeof(ZMODIFIEDAT) = 'integer'"))
    #expect(integerDates > 0)
    #expect(content.categories.allSatisfy { $0.modifiedAt != nil })
    #expect(content.categories.map(\.sortOrder) == [1, 3, 6, 11, 12, 17])
    #expect(content.categories[4].dittos.map(\.sortOrder) == [1, 3, 5])
  }

  @Test func aMissingFileIsNoLibraryAndASummaryThatDoesNotExist() throws {
    let folder = try TemporaryDirectory("missing")
    let store = folder.appending("Ditto.store")
    do {
      _ = try DittoStoreFile.content(at: store)
      Issue.record("read a file that does not exist")
    } catch {
      #expect(error.kind == .noLibrary)
      #expect(error.reason.contains("no Ditto 3.x library"))
    }
    let summary = try DittoStoreFile.summary(at: store)
    #expect(!summary.exists)
    #expect(summary.categories == 0 && summary.dittos == 0)
    #expect(!FileManager.default.fileExists(atPath: store))
  }
}
