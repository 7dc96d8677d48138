import ContainerFiles
import EngineTestSupport
import ExampleApp
import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists
import StoreFixtures
import Testing

/// A device running the example app: its App Group container, the app's own home, the library, the
/// App Group defaults as `UserDefaults` answers them, and the log. Every legacy file is hashed when
/// the device is set up, and checked at the end.
final class Device {
  let folder: TemporaryDirectory
  let container: String
  let home: String
  let builder: ContainerBuilder
  let library = ExampleLibrary()
  let defaults: DeviceDefaults
  let log = InMemoryLogHandler()
  private var hashes: FileHashes?

  init(_ label: String, unlocked: Bool = true, stored: [String: PropertyListValue] = [:]) throws {
    folder = try TemporaryDirectory(label)
    container = folder.appending("group.io.kern.ditto")
    home = folder.appending("home")
    builder = try ContainerBuilder(root: container)
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defaults = DeviceDefaults(unlocked: unlocked, stored: stored)
  }

  /// The app as it starts on this device (a new process each launch: nothing is carried over but
  /// the files, the library and the defaults).
  var app: DittoAppModel {
    DittoAppModel(
      container: container, home: home, library: library, defaults: defaults, logger: log.logger)
  }

  /// Records every file's hash (the legacy files: the library and the defaults are in memory).
  func recordFiles() throws { hashes = try FileHashes(of: folder.path) }

  func assertLegacyFilesUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try #require(hashes, sourceLocation: sourceLocation)
    #expect(
      try FileHashes(of: folder.path).changes(since: before).isEmpty,
      sourceLocation: sourceLocation)
  }

  /// Outcome lines logged since the last call.
  private var seen = 0
  func newOutcomeLines() -> [String] {
    let lines = log.outcomeLines
    defer { seen = lines.count }
    return Array(lines.dropFirst(seen))
  }

  var dittoCount: Int { library.contents.reduce(0) { $0 + $1.texts.count } }
}

/// The seed's test plan and the locked cases, driven through the example app the guide quotes:
/// what the user sees (the library, the presets, the menu, the alert) and every telemetry line.
@Suite struct SeedTestPlanThroughTheAppTests {
  static let spec = FixtureContent.make(categories: 4, dittosPerCategory: 7, seed: 31)
  static var expected: [(String, [String])] {
    FixtureContent.expectedCategories(of: spec).map { ($0.title, $0.dittos.map(\.text)) }
  }

  static func same(_ library: ExampleLibrary, _ expected: [(String, [String])]) -> Bool {
    let contents = library.contents
    return contents.count == expected.count
      && zip(contents, expected).allSatisfy { $0.title == $1.0 && $0.texts == $1.1 }
  }

  /// Two old stores: the launch imports the one holding the most dittos and tells the app, through
  /// public API, how many the other holds that it lacks; the menu offers them, and "Recover Old
  /// Dittos" brings exactly those.
  @Test func theDittosLeftInAnotherStoreReachTheMenu() async throws {
    let device = try Device("left-behind")
    try device.builder.writeStore(Self.spec)
    let other = FixtureContent.make(categories: 1, dittosPerCategory: 5, seed: 77)
    try device.builder.writeStore(other, at: "Library/Application Support/Ditto.sqlite")
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.outcome == .success)
    let stores = launch.report?.otherStores ?? []
    #expect(stores.map(\.relativePath) == ["Library/Application Support/Ditto.sqlite"])
    let left = try #require(await device.app.dittosToRecover())
    #expect(left == 5)
    #expect(device.app.showsRecoverOldDittos)
    let before = device.dittoCount
    _ = await device.app.recoverOldDittos()
    #expect(device.dittoCount == before + left)
    try device.assertLegacyFilesUnchanged()
  }

  @Test func freshInstall() async throws {
    let device = try Device("fresh")
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.outcome == .nothingOnDisk && launch.isSettled)
    #expect(device.library.contents.map(\.title) == ExampleLibrary.presetTitles)
    #expect(!device.app.showsRecoverOldDittos)
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=nothing_on_disk categories=0 dittos=0 inserted=0"
      ])
    try device.assertLegacyFilesUnchanged()
  }

  @Test func directFrom201ImportsInOrderAndMakesNoPresets() async throws {
    let device = try Device("direct")
    try device.builder.writeStore(Self.spec)
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.outcome == .success && launch.isSettled)
    #expect(Self.same(device.library, Self.expected))
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=success categories=4 dittos=28 inserted=28"
      ])
    // Idempotent: the second launch short-circuits, nothing is inserted twice.
    let second = await device.app.launch(protectedDataAvailable: true)
    guard case .alreadyComplete = second else {
      Issue.record("the second launch ran an attempt: \(second)")
      return
    }
    #expect(device.dittoCount == 28)
    #expect(device.newOutcomeLines().isEmpty)
    try device.assertLegacyFilesUnchanged()
  }

  @Test func the578KBUserGetsThePopulatedCopy() async throws {
    let device = try Device("578kb")
    try device.builder.writeStore(Self.spec, at: "Library/Application Support/Ditto.sqlite")
    try device.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 1, seed: 2), at: "Ditto.sqlite")
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.store?.relativePath == "Library/Application Support/Ditto.sqlite")
    #expect(launch.report?.counts.inserted == 28)
    try device.assertLegacyFilesUnchanged()
  }

  @Test func theWALHeavyRootBesideAStaleCopy() async throws {
    let device = try Device("wal-heavy")
    let big = FixtureContent.make(categories: 4, dittosPerCategory: 30, seed: 32)
    try device.builder.writeStore(big, journal: .walOnly)
    let stale = LegacyStoreSpec(categories: [
      LegacyStoreSpec.Category(
        title: "Older", dittos: (1...28).map { LegacyStoreSpec.Ditto(text: "older \($0)") })
    ])
    try device.builder.writeStore(stale, at: "Library/Application Support/Ditto.sqlite")
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.counts.inserted == 120)
    #expect(launch.report?.otherStores.map(\.missing) == [28])
    #expect(device.app.showsRecoverOldDittos)
    let alert = await device.app.recoverOldDittos()
    #expect(alert.message == "Recovered 28 dittos from your previous version.")
    #expect(device.dittoCount == 148)
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=success categories=4 dittos=120 inserted=120",
        "migration_outcome source=manual outcome=success categories=5 dittos=148 inserted=28",
      ])
    try device.assertLegacyFilesUnchanged()
  }

  enum Unreadable: String, CaseIterable {
    case zeroByte, garbage
  }

  @Test(arguments: Unreadable.allCases)
  func anUnreadableStoreKeepsThePresetsWaitingThenGivesUp(kind: Unreadable) async throws {
    let device = try Device("unreadable-\(kind.rawValue)")
    if kind == .zeroByte {
      try device.builder.writeBytes([], at: "Ditto.sqlite")
    } else {
      try device.builder.writeGarbage(count: 10_000, seed: 5, at: "Ditto.sqlite")
    }
    try device.recordFiles()
    #expect(device.app.showsRecoverOldDittos)
    let alert = await device.app.recoverOldDittos()
    #expect(
      alert.message
        == "Found old data on this device, but couldn't read it. Please send a sysdiagnose so we can investigate."
    )
    #expect(alert.detail?.contains("“Ditto.sqlite”") == true)
    #expect(alert.detail?.contains(device.container) == false)
    #expect(!alert.isTransient)
    // Three launches: presets only once the third settles it.
    var presets: [Bool] = []
    for _ in 1...3 {
      let launch = await device.app.launch(protectedDataAvailable: true)
      #expect(launch.report?.outcome == .foundUnreadable)
      presets.append(device.library.categories != nil)
    }
    #expect(presets == [false, false, true])
    #expect(
      device.newOutcomeLines()
        == [
          "migration_outcome source=manual outcome=found_unreadable categories=0 dittos=0 inserted=0"
        ]
        + Array(
          repeating:
            "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0",
          count: 3))
    try device.assertLegacyFilesUnchanged()
  }

  @Test func aStale301FlagStillMigrates() async throws {
    let device = try Device(
      "stale-301", stored: ["legacyUserDefaultsMigrationComplete": true])
    try device.builder.writeStore(Self.spec)
    try device.recordFiles()
    let launch = await device.app.launch(protectedDataAvailable: true)
    #expect(launch.report?.outcome == .success)
    #expect(device.defaults.storedFlags.isComplete)
    try device.assertLegacyFilesUnchanged()
  }

  @Test func manualRecoveryAfterTheFlagInsertsOnlyTheNewDitto() async throws {
    let device = try Device("after-302")
    try device.builder.writeStore(Self.spec)
    _ = await device.app.launch(protectedDataAvailable: true)
    // A fresh store with one ditto more, placed after the flag was set.
    var more = Self.spec
    more.categories[0].dittos.append(LegacyStoreSpec.Ditto(text: "One more, added later"))
    try device.builder.writeStore(more, at: "Documents/Ditto.sqlite")
    try device.recordFiles()
    let again = await device.app.launch(protectedDataAvailable: true)
    guard case .alreadyComplete = again else {
      Issue.record("the flag did not short-circuit: \(again)")
      return
    }
    let alert = await device.app.recoverOldDittos()
    #expect(alert.message == "Recovered 1 dittos from your previous version.")
    #expect(device.dittoCount == 29)
    #expect(
      device.newOutcomeLines().last
        == "migration_outcome source=manual outcome=success categories=8 dittos=57 inserted=1")
    try device.assertLegacyFilesUnchanged()
  }

  @Test func aLockedLaunchWithAStoreWritesNothingAndTheNextOneImports() async throws {
    let device = try Device("locked-store", unlocked: false)
    try device.builder.writeStore(Self.spec)
    try device.recordFiles()
    let locked = await device.app.launch(protectedDataAvailable: false)
    #expect(!locked.isSettled)
    #expect(device.library.categories == nil, "presets were created before the migration")
    #expect(device.defaults.calls.isEmpty)
    device.defaults.unlock()
    let unlocked = await device.app.launch(protectedDataAvailable: true)
    #expect(unlocked.report?.outcome == .success && unlocked.isSettled)
    #expect(Self.same(device.library, Self.expected))
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=locked",
        "migration_outcome source=auto outcome=success categories=4 dittos=28 inserted=28",
      ])
    try device.assertLegacyFilesUnchanged()
  }

  @Test func aLockedLaunchWithOnlyDefaultsDataWritesNothingAndTheNextOneImports() async throws {
    let list: [String: PropertyListValue] = ["dittos": ["On my way", "Running late"]]
    let device = try Device("locked-defaults", unlocked: false, stored: list)
    // The preferences file on disk holds the 1.x list; the domain answers defaults.
    try device.builder.writeDefaults(list)
    try device.recordFiles()
    // The app skipped the guard (or protected data came and went): the engine still writes nothing.
    let locked = await device.app.launch(protectedDataAvailable: true)
    #expect(locked.report?.transientReason == .locked)
    #expect(!locked.isSettled)
    #expect(device.defaults.writes.isEmpty)
    #expect(device.library.categories == nil, "presets were created before the migration")
    device.defaults.unlock()
    let unlocked = await device.app.launch(protectedDataAvailable: true)
    #expect(unlocked.report?.outcome == .success && unlocked.isSettled)
    #expect(device.library.contents.map(\.title) == ["General"])
    #expect(device.library.contents.first?.texts == ["On my way", "Running late"])
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=locked",
        "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=2",
      ])
    try device.assertLegacyFilesUnchanged()
  }

  @Test func aLibraryThatCannotSaveMovesNothingAndTheNextLaunchImports() async throws {
    let device = try Device("library-fails")
    try device.builder.writeStore(Self.spec)
    try device.recordFiles()
    device.library.failSaves(true)
    let failed = await device.app.launch(protectedDataAvailable: true)
    #expect(failed.report?.outcome == .libraryError && !failed.isSettled)
    #expect(device.defaults.writes.isEmpty)
    #expect(device.library.categories == nil)
    let alert = await device.app.recoverOldDittos()
    #expect(
      alert.message
        == "Found your old dittos, but couldn't save them to your library. Nothing was changed; please try again later."
    )
    device.library.failSaves(false)
    let next = await device.app.launch(protectedDataAvailable: true)
    #expect(next.report?.outcome == .success)
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=library_error categories=4 dittos=28 inserted=0",
        "migration_outcome source=manual outcome=library_error categories=4 dittos=28 inserted=0",
        "migration_outcome source=auto outcome=success categories=4 dittos=28 inserted=28",
      ])
    try device.assertLegacyFilesUnchanged()
  }

  @Test func aCancelledLaunchWritesNothingAndTheNextOneImports() async throws {
    let device = try Device("cancelled")
    try device.builder.writeStore(Self.spec)
    try device.recordFiles()
    let app = device.app
    let cancelled = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await app.launch(protectedDataAvailable: true)
    }.value
    #expect(cancelled.report?.transientReason == .cancelled && !cancelled.isSettled)
    #expect(device.library.categories == nil)
    #expect(device.defaults.writes.isEmpty)
    let next = await device.app.launch(protectedDataAvailable: true)
    #expect(next.report?.outcome == .success)
    #expect(
      device.newOutcomeLines() == [
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=cancelled",
        "migration_outcome source=auto outcome=success categories=4 dittos=28 inserted=28",
      ])
    try device.assertLegacyFilesUnchanged()
  }
}
