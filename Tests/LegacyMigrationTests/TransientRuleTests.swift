import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import PropertyLists
import StoreFixtures
import Testing

/// The engine's transient rule, against a flag store that records every call: a failure that says
/// nothing about the legacy data makes no write of any kind to the flag store, whatever the
/// outcome; a permanent one counts, three times at most.
@Suite struct TransientRuleTests {
  /// Legacy defaults that cannot be read right now (as App Group defaults before first unlock).
  struct LockedDefaults: LegacyDefaultsSource {
    var legacySourceName: String { "UserDefaults(group.io.kern.ditto)" }
    func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? {
      throw .inaccessible(file: legacySourceName, reason: "Operation not permitted")
    }
  }

  func migrator(
    _ folder: TemporaryDirectory, flags: InMemoryFlagStore,
    defaults: (any LegacyDefaultsSource)? = nil, destination: InMemoryDestination = .init()
  ) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: ContainerLayout(container: folder.path), destination: destination, flags: flags,
      legacyDefaults: defaults, logger: InMemoryLogHandler().logger)
  }

  func writes(_ flags: InMemoryFlagStore) -> [MigrationFlags] {
    flags.calls.compactMap {
      if case .write(let written) = $0 { return written }
      return nil
    }
  }

  enum NotAFile: String, CaseIterable {
    case symbolicLink, folder, fifo, linkedProbeFolder
  }

  @Test(arguments: NotAFile.allCases)
  func somethingNotAFileWithTheStoresNameIsFoundAndWritesNothing(kind: NotAFile) throws {
    let folder = try TemporaryDirectory("not-a-file")
    let builder = try ContainerBuilder(root: folder.path)
    let elsewhere = try TemporaryDirectory("elsewhere")
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 9),
      to: elsewhere.appending("Ditto.sqlite"))
    switch kind {
    case .symbolicLink:
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Ditto.sqlite"),
        withDestinationPath: elsewhere.appending("Ditto.sqlite"))
    case .folder:
      try FileManager.default.createDirectory(
        atPath: builder.path("Documents/Ditto.SQLite"), withIntermediateDirectories: true)
    case .fifo:
      try builder.makeFIFO(at: "Library/Application Support/Ditto/ditto.sqlite")
    case .linkedProbeFolder:
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Documents"), withDestinationPath: elsewhere.path)
    }
    let flags = InMemoryFlagStore()
    let destination = InMemoryDestination()
    let migrator = migrator(folder, flags: flags, destination: destination)
    #expect(migrator.hasRecoverableLegacyData())
    for _ in 1...4 {
      let report = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
      #expect(report.outcome == .foundUnreadable)
      #expect(report.transientReason == .notAFile)
      #expect(report.telemetryLine.hasSuffix(" inserted=0 reason=not_a_file"))
      #expect(report.readError?.isTransient == true)
    }
    #expect(writes(flags).isEmpty, "\(flags.calls)")
    #expect(destination.applied == 0)
    let survey = migrator.surveyBlocking()
    #expect(survey.skipped.count == 1)
    #expect(survey.transientReason == .notAFile)
  }

  @Test func defaultsNotReadableNowWriteNothingEvenWhenTheStoreReads() throws {
    let folder = try TemporaryDirectory("locked-defaults")
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 10)
    try ContainerBuilder(root: folder.path).writeStore(spec)
    let flags = InMemoryFlagStore()
    let migrator = migrator(folder, flags: flags, defaults: LockedDefaults())
    let first = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
    // The store's dittos are in; the keyboard's queue may still be waiting: no flag yet.
    #expect(first.outcome == .success)
    #expect(first.counts.inserted == spec.readableDittoCount)
    #expect(first.transientReason == .defaults)
    #expect(!first.telemetryLine.contains("reason="))
    #expect(first.flagSet == false)
    #expect(writes(flags).isEmpty, "\(flags.calls)")
    let next = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
    #expect(next.outcome == .noNewData)
    #expect(writes(flags).isEmpty)
  }

  @Test func defaultsAloneNotReadableNowAreFoundUnreadableWithTheirReason() throws {
    let folder = try TemporaryDirectory("locked-defaults-only")
    let flags = InMemoryFlagStore()
    let report = migrator(folder, flags: flags, defaults: LockedDefaults()).recoverNowBlocking()
    #expect(report.outcome == .foundUnreadable)
    #expect(report.telemetryLine.hasSuffix(" reason=defaults"))
    guard case .foundButUnreadable(let detail) = report.recoveryResult else {
      Issue.record("\(report.recoveryResult)")
      return
    }
    #expect(!detail.contains("UserDefaults(group.io.kern.ditto)"))
    #expect(report.technicalDetail?.contains("UserDefaults(group.io.kern.ditto)") == true)
    #expect(detail.contains("unlock it and try again"))
    #expect(report.isTransient)
  }

  @Test func aReadableStoreBesideOneNotOpenedImportsButLeavesTheFlagAlone() throws {
    let folder = try TemporaryDirectory("one-of-two")
    let builder = try ContainerBuilder(root: folder.path)
    let spec = FixtureContent.make(categories: 1, dittosPerCategory: 4, seed: 11)
    try builder.writeStore(spec, at: "Documents/Ditto.sqlite")
    try builder.makeFIFO(at: "Ditto.sqlite")
    let flags = InMemoryFlagStore()
    let report = try #require(
      migrator(folder, flags: flags).migrateIfNeededBlocking().attemptedReport)
    #expect(report.outcome == .success)
    #expect(report.transientReason == .notAFile)
    #expect(writes(flags).isEmpty)
  }

  @Test func aPermanentFailureStillCountsAndStopsAfterThree() throws {
    let folder = try TemporaryDirectory("permanent")
    try ContainerBuilder(root: folder.path).writeBytes([], at: "Ditto.sqlite")
    let flags = InMemoryFlagStore()
    let migrator = migrator(folder, flags: flags)
    for attempt in 1...3 {
      let report = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
      #expect(report.outcome == .foundUnreadable)
      #expect(report.transientReason == nil)
      #expect(!report.telemetryLine.contains("reason="))
      #expect(report.attempts == attempt)
    }
    #expect(
      writes(flags) == [
        MigrationFlags(attempts: 1), MigrationFlags(attempts: 2),
        MigrationFlags(isComplete: true, attempts: 3),
      ])
    #expect(migrator.migrateIfNeededBlocking().attemptedReport == nil)
  }

  @Test func everyErrorIsClassifiedOnce() {
    let file = "/c/Ditto.sqlite"
    let transient: [(LegacyStoreError, TransientReason)] = [
      (.permissionDenied(file: file, reason: "open: Permission denied"), .permission),
      (.busy(file: file, reason: "open: Resource busy"), .busy),
      (.ioError(file: file, reason: "read: Input/output error"), .locked),
      (.noSpaceForSnapshot(file: file, reason: "write: No space left"), .noSpace),
      (.changing(file: file, reason: "kept changing"), .changing),
      (.notFound(file: file), .changing),
      (.notARegularFile(file: file, kind: .fifo), .notAFile),
      (.linkedFolder(file: "/c/Documents"), .notAFile),
    ]
    for (error, reason) in transient {
      #expect(error.kind == .transient(reason), "\(error)")
    }
    let permanent: [LegacyStoreError] = [
      .notADatabase(file: file, reason: "the file is empty (0 bytes)"),
      .damaged(file: file, reason: "SQLite error 11"),
      .notACoreDataStore(file: file, missing: ["Z_PRIMARYKEY"]),
      .notADittoStore(file: file, missing: ["ZDITTO"]),
      .unreadable(file: file, reason: "SQLite error 1"),
    ]
    for error in permanent { #expect(error.kind == .permanent, "\(error)") }
    #expect(
      DefaultsError.inaccessible(file: file, reason: "EACCES").kind == .transient(.defaults))
    #expect(DefaultsError.unreadable(file: file, reason: "not a plist").kind == .permanent)
  }
}
