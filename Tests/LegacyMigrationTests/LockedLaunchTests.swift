import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import PropertyLists
import StoreFixtures
import Testing

/// A launch before the first unlock writes nothing, whatever the source: the app says protected
/// data is not available, or the defaults answer nothing while their file on disk says otherwise.
@Suite struct LockedLaunchTests {
  static var version1List: [String: PropertyListValue] {
    ["dittos": ["On my way", "Running late", "Thanks!"]]
  }
  static var keyboardQueue: [String: PropertyListValue] {
    [
      "pendingCategories": ["Work"], "pendingDittos": ["Work": ["Queued in the keyboard"]],
    ]
  }

  func migrator(
    _ harness: MigrationHarness, defaults: DeviceDefaults, destination: InMemoryDestination
  ) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: harness.layout, destination: destination, defaults: defaults,
      logger: harness.log.logger)
  }

  @Test func aLaunchTheAppSaysIsLockedReadsAndWritesNothing() throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 7))
    try harness.builder.writeDefaults(Self.version1List)
    try harness.recordFiles()
    let defaults = DeviceDefaults(unlocked: false, stored: Self.version1List)
    let library = InMemoryDestination()
    let launch = migrator(harness, defaults: defaults, destination: library)
      .migrateIfNeededBlocking(protectedDataAvailable: false)
    let report = try #require(launch.report)
    #expect(report.outcome == .foundUnreadable)
    #expect(report.transientReason == .locked)
    #expect(report.isTransient && !report.settled && !launch.isSettled)
    #expect(report.detail?.problem == .deviceLocked)
    #expect(defaults.calls.isEmpty, "the flag store was asked: \(defaults.calls)")
    #expect(library.applied == 0)
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=locked"
      ])
    try harness.assertPreserved()
  }

  enum OnDisk: String, CaseIterable {
    case version1List, keyboardQueue
  }

  @Test(arguments: OnDisk.allCases)
  func defaultsOnlyDataBeforeTheFirstUnlockIsNotNowAndTheNextLaunchImportsIt(onDisk: OnDisk)
    throws
  {
    let harness = try MigrationHarness(library: nil)
    let stored = onDisk == .version1List ? Self.version1List : Self.keyboardQueue
    // The preferences file holds the legacy keys; the domain answers defaults (the app skipped the
    // guard, or protected data came and went).
    try harness.builder.writeDefaults(stored)
    try harness.recordFiles()
    let defaults = DeviceDefaults(unlocked: false, stored: stored)
    let library = InMemoryDestination()
    let locked = try #require(
      migrator(harness, defaults: defaults, destination: library)
        .migrateIfNeededBlocking(protectedDataAvailable: true).report)
    #expect(locked.outcome == .foundUnreadable)
    #expect(locked.transientReason == .locked)
    #expect(defaults.writes.isEmpty, "the flag store was written while locked")
    #expect(library.applied == 0)
    #expect(locked.telemetryLine.hasSuffix(" reason=locked"))
    #expect(migrator(harness, defaults: defaults, destination: library).hasRecoverableLegacyData())
    // Unlocked: the next launch imports them and settles.
    defaults.unlock()
    let next = try #require(
      migrator(harness, defaults: defaults, destination: library)
        .migrateIfNeededBlocking(protectedDataAvailable: true).report)
    #expect(next.outcome == .success)
    #expect(next.settled && next.flagSet)
    let texts = library.contents.flatMap(\.1)
    #expect(
      texts
        == (onDisk == .version1List
          ? ["On my way", "Running late", "Thanks!"] : ["Queued in the keyboard"]))
    try harness.assertPreserved()
  }

  // A preferences file that cannot be opened (protected): PermissionTests runs that case as a
  // user who may not read it (root reads anything).

  @Test func aPreferencesFileWithoutLegacyKeysAgreesWithTheDomain() throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeDefaults(["someOtherKey": 1])
    let defaults = DeviceDefaults(unlocked: false, stored: [:])
    let report = try #require(
      migrator(harness, defaults: defaults, destination: InMemoryDestination())
        .migrateIfNeededBlocking().report)
    #expect(report.outcome == .nothingOnDisk)
    #expect(report.settled)
  }
}
