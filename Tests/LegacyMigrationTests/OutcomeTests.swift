import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import StoreFixtures
import Telemetry
import Testing

@Suite struct OutcomeTests {
  /// One container per terminal path, with the outcome it must produce.
  enum Path: String, CaseIterable {
    case success, noNewData, emptyStore, foundUnreadable, nothingOnDisk

    var expected: MigrationOutcome {
      switch self {
      case .success: .success
      case .noNewData: .noNewData
      case .emptyStore: .emptyStore
      case .foundUnreadable: .foundUnreadable
      case .nothingOnDisk: .nothingOnDisk
      }
    }

    func prepare(_ harness: MigrationHarness) throws {
      let spec = FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 4)
      switch self {
      case .success: try harness.builder.writeStore(spec)
      case .noNewData:
        try harness.builder.writeStore(spec)
        #expect(harness.prefillLibrary().outcome == .success)
      case .emptyStore:
        try harness.builder.writeStore(LegacyStoreSpec(categories: [.init(title: "Nothing here")]))
      case .foundUnreadable:
        try harness.builder.writeGarbage(count: 2048, seed: 1, at: "Ditto.sqlite")
      case .nothingOnDisk: break
      }
    }
  }

  @Test(arguments: Path.allCases, [MigrationSource.auto, .manual])
  func everyTerminalPathLogsExactlyOneOutcomeLine(path: Path, source: MigrationSource) throws {
    let harness = try MigrationHarness()
    try path.prepare(harness)
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    let report =
      source == .auto
      ? try #require(migrator.migrateIfNeededBlocking().report) : migrator.recoverNowBlocking()
    #expect(report.outcome == path.expected)
    #expect(report.counts.inserted + report.counts.skipped == report.counts.dittosRead)
    let lines = harness.log.records.filter { $0.message.rendered().hasPrefix("migration_outcome") }
    #expect(lines.count == 1)
    #expect(lines.first?.level == .notice)
    #expect(lines.first?.message.hasPrivateValues == false)
    #expect(lines.first?.message.rendered() == report.telemetryLine)
    #expect(
      report.telemetryLine.hasPrefix(
        "migration_outcome source=\(source.rawValue) outcome=\(path.expected.rawValue) categories=")
    )
    try harness.assertPreserved()
  }

  @Test func theOutcomeIsDerivedFromTheSurveyAndTheMerge() {
    let file = LegacyCandidate(
      root: .appGroup, relativePath: "Ditto.sqlite", path: "/c/Ditto.sqlite", bytes: 1)
    func outcome(
      found: Bool = true, readError: Bool = false, dittos: Int = 3, inserted: Int = 0,
      library: Bool = false
    ) -> MigrationOutcome {
      var survey = LegacySurvey(layout: nil, depth: .contents)
      if found {
        let content: LegacySurvey.Content =
          readError
          ? .failed(LegacyStoreError.notADatabase(file: file.path, reason: "x"))
          : .read(categories: 1, dittos: dittos)
        survey.stores = [LegacySurvey.Store(candidate: file, content: content)]
      }
      var merge = MergeRecord()
      merge.counts.dittosRead = dittos
      merge.counts.inserted = inserted
      if library {
        merge.stop = .library(DestinationError(.writeFailed, file: "Ditto.store", reason: "x"))
      }
      let read = LegacyRead(
        survey: survey, selection: SourceSelection(.manual), isPickedFile: false)
      let report = MigrationReport(trigger: .manual, read: read, merge: merge, isDryRun: false)
      #expect(report.survey.stores.count == (found ? 1 : 0))
      return report.outcome
    }
    #expect(outcome(found: false) == .nothingOnDisk)
    #expect(outcome(readError: true) == .foundUnreadable)
    #expect(outcome(dittos: 0) == .emptyStore)
    #expect(outcome(dittos: 3) == .noNewData)
    #expect(outcome(dittos: 3, inserted: 1) == .success)
    #expect(outcome(inserted: 1, library: true) == .libraryError)
    #expect(outcome(readError: true, library: true) == .libraryError)
    #expect(
      MigrationReport(
        trigger: .auto, read: .notRead(.auto), merge: .interrupted(.locked), isDryRun: false
      ).outcome == .foundUnreadable)
  }

  @Test func userFacingMessagesAreTheSeedsWordForWord() {
    #expect(
      RecoveryResult.nothingOnDisk.message
        == "No legacy dittos were found on this device. If you had dittos in an older version, they may have been removed by an earlier 3.0 update."
    )
    #expect(
      RecoveryResult.foundButUnreadable("x").message
        == "Found old data on this device, but couldn't read it. Please send a sysdiagnose so we can investigate."
    )
    #expect(
      RecoveryResult.emptyStore.message
        == "Found an old data file on this device, but it had no dittos in it.")
    #expect(
      RecoveryResult.inserted(0).message
        == "Your old dittos were already in your current library — nothing new to recover.")
    #expect(
      RecoveryResult.inserted(27).message == "Recovered 27 dittos from your previous version.")
    #expect(RecoveryResult.foundButUnreadable("why").detail == "why")
    #expect(RecoveryResult.libraryUnavailable("disk full").detail == "disk full")
  }

  @Test func unreadableStoresAreRetriedTwiceThenTheFlagIsSet() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeGarbage(count: 4096, seed: 3, at: "Ditto.sqlite")
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    for attempt in 1...3 {
      let report = try #require(migrator.migrateIfNeededBlocking().report, "attempt \(attempt)")
      #expect(report.outcome == .foundUnreadable)
      #expect(report.attempts == attempt)
      #expect(report.flagSet == (attempt == 3))
    }
    guard case .alreadyComplete = migrator.migrateIfNeededBlocking() else {
      Issue.record("a garbage file must not be retried forever")
      return
    }
    #expect(migrator.recoverNowBlocking().outcome == .foundUnreadable)
    try harness.assertPreserved()
  }

  @Test func anUnwritableLibraryIsReportedAndTheFlagStaysUnset() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1))
    try harness.builder.writeGarbage(count: 100, seed: 1, at: "NotALibrary.sqlite")
    try harness.recordFiles()
    let migrator = harness.makeMigrator(library: harness.builder.path("NotALibrary.sqlite"))
    let report = try #require(migrator.migrateIfNeededBlocking().report)
    #expect(report.outcome == .libraryError)
    #expect(report.destinationError?.kind == .refused)
    #expect(report.readError == nil)
    #expect(!report.flagSet)
    #expect(!report.settled)
    #expect(report.attempts == 0)
    #expect(harness.log.outcomeLines.count == 1)
    try harness.assertPreserved()
  }

  @Test func aLegacyStorePassedAsTheLibraryIsNeverTouched() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1), journal: .walOnly)
    let before = try FileHashes(of: harness.folder.path)
    let report = harness.makeMigrator(library: harness.builder.path("Ditto.sqlite"))
      .recoverNowBlocking()
    #expect(report.destinationError?.kind == .refused)
    #expect(report.outcome == .libraryError)
    let after = try FileHashes(of: harness.folder.path)
    #expect(after.changes(since: before).isEmpty)
  }

  @Test func anUnreadableDefaultsFileIsNeverOverwritten() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1))
    try harness.builder.writeBytes(
      Array("not a plist".utf8), at: "Library/Preferences/group.io.kern.ditto.plist")
    let before = try FileHashes(of: harness.folder.path)
    let report = try #require(harness.makeMigrator().migrateIfNeededBlocking().report)
    #expect(report.outcome == .success)
    #expect(!report.flagSet)
    #expect(report.flagError != nil)
    let after = try FileHashes(of: harness.folder.path)
    #expect(
      after.entries["/Library/Preferences/group.io.kern.ditto.plist"]
        == before.entries["/Library/Preferences/group.io.kern.ditto.plist"])
  }
}
