import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import Testing

/// The seed's test plan, item by item, on temporary containers.
@Suite struct SeedTestPlanTests {
  let spec = FixtureContent.make(categories: 4, dittosPerCategory: 7, seed: 11)

  @Test func direct201To302ImportsEverythingInOrder() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    #expect(report.counts.inserted == 28)
    #expect(report.counts.insertedCategories == 4)
    #expect(report.flagSet)
    #expect(same(try harness.libraryContents(), texts(of: spec)))
    let library = try DittoStoreFile.content(at: harness.layout.defaultLibraryPath)
    #expect(
      library.categories.flatMap { $0.dittos.map(\.useCount) }
        == spec.categories.flatMap { $0.dittos.map { $0.useCount ?? 0 } })
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=success categories=4 dittos=28 inserted=28"
      ])
    try harness.assertPreserved()
  }

  @Test func stale301FlagStillMigrates() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    try harness.builder.writeDefaults([
      "legacyUserDefaultsMigrationComplete": true, "legacyCoreDataMigrationComplete": true,
      "someOtherKey": "kept",
    ])
    try harness.recordFiles()
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    let defaults = try #require(try AppGroupDefaults(path: harness.layout.defaultsPath).load())
    #expect(defaults["someOtherKey"] == "kept")
    #expect(defaults["legacyUserDefaultsMigrationComplete"] == true)
    #expect(defaults[AppGroupDefaults.completionKey] == true)
    #expect(FileManager.default.fileExists(atPath: harness.builder.path("Ditto.sqlite")))
  }

  @Test func the578KBUserGetsTheLargerStore() throws {
    let harness = try MigrationHarness()
    let small = FixtureContent.make(categories: 1, dittosPerCategory: 1, seed: 2)
    try harness.builder.writeStore(small, at: "Ditto.sqlite")
    let big = FixtureContent.make(categories: 6, dittosPerCategory: 60, seed: 3)
    try harness.builder.writeStore(big, at: "Library/Application Support/Ditto.sqlite")
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(
      migrator.chosenLegacyStore()?.relativePath == "Library/Application Support/Ditto.sqlite")
    let report = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(report.store?.relativePath == "Library/Application Support/Ditto.sqlite")
    #expect(report.counts.inserted == 360)
    #expect(
      harness.log.lines().contains {
        $0.hasPrefix(
          "legacyStoreURL: matched <appgroup>/Library/Application Support/Ditto.sqlite ("
        )
      })
    try harness.assertPreserved()
  }

  @Test(arguments: ["zero-byte", "garbage"])
  func presentButUnreadable(kind: String) throws {
    let harness = try MigrationHarness()
    if kind == "zero-byte" {
      try harness.builder.writeBytes([], at: "Ditto.sqlite")
    } else {
      try harness.builder.writeGarbage(count: 10_000, seed: 9, at: "Ditto.sqlite")
    }
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(migrator.hasRecoverableLegacyData())
    let report = migrator.recoverNowBlocking()
    #expect(report.outcome == .foundUnreadable)
    guard case .foundButUnreadable(let detail) = report.recoveryResult else {
      Issue.record("expected foundButUnreadable, got \(report.recoveryResult)")
      return
    }
    // For a person: the file's name, never its path; the technical error is kept apart.
    #expect(detail.contains("“Ditto.sqlite”"))
    #expect(!detail.contains(harness.folder.path))
    #expect(report.detail?.key == "recovery.detail.notADatabase")
    #expect(report.technicalDetail?.contains(harness.builder.path("Ditto.sqlite")) == true)
    #expect(report.technicalDetail?.contains("not an SQLite database") == true)
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=manual outcome=found_unreadable categories=0 dittos=0 inserted=0"
      ])
    try harness.assertPreserved()
  }

  @Test func inventoryLinesAtInfoLevel() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec, journal: .walOnly)
    _ = harness.makeMigrator().chosenLegacyStore()
    let inventory = harness.log.records.filter {
      $0.message.rendered().hasPrefix("inventory[appgroup] ")
    }
    #expect(
      inventory.allSatisfy {
        $0.level == .info && $0.subsystem == "io.kern.ditto" && $0.category == "LegacyDataMigrator"
      })
    let lines = inventory.map { $0.message.rendered() }
    let wal =
      try FileManager.default.attributesOfItem(atPath: harness.builder.path("Ditto.sqlite-wal"))[
        .size] as? NSNumber
    #expect(lines.contains("inventory[appgroup] 4096B /Ditto.sqlite"))
    #expect(lines.contains("inventory[appgroup] \(wal?.intValue ?? -1)B /Ditto.sqlite-wal"))
    #expect(lines.contains("inventory[appgroup] 32768B /Ditto.sqlite-shm"))
  }

  @Test func idempotentSecondLaunch() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(migrator.migrateIfNeededBlocking().report?.outcome == .success)
    guard case .alreadyComplete = migrator.migrateIfNeededBlocking() else {
      Issue.record("the flag did not short-circuit")
      return
    }
    #expect(harness.log.outcomeLines.count == 1)
    #expect(
      try DittoStoreFile.content(at: harness.layout.defaultLibraryPath).dittoCount == 28
    )
    try harness.assertPreserved()
  }

  @Test func manualRecoveryAfterTheFlagInsertsOnlyNewDittos() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    let migrator = harness.makeMigrator()
    #expect(migrator.migrateIfNeededBlocking().report?.outcome == .success)
    // A fresh store appears (restored backup): some dittos old, some new.
    var fresh = spec
    fresh.categories[0].dittos.append(LegacyStoreSpec.Ditto(text: "brand new one", useCount: 5))
    fresh.categories.append(LegacyStoreSpec.Category(title: "Restored", dittos: [.init(text: "r")]))
    let store = harness.builder.path("Ditto.sqlite")
    try FileManager.default.removeItem(atPath: store)  // the test's own fixture file
    try harness.builder.writeStore(fresh)
    try harness.recordFiles()
    let report = migrator.recoverNowBlocking()
    #expect(report.outcome == .success)
    #expect(report.counts.inserted == 2)
    #expect(report.counts.skipped == 28)
    #expect(report.recoveryResult == .inserted(2))
    #expect(report.recoveryResult.message == "Recovered 2 dittos from your previous version.")
    #expect(same(try harness.libraryContents(), texts(of: fresh)))
    try harness.assertPreserved()
  }

  @Test func freshInstall() throws {
    let harness = try MigrationHarness()
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    #expect(!migrator.hasRecoverableLegacyData())
    let report = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(report.outcome == .nothingOnDisk)
    #expect(report.flagSet)
    #expect(report.recoveryResult == .nothingOnDisk)
    #expect(!harness.log.lines().contains { $0.contains(".sqlite") && $0.hasPrefix("inventory") })
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=nothing_on_disk categories=0 dittos=0 inserted=0"
      ])
    guard case .alreadyComplete = migrator.migrateIfNeededBlocking() else {
      Issue.record("fresh install must not run again")
      return
    }
  }

  /// The 3.0.0/3.0.1 paths: the library already holds the presets (and, for a Pro user, more, with
  /// CloudKit tables): everything it held stays first and unchanged, the old dittos follow, a second
  /// launch and a manual recovery insert nothing more.
  @Test(arguments: [LibraryFixtures.Name.presets, .cloudKitGaps])
  func intoALibraryThatAlreadyHoldsDittos(library: LibraryFixtures.Name) throws {
    let harness = try MigrationHarness(library: library)
    try harness.builder.writeStore(spec)
    try harness.recordFiles()
    let before = try harness.libraryContents()
    let migrator = harness.makeMigrator()
    let report = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    // What the app would show: a category with a title the library has merges into it (texts it
    // held are skipped, the rest follow its own), others follow the library's categories.
    var expected = before
    for (title, texts) in texts(of: spec) {
      if let index = expected.firstIndex(where: { $0.0 == title }) {
        let held = Set(before.first { $0.0 == title }?.1 ?? [])
        expected[index].1 += texts.filter { !held.contains($0) }
      } else {
        expected.append((title, texts))
      }
    }
    let after = try harness.libraryContents()
    #expect(same(after, expected))
    #expect(Array(after.prefix(before.count)).map(\.0) == before.map(\.0))
    let content = try DittoStoreFile.content(at: harness.layout.defaultLibraryPath)
    #expect(content.profileCount == (library == .presets ? 1 : content.profileCount))
    guard case .alreadyComplete = migrator.migrateIfNeededBlocking() else {
      Issue.record("the flag did not short-circuit")
      return
    }
    let again = migrator.recoverNowBlocking()
    #expect(again.outcome == .noNewData)
    #expect(again.recoveryResult == .inserted(0))
    #expect(try harness.libraryContents().count == after.count)
    try harness.assertPreserved()
  }
}
