import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import Testing

/// The App Group defaults as a legacy source: 1.x lists, 1.x/early-2.x pairs, keyboard additions.
@Suite struct DefaultsSourceTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  func install(_ fixture: String, in harness: MigrationHarness) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + fixture))
    try harness.builder.writeBytes(
      Array(bytes), at: "Library/Preferences/group.io.kern.ditto.plist")
  }

  @Test func pythonWrittenBinaryListBecomesGeneral() throws {
    let harness = try MigrationHarness()
    try install("v1-list.binary.plist", in: harness)
    let migrator = harness.makeMigrator()
    #expect(migrator.hasRecoverableLegacyData())
    let report = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    #expect(
      same(
        try harness.libraryContents(),
        [("General", ["Hello from 1.x", "Second, with \"quotes\"", "Line\nbreak 🚗"])]))
    #expect(report.sources.map(\.kind) == [.v1])
    // The flag was added and every other key kept, with its type.
    let values = try #require(try AppGroupDefaults(path: harness.layout.defaultsPath).load())
    #expect(values["someAppKey"] == 42)
    #expect(values["lastOpened"]?.date != nil)
    #expect(values["dittos"]?.array?.count == 4)
    #expect(values[AppGroupDefaults.completionKey] == true)
  }

  @Test func storeThenPendingThenVersion1() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      LegacyStoreSpec(categories: [
        .init(title: "Work", dittos: [.init(text: "w1"), .init(text: "s1")])
      ]))
    try install("pending.binary.plist", in: harness)
    try harness.recordFiles()
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.outcome == .success)
    #expect(
      same(
        try harness.libraryContents(),
        [("Work", ["w1", "s1", "added in keyboard"]), ("Keyboard new", ["k1", "k2"])]))
    #expect(report.sources.map(\.kind) == [.coreData, .pending])
    #expect(report.sources.map(\.dittos) == [2, 3])
    #expect(report.counts.dittosRead == 5)
    try harness.assertPreserved()
  }

  @Test func xmlPairKeepsTitleOrderAndAddsUnlistedTitles() throws {
    let harness = try MigrationHarness()
    try install("v1-pair.xml.plist", in: harness)
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.outcome == .success)
    #expect(
      same(
        try harness.libraryContents(),
        [("Work", ["w1", "w2"]), ("Family ❤️", ["f1"]), ("Orphan title", ["o1"])]))
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func foundationWrittenPlistsInBothFormats(format: PropertyListSerialization.PropertyListFormat)
    throws
  {
    let harness = try MigrationHarness()
    // Written by Foundation (as a device's preferences daemon would), read by our own reader.
    let values: [String: Any] = [
      "pendingCategories": ["New"], "pendingDittos": ["New": ["n1", ""]], "dittos": ["old"],
    ]
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: format, options: 0)
    try harness.builder.writeBytes(
      Array(data), at: "Library/Preferences/group.io.kern.ditto.plist")
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(same(try harness.libraryContents(), [("New", ["n1"]), ("General", ["old"])]))
    #expect(report.sources.map(\.kind) == [.pending, .v1])
    // The file keeps its format when the automatic path writes the flag.
    _ = harness.makeMigrator().migrateIfNeededBlocking()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: harness.layout.defaultsPath))
    #expect(bytes.starts(with: Array("bplist".utf8)) == (format == .binary))
  }

  @Test func aMalformedPlistIsUnreadableForItselfOnly() throws {
    let harness = try MigrationHarness()
    try install("malformed.plist", in: harness)
    try harness.recordFiles()
    let alone = harness.makeMigrator().recoverNowBlocking()
    #expect(alone.outcome == .foundUnreadable)
    #expect(alone.defaultsError != nil)
    #expect(harness.makeMigrator().hasRecoverableLegacyData())
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 3, seed: 2))
    let withStore = harness.makeMigrator().recoverNowBlocking()
    #expect(withStore.outcome == .success)
    #expect(withStore.counts.inserted == 3)
    #expect(withStore.defaultsError != nil)
    let after = try FileHashes(of: harness.folder.path)
    let key = "/Library/Preferences/group.io.kern.ditto.plist"
    #expect(after.entries[key] == harness.recorded?.entries[key])
  }

  /// A set in a binary plist crashed Foundation on Linux (found by Fuzz/Sources/fuzz-defaults-plist):
  /// now the file is unreadable, never overwritten, and the process lives.
  @Test func aBinaryPlistHoldingASetIsUnreadableNotFatal() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeBytes(
      HostilePropertyLists.dictionaryWithSet, at: "Library/Preferences/group.io.kern.ditto.plist")
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(throws: DefaultsError.self) {
      try AppGroupDefaults(path: harness.layout.defaultsPath).load()
    }
    #expect(throws: DefaultsError.self) {
      try AppGroupDefaults(path: harness.layout.defaultsPath).update([
        AppGroupDefaults.completionKey: true
      ])
    }
    let result = migrator.recoverNowBlocking()
    #expect(result.outcome == .foundUnreadable)
    let after = try FileHashes(of: harness.folder.path)
    let key = "/Library/Preferences/group.io.kern.ditto.plist"
    #expect(after.entries[key] == harness.recorded?.entries[key])
  }

  @Test func wrongTypesAreSkippedNeverACrash() throws {
    let content = DefaultsLegacyContent(values: [
      "dittos": ["ok", 3, ["nested"]], "pendingCategories": "not a list",
      "pendingDittos": ["A": 5, "B": ["b"]],
    ])
    #expect(content.version1.map(\.title) == ["General"])
    #expect(content.version1.first?.dittos.map(\.text) == ["ok"])
    #expect(content.pending.map(\.title) == ["B"])
    #expect(Set(content.problems) == ["dittos", "pendingCategories", "pendingDittos"])
  }

}
