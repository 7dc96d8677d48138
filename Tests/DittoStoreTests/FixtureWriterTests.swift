import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import StoreFixtures
import Testing

@Suite struct FixtureWriterTests {
  @Test func presetsAreTheAppsPresetsWithOneHistoryTransaction() throws {
    let folder = try TemporaryDirectory("fixture-presets")
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(.presets, to: store)
    let expected = try Fixtures.expected("presets")
    let content = try DittoStoreFile.content(at: store)
    #expect(same(shown(content), Array(expected.categories.prefix(4))))
    let summary = try DittoStoreFile.summary(at: store)
    #expect(summary.history && !summary.cloudKit && summary.writeRefusal == nil)
    #expect(summary.historyTransactions == 1)
    #expect(summary.historyChanges == 1 + 4 + 13)
    #expect(summary.zMax["Profile"] == 1 && summary.zMax["DittoItem"] == 13)
    let database = try openStore(store)
    #expect(try rows(database, "PRAGMA journal_mode") == [["t:wal"]])
    #expect(try rows(database, "PRAGMA page_size") == [["i:4096"]])
    #expect(try rows(database, "PRAGMA auto_vacuum") == [["i:2"]])
  }

  @Test func emptyHasNoRowsAndNoHistoryEntities() throws {
    let folder = try TemporaryDirectory("fixture-empty")
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(.empty, to: store, journal: .walOnly)
    let summary = try DittoStoreFile.summary(at: store)
    #expect(summary.profiles == 0 && summary.categories == 0 && summary.historyTransactions == 0)
    #expect(summary.zMax == ["DittoCategory": 0, "DittoItem": 0, "Profile": 0])
    #expect(summary.history)
  }

  @Test func itsSchemaIsTheReferenceFixturesSchema() throws {
    // The fixtures made outside the repository and ours have the same sqlite_master.
    let folder = try TemporaryDirectory("fixture-schema")
    let ours = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(.presets, to: ours)
    let other = try TemporaryDirectory("fixture-schema-2")
    let theirs = try Fixtures.copy("presets", into: other)
    let sql = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid"
    let ourSchema = try rows(try openStore(ours), sql)
    let theirSchema = try rows(try openStore(theirs), sql)
    #expect(ourSchema == theirSchema)
  }

  @Test func variantsAreWrittenAsAsked() throws {
    let folder = try TemporaryDirectory("fixture-variants")
    let store = folder.appending("Ditto.store")
    var spec = SwiftDataStoreSpec.presets
    spec.useCountBeforeSortOrder = true
    spec.integerDates = true
    spec.hasCloudKitTables = true
    spec.tombstoneColumns = 2
    spec.keyHeadroom = 10
    try SwiftDataStoreWriter.write(spec, to: store)
    let database = try openStore(store)
    let columns = try rows(database, "SELECT name FROM pragma_table_info('ZDITTOITEM')").map {
      $0[0]
    }
    let useCount = try #require(columns.firstIndex(of: "t:ZUSECOUNT"))
    let sortOrder = try #require(columns.firstIndex(of: "t:ZSORTORDER"))
    #expect(useCount < sortOrder)
    #expect(
      try scalar(database, "SELECT count(*) FROM ZDITTOITEM WHERE typeof(ZMODIFIEDAT) <> 'integer'")
        == 0)
    #expect(
      try rows(
        database, "SELECT name FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'"
      )
      .count == 2)
    let summary = try DittoStoreFile.summary(at: store)
    #expect(summary.cloudKit)
    #expect(summary.zMax["DittoItem"] == 23)
    #expect(summary.writeRefusal == nil)
    #expect(
      same(
        shown(try DittoStoreFile.content(at: store)),
        Array(try Fixtures.expected("presets").categories.prefix(4))))
  }
}
