import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import StoreFixtures
import Testing

/// Two attempts at once on one container are normal (the launch's import and a tap on "Recover
/// Old Dittos"; two scenes launching; the launch and a recovery file opened from AirDrop): they
/// take turns, so the second plans against what the first saved. With a library that saves as two
/// SwiftData contexts do (each plans against its own fetch), never a ditto twice, never a second
/// Profile, exactly one attempt inserting.
@Suite struct AttemptTurnTests {
  /// Runs of each race.
  static let runs = 50
  static let spec = FixtureContent.make(categories: 4, dittosPerCategory: 25, seed: 44)

  /// A container holding the 2.x store of ``spec``, and the same store as a file outside it.
  final class Device {
    let harness: MigrationHarness
    let pickedFile: URL
    let folder: TemporaryDirectory

    init() throws {
      harness = try MigrationHarness("turns")
      try harness.builder.writeStore(AttemptTurnTests.spec, journal: .delete)
      folder = try TemporaryDirectory("turns-file")
      pickedFile = URL(fileURLWithPath: folder.appending("Ditto.sqlite"))
      try LegacyStoreWriter.write(AttemptTurnTests.spec, to: pickedFile.path)
    }

    /// A migrator of the app (its own instance, as a second scene would make) into `library`.
    func migrator(_ library: TwoContextLibrary, flags: SharedFlagStore) -> LegacyDataMigrator {
      LegacyDataMigrator(
        layout: harness.layout, destination: library, flags: flags, legacyDefaults: nil,
        logger: InMemoryLogHandler().logger)
    }
  }

  enum Race: String, CaseIterable, Sendable {
    case launchAndTap, twoScenes, launchAndRecoveryFile
  }

  /// The library after a race: what one attempt alone makes (every ditto once), one Profile.
  static func expectWhole(
    _ library: TwoContextLibrary, as alone: [TwoContextLibrary.Category], _ context: String
  ) {
    #expect(library.profiles == 1, "\(context): \(library.profiles) Profiles")
    let categories = library.categories
    let same = categories == alone
    #expect(
      same,
      "\(context): \(categories.count) categories, \(categories.flatMap(\.texts).count) dittos")
  }

  /// What one attempt alone makes of the device's store.
  static func alone(_ device: Device) async -> (library: [TwoContextLibrary.Category], dittos: Int)
  {
    let library = TwoContextLibrary(saveDelayMicroseconds: 0)
    let report = await device.migrator(library, flags: SharedFlagStore()).recoverNow()
    return (library.categories, report.counts.inserted)
  }

  @Test(arguments: Race.allCases)
  func attemptsAtOnceTakeTurns(race: Race) async throws {
    let device = try Device()
    let alone = await Self.alone(device)
    #expect(alone.dittos == 100)
    for run in 0..<Self.runs {
      let library = TwoContextLibrary()
      let flags = SharedFlagStore()
      let first = device.migrator(library, flags: flags)
      let second = race == .twoScenes ? device.migrator(library, flags: flags) : first
      let picked = device.pickedFile
      async let launch = first.migrateIfNeededBlocking(protectedDataAvailable: true)
      let other: MigrationReport?
      switch race {
      case .launchAndTap: other = await second.recoverNow()
      case .twoScenes: other = await second.migrateIfNeeded(protectedDataAvailable: true).report
      case .launchAndRecoveryFile: other = await second.recoverNow(from: picked)
      }
      let reports = [await launch.report, other].compactMap { $0 }
      Self.expectWhole(library, as: alone.library, "\(race) run \(run)")
      let inserting = reports.filter { $0.counts.inserted > 0 }
      #expect(inserting.count == 1, "\(race) run \(run): \(inserting.count) attempts inserted")
      #expect(inserting.first?.counts.inserted == alone.dittos)
    }
  }

  /// A task cancelled while it waits for its turn stops waiting: it reads and writes nothing, and
  /// its report says it was cancelled; the attempt that held the turn finishes whole.
  @Test func anAttemptCancelledWhileItWaitsEndsCancelled() async throws {
    let device = try Device()
    let alone = await Self.alone(device)
    for run in 0..<10 {
      let library = TwoContextLibrary(saveDelayMicroseconds: 50_000)
      let flags = SharedFlagStore()
      let migrator = device.migrator(library, flags: flags)
      let launch = Task { await migrator.migrateIfNeeded(protectedDataAvailable: true) }
      // Give the launch time to take the turn, then start a tap and cancel it while it waits.
      try await Task.sleep(nanoseconds: 10_000_000)
      let tap = Task { await migrator.recoverNow() }
      tap.cancel()
      let cancelled = await tap.value
      let launched = await launch.value
      #expect(cancelled.outcome == .foundUnreadable, "run \(run)")
      #expect(cancelled.counts.inserted == 0, "run \(run)")
      #expect(cancelled.recoveryResult == .cancelled, "run \(run)")
      #expect(launched.report?.counts.inserted == alone.dittos, "run \(run)")
      Self.expectWhole(library, as: alone.library, "run \(run)")
    }
  }
}
