import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SafeFiles
import StoreFixtures
import Testing

/// The store a migration imports is the one holding the most dittos (its `-wal` applied), not the
/// largest file; whatever else holds dittos is named, and "Recover Old Dittos" imports it too.
@Suite struct DecideByContentTests {
  static func size(_ path: String) throws -> Int64 {
    let status = try FileStatus.of(path: path)
    return try #require(status).size
  }

  @Test func aStoreOnlyInItsWALBeatsALargerStaleCopy() throws {
    let harness = try MigrationHarness()
    try harness.writeWALHeavyStores()
    let root = harness.builder.path("Ditto.sqlite")
    let stale = harness.builder.path("Library/Application Support/Ditto.sqlite")
    // The old rule's trap: the stale copy's main file is the larger one.
    #expect(try Self.size(root) == 4096)
    #expect(try Self.size(stale) > Self.size(root))
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    #expect(report.store?.path == root)
    #expect(report.counts.inserted == 120)
    #expect(report.settled && report.flagSet)
    let other = try #require(report.otherStores.first)
    #expect(report.otherStores.count == 1)
    #expect(other.candidate.path == stale)
    #expect(other.dittos == 28 && other.categories == 4 && other.missing == 28)
    #expect(!other.imported)
    let wal = try Self.size(root + "-wal")
    let lines = harness.log.lines()
    #expect(
      lines.contains(
        "legacyStoreURL: matched <appgroup>/Ditto.sqlite (4096 bytes) wal=\(wal) dittos=120"))
    // The seed's lines name the store relative to its probed place: no absolute path is public.
    #expect(!lines.contains { $0.contains(root) || $0.contains(stale) })
    #expect(
      lines.contains {
        $0.hasPrefix(
          "legacyStoreURL: also found <appgroup>/Library/Application Support/Ditto.sqlite (")
          && $0.contains("dittos=28, 28 of them")
          && $0.contains("not imported")
      })
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=success categories=4 dittos=120 inserted=120"
      ])
    // "Recover Old Dittos" then brings the rest, duplicates skipped.
    let manual = harness.makeMigrator().recoverNowBlocking()
    #expect(manual.counts.inserted == 28)
    #expect(manual.counts.skipped == 120)
    #expect(manual.otherStores.first?.imported == true)
    #expect(try harness.libraryContents().reduce(0) { $0 + $1.1.count } == 148)
    try harness.assertPreserved()
  }

  @Test func aManualRecoveryImportsEveryReadableStore() throws {
    let harness = try MigrationHarness()
    try harness.writeWALHeavyStores()
    try harness.recordFiles()
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.recoveryResult == .inserted(148))
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=manual outcome=success categories=8 dittos=148 inserted=148"
      ])
    let contents = try harness.libraryContents()
    #expect(contents.map(\.0) == (1...4).map { "Work \($0)" } + (1...4).map { "Old \($0)" })
    try harness.assertPreserved()
  }

  @Test func aBloatedStaleCopyLosesToTheRealStore() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(LegacyStoreSpec.distinct("Old", categories: 1, perCategory: 5))
    try harness.builder.bloat("Ditto.sqlite", toAtLeast: 750 * 1024)
    try harness.builder.writeStore(
      LegacyStoreSpec.distinct("Work", categories: 4, perCategory: 7),
      at: "Library/Application Support/Ditto.sqlite")
    #expect(try Self.size(harness.builder.path("Ditto.sqlite")) >= 750 * 1024)
    #expect(try Self.size(harness.builder.path("Library/Application Support/Ditto.sqlite")) < 65536)
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.store?.relativePath == "Library/Application Support/Ditto.sqlite")
    #expect(report.counts.inserted == 28)
    #expect(report.otherStores.map(\.dittos) == [5])
    #expect(report.otherStores.first?.missing == 5)
    try harness.assertPreserved()
  }

  @Test func garbageAtTheRootIsNamedAndTheStoreThatReadsIsMatched() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeGarbage(count: 600_000, seed: 3, at: "Ditto.sqlite")
    try harness.builder.writeStore(
      LegacyStoreSpec.distinct("Work", categories: 4, perCategory: 7), at: "Documents/Ditto.sqlite")
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    #expect(report.counts.inserted == 28)
    let lines = harness.log.lines()
    #expect(
      lines.contains { $0.hasPrefix("legacyStoreURL: matched <appgroup>/Documents/Ditto.sqlite (") }
    )
    #expect(!lines.contains { $0.contains("matched <appgroup>/Ditto.sqlite ") })
    #expect(
      lines.contains {
        $0.hasPrefix(
          "legacyStoreURL: also found <appgroup>/Ditto.sqlite (600000 bytes)")
          && $0.contains("not imported: cannot read")
      })
    try harness.assertPreserved()
  }

  @Test func anUnreadableFileThatIsNotEmptyOutranksAStoreThatReadsEmpty() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeGarbage(count: 2_000, seed: 4, at: "Ditto.sqlite")
    try harness.builder.writeStore(LegacyStoreSpec(categories: []), at: "Documents/Ditto.sqlite")
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    // It may hold data, where the empty store holds none: never empty_store.
    #expect(report.outcome == .foundUnreadable)
    #expect(report.store?.relativePath == "Ditto.sqlite")
    #expect(report.attempts == 1)
    try harness.assertPreserved()
  }

  @Test func aZeroLengthFileGivesWayToAStoreThatReadsEmpty() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeBytes([], at: "Ditto.sqlite")
    try harness.builder.writeStore(LegacyStoreSpec(categories: []), at: "Documents/Ditto.sqlite")
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .emptyStore)
    #expect(report.store?.relativePath == "Documents/Ditto.sqlite")
  }

  @Test func tiesGoToMoreBytesThenToTheProbeOrder() throws {
    let spec = LegacyStoreSpec.distinct("Same", categories: 2, perCategory: 3)
    let equal = try MigrationHarness()
    try equal.builder.writeStore(spec, at: "Documents/Ditto.sqlite")
    try equal.builder.writeStore(spec, at: "Library/Application Support/Ditto.sqlite")
    #expect(
      equal.makeMigrator().chosenLegacyStore()?.relativePath
        == "Library/Application Support/Ditto.sqlite")
    let bigger = try MigrationHarness()
    try bigger.builder.writeStore(spec, at: "Documents/Ditto.sqlite")
    try bigger.builder.bloat("Documents/Ditto.sqlite", toAtLeast: 100_000)
    try bigger.builder.writeStore(spec, at: "Library/Application Support/Ditto.sqlite")
    let report = try #require(bigger.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.store?.relativePath == "Documents/Ditto.sqlite")
    #expect(report.otherStores.first?.missing == 0)
  }

  @Test func aLibraryErrorLineCarriesWhatWasRead() throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeStore(LegacyStoreSpec.distinct("Work", categories: 4, perCategory: 7))
    try harness.builder.writeGarbage(count: 100, seed: 1, at: "NotALibrary.store")
    let report = try #require(
      harness.makeMigrator(library: harness.builder.path("NotALibrary.store"))
        .migrateIfNeededBlocking()
        .report)
    #expect(report.outcome == .libraryError)
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=library_error categories=4 dittos=28 inserted=0"
      ])
  }
}
