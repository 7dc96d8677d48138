import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SQLiteDB
import SafeFiles
import StoreFixtures
import Testing

/// Stores SQLite cannot open: the automatic path reports them; only "Recover Old Dittos" rebuilds them.
@Suite struct SalvageIntegrationTests {
  let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 17)

  @Test func aLoneWALIsRecoverableOnlyByTheManualPath() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec, journal: .walOnly)
    // 3.0.0's cleanup deleted the store but not its -wal (the test's own fixture file).
    try FileManager.default.removeItem(atPath: harness.builder.path("Ditto.sqlite"))
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(migrator.hasRecoverableLegacyData())
    let automatic = try #require(migrator.migrateIfNeededBlocking().report)
    // The -wal is legacy data the automatic path does not rebuild: never "nothing on disk", which
    // the cohort reads as "the data is gone". A permanent failure: it counts toward the cap.
    #expect(automatic.outcome == .foundUnreadable)
    #expect(automatic.salvaged == nil)
    #expect(!automatic.isTransient)
    #expect(automatic.attempts == 1)
    #expect(!automatic.settled)
    #expect(
      harness.log.outcomeLines.last
        == "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0"
    )
    let manual = migrator.recoverNowBlocking()
    #expect(manual.outcome == .success)
    #expect(manual.salvaged == 15)
    #expect(manual.counts.inserted == 15)
    #expect(manual.recoveryResult == .salvaged(15))
    #expect(
      manual.recoveryResult.message
        == "Recovered 15 dittos from damaged data. Some dittos may be missing.")
    #expect(manual.store?.relativePath == "Ditto.sqlite-wal")
    #expect(
      harness.log.outcomeLines.last
        == "migration_outcome source=manual outcome=success categories=3 dittos=15 inserted=15 salvaged=15"
    )
    #expect(same(try harness.libraryContents(), texts(of: spec)))
    let again = migrator.recoverNowBlocking()
    #expect(again.outcome == .noNewData)
    #expect(again.recoveryResult == .inserted(0))
    try harness.assertPreserved()
  }

  @Test func aStoreWithAZeroedHeaderIsSalvagedManually() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    let path = harness.builder.path("Ditto.sqlite")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes.replaceSubrange(0..<100, with: [UInt8](repeating: 0, count: 100))
    try bytes.write(to: URL(fileURLWithPath: path))
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    let automatic = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(automatic.outcome == .foundUnreadable)
    #expect(!automatic.telemetryLine.contains("salvaged="))
    let manual = migrator.recoverNowBlocking()
    #expect(manual.outcome == .success)
    #expect(manual.salvaged == 15)
    #expect(manual.errorDescription == nil)
    #expect(same(try harness.libraryContents(), texts(of: spec)))
    try harness.assertPreserved()
  }

  @Test func garbageStaysUnreadableEvenForSalvage() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeGarbage(count: 50_000, seed: 4, at: "Ditto.sqlite")
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.outcome == .foundUnreadable)
    #expect(report.salvaged == nil)
    #expect(report.recoveryResult.detail?.contains("Ditto.sqlite") == true)
  }

}
