import BackupReader
import EngineTestSupport
import Foundation
import LegacyMigration
import StoreFixtures
import Telemetry
import Testing

/// "Could not read" never becomes "nothing there", in the sources that are not the Core Data store.
@Suite struct CouldNotReadIsNotEmptyTests {
  /// App Group defaults whose legacy keys are all present with types we cannot use.
  func harnessWithUnusableDefaults() throws -> MigrationHarness {
    let harness = try MigrationHarness("unusable-defaults")
    try harness.builder.writeDefaults(["dittos": 42, "pendingDittos": "not a dictionary"])
    return harness
  }

  @Test func defaultsWithOnlyUnusableLegacyKeysAreUnreadableNotEmpty() throws {
    let harness = try harnessWithUnusableDefaults()
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(throws: DefaultsError.self) { _ = try migrator.defaultsLegacyContent() }

    let report = migrator.recoverNowBlocking()
    #expect(report.outcome == MigrationOutcome.foundUnreadable)
    #expect(report.defaultsError != nil)
    #expect(report.sources.map(\.kind) == [LegacySourceReport.Kind.defaults])
    #expect(report.sources.first?.error?.contains("dittos") == true)
    #expect(report.telemetryLine.contains("outcome=found_unreadable"))
    try harness.assertPreserved()
  }

  @Test func aGarbageDefaultsFileIsASourceWithAnError() throws {
    let harness = try MigrationHarness("garbage-defaults")
    try harness.builder.writeBytes(
      Array("bplist00 garbage".utf8), at: "Library/Preferences/group.io.kern.ditto.plist")
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.outcome == MigrationOutcome.foundUnreadable)
    #expect(report.sources.map(\.kind) == [LegacySourceReport.Kind.defaults])
  }

  /// A backup manifest whose store record lost its size still lists a store.
  @Test func aStoreOfUnknownSizeIsStillAStore() {
    func store(_ path: String, size: Int64?) -> ManifestEntry {
      ManifestEntry(
        fileID: String(repeating: "a", count: 40), domain: DittoDomain.appGroupDomain,
        dittoDomain: .appGroup, relativePath: path, flags: 1,
        record: size.map { MBFileRecord(size: $0, mode: 0o100644) })
    }
    var listing = ManifestListing()
    listing.entries = [store("Ditto.sqlite", size: nil)]
    #expect(listing.hasDittoStore)
    #expect(listing.largestStore?.relativePath == "Ditto.sqlite")
    listing.entries.append(store("Library/Application Support/Ditto.sqlite", size: 578_000))
    #expect(listing.largestStore?.relativePath == "Library/Application Support/Ditto.sqlite")
    listing.entries = [store("Ditto.sqlite", size: 0)]
    #expect(!listing.hasDittoStore)
  }
}
