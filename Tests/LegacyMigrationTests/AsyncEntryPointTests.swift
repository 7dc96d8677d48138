import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import StoreFixtures
import Testing

/// The app's entry points: async, off the main actor, cancellable without a trace; the report says
/// whether the launch settled; the menu's check is cheap.
@Suite struct AsyncEntryPointTests {
  let spec = FixtureContent.make(categories: 3, dittosPerCategory: 4, seed: 17)

  /// Cancels the task it runs on when the import begins, then behaves as `base`.
  struct CancellingDestination: PlanApplyingDestination {
    let base: InMemoryDestination
    func holdLibrary() throws(DestinationError) -> InMemoryDestination.Hold {
      withUnsafeCurrentTask { $0?.cancel() }
      return try base.holdLibrary()
    }
  }

  /// A `Ditto.store` destination whose task is cancelled once the write transaction is open.
  struct CancellingStore: MigrationDestination {
    let base: DittoStoreDestination
    func outline() throws(DestinationError) -> LibraryOutline { try base.outline() }
    func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
      throws(ImportFailure) -> Result
    {
      try base.previewImport(body)
    }
    func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
      throws(ImportFailure) -> Result
    {
      try base.applyImport { (session) throws(ImportFailure) in
        withUnsafeCurrentTask { $0?.cancel() }
        return try body(session)
      }
    }
  }

  /// Records the threads the import was read on.
  final class ThreadRecordingDestination: PlanApplyingDestination, @unchecked Sendable {
    let base = InMemoryDestination()
    private(set) var onMainThread: [Bool] = []
    func holdLibrary() throws(DestinationError) -> InMemoryDestination.Hold {
      onMainThread.append(Thread.isMainThread)
      return try base.holdLibrary()
    }
  }

  @Test func anAttemptInACancelledTaskWritesNothingAndSaysSo() async throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeStore(spec)
    try harness.recordFiles()
    let flags = InMemoryFlagStore()
    let library = InMemoryDestination()
    let migrator = LegacyDataMigrator(
      layout: harness.layout, destination: library, flags: flags, legacyDefaults: nil,
      logger: harness.log.logger)
    let report = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await migrator.migrateIfNeeded(protectedDataAvailable: true).report
    }.value
    #expect(report?.outcome == .foundUnreadable)
    #expect(report?.transientReason == .cancelled)
    #expect(report?.settled == false)
    #expect(flags.writes == 0)
    #expect(library.applied == 0)
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=cancelled"
      ])
    try harness.assertPreserved()
  }

  @Test func cancelledWhileImportingKeepsNothingAndCarriesWhatWasRead() async throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeStore(spec)
    let flags = InMemoryFlagStore()
    let library = InMemoryDestination()
    let migrator = LegacyDataMigrator(
      layout: harness.layout, destination: CancellingDestination(base: library), flags: flags,
      legacyDefaults: nil, logger: harness.log.logger)
    let report = await Task { await migrator.recoverNow() }.value
    #expect(report.outcome == .foundUnreadable)
    #expect(report.transientReason == .cancelled)
    #expect(report.detail?.problem == .cancelled)
    // The user's own cancel has its own words, never the failure's "send a sysdiagnose".
    #expect(report.recoveryResult == .cancelled)
    #expect(report.recoveryResult.messageKey == "recovery.cancelled")
    #expect(!report.recoveryResult.message.contains("sysdiagnose"))
    #expect(report.recoveryResult.message.contains("Nothing was changed"))
    #expect(library.applied == 0)
    #expect(flags.writes == 0)
    #expect(
      harness.log.outcomeLines == [
        "migration_outcome source=manual outcome=found_unreadable categories=3 dittos=12 inserted=0 reason=cancelled"
      ])
  }

  @Test func cancelledInsideTheLibrarysTransactionRollsBack() async throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    try harness.recordFiles()
    let libraryPath = harness.layout.defaultLibraryPath
    let before = try FileHashes(of: harness.folder.path).entries.filter {
      $0.key.hasPrefix("/Ditto.store")
    }
    let flags = InMemoryFlagStore()
    let migrator = LegacyDataMigrator(
      layout: harness.layout,
      destination: CancellingStore(base: DittoStoreDestination(path: libraryPath)), flags: flags,
      legacyDefaults: nil, logger: harness.log.logger)
    let launch = await Task { await migrator.migrateIfNeeded(protectedDataAvailable: true) }.value
    #expect(launch.report?.transientReason == .cancelled)
    #expect(!launch.isSettled)
    #expect(flags.writes == 0)
    #expect(try harness.libraryContents().isEmpty)
    let after = try FileHashes(of: harness.folder.path).entries.filter {
      $0.key.hasPrefix("/Ditto.store")
    }
    #expect(after == before, "the library changed")
    try harness.assertPreserved()
  }

  @MainActor @Test func theEntryPointsRunOffTheMainThread() async throws {
    let harness = try MigrationHarness(library: nil)
    try harness.builder.writeStore(spec)
    let destination = ThreadRecordingDestination()
    let migrator = LegacyDataMigrator(
      layout: harness.layout, destination: destination, flags: InMemoryFlagStore(),
      legacyDefaults: nil, logger: harness.log.logger)
    let launch = await migrator.migrateIfNeeded(protectedDataAvailable: true)
    #expect(launch.report?.counts.inserted == 12)
    _ = await migrator.recoverNow()
    _ = await migrator.survey()
    #expect(destination.onMainThread == [false, false])
  }

  @Test func settledMeansNothingMoreArrivesAutomatically() throws {
    // Success: settled, and this attempt set the flag.
    let success = try MigrationHarness()
    try success.builder.writeStore(spec)
    let migrated = try #require(success.makeMigrator().migrateIfNeededBlocking().report)
    #expect(migrated.settled && migrated.flagSet && migrated.attempts == 0)
    #expect(success.makeMigrator().migrateIfNeededBlocking().isSettled)
    // The manual path never sets the flag; it reports what the flag is.
    let manual = success.makeMigrator().recoverNowBlocking()
    #expect(!manual.flagSet && manual.settled && manual.attempts == nil)
    // A permanently unreadable store: settled only after the third attempt.
    let garbage = try MigrationHarness()
    try garbage.builder.writeGarbage(count: 4096, seed: 2, at: "Ditto.sqlite")
    var settled: [Bool] = []
    var attempts: [Int?] = []
    for _ in 1...3 {
      let report = try #require(garbage.makeMigrator().migrateIfNeededBlocking().report)
      settled.append(report.settled)
      attempts.append(report.attempts)
    }
    #expect(settled == [false, false, true])
    #expect(attempts == [1, 2, 3])
    // Nothing on disk: settled at once.
    let fresh = try MigrationHarness()
    let nothing = try #require(fresh.makeMigrator().migrateIfNeededBlocking().report)
    #expect(nothing.outcome == .nothingOnDisk && nothing.settled)
  }

  @Test func theMenusCheckLogsTheInventoryAtMostOncePerProcess() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(spec)
    let first = InMemoryLogHandler()
    let second = InMemoryLogHandler()
    func migrator(_ log: InMemoryLogHandler) -> LegacyDataMigrator {
      LegacyDataMigrator(
        layout: harness.layout, destination: InMemoryDestination(), flags: InMemoryFlagStore(),
        legacyDefaults: nil, logger: log.logger)
    }
    #expect(migrator(first).hasRecoverableLegacyData())
    #expect(migrator(second).hasRecoverableLegacyData())
    // Another test may have been first in this process; the second call never logs it.
    #expect(!second.lines().contains { $0.hasPrefix("inventory[") })
    // It reads no store: nothing is matched.
    #expect(!second.lines().contains { $0.hasPrefix("legacyStoreURL: matched") })
    // A migration logs it every time.
    let log = InMemoryLogHandler()
    _ = migrator(log).recoverNowBlocking(dryRun: true)
    #expect(log.lines().contains { $0.hasPrefix("inventory[appgroup] ") })
  }
}
