import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import PropertyLists
import RecoveryFile
import StoreFixtures
import Testing

/// User text (ditto texts, category titles) never appears in a public log line.
@Suite struct PrivacyTests {
  @Test(arguments: FixtureScenario.allCases)
  func noUserTextInPublicLogLines(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("privacy")
    let container = folder.appending("container")
    try scenario.build(
      at: container, parameters: .init(categories: 3, dittosPerCategory: 4, seed: 21))
    let content = try LegacyStoreReaderOrNil.read(container)
    let log = InMemoryLogHandler()
    try LibraryFixtures.ensure(inFolder: container)
    let migrator = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), logger: log.logger)
    _ = migrator.migrateIfNeededBlocking()
    _ = migrator.recoverNowBlocking()
    _ = migrator.recoverNowBlocking(dryRun: true)
    // The recovery file's extraction reads the same sources, with and without salvage.
    for salvage in [false, true] {
      let extraction = RecoveryExtraction(
        layout: ContainerLayout(container: container), includesSalvage: salvage,
        logger: log.logger)
      if extraction.offeredDittos > 0 {
        let info = RecoveryFileInfo(origin: .container, createdAt: Date(), toolVersion: "test")
        _ = try extraction.write(
          info: info, to: folder.appending("extract-\(salvage).dittorecovery"))
      }
    }
    _ = migrator.surveyBlocking()
    let secrets = content.flatMap { [$0.title] + $0.dittos.map(\.text) }.filter { $0.count > 3 }
    let lines = log.lines()
    #expect(!lines.isEmpty)
    for secret in secrets {
      #expect(!lines.contains { $0.contains(secret) }, "leaked a user text")
    }
    for record in log.records where record.message.rendered().hasPrefix("migration_outcome") {
      #expect(!record.message.hasPrivateValues)
    }
    // No absolute path at public level: files are named relative to the probed place, as the
    // inventory names them, the seed's own match lines included.
    for line in lines {
      #expect(!line.contains(folder.path), "an absolute path at public level: \(line)")
    }
  }
}

enum LegacyStoreReaderOrNil {
  static func read(_ container: String) throws -> [LegacyCategory] {
    let expected = try TestFixtures.expectedContent(at: container + "/expected.json")
    return expected.map {
      LegacyCategory(
        title: $0.title, dittos: $0.dittos.map { LegacyDitto(text: $0.text, useCount: $0.useCount) }
      )
    }
  }
}

/// A file the user picked names them (its folder, its name): never in a public log line, while the
/// private detail keeps it whole.
@Suite struct PickedFilePrivacyTests {
  @Test func thePickedFilesPathIsNeverPublic() throws {
    let folder = try TemporaryDirectory("picked")
    let secretFolder = folder.appending("Sam Whitfield's recovery")
    try FileManager.default.createDirectory(atPath: secretFolder, withIntermediateDirectories: true)
    let picked = secretFolder + "/Sam-old-dittos.dittorecovery"
    try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: picked))
    let container = folder.appending("container")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    try LibraryFixtures.ensure(inFolder: container)
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), logger: log.logger)
    let report = migrator.recoverNowBlocking(fromFile: picked)
    #expect(report.outcome == .foundUnreadable)
    let lines = log.lines()
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(!line.contains("Sam"), "public: \(line)")
      #expect(!line.contains(folder.path), "public: \(line)")
    }
    // The technical detail (private) is complete.
    #expect(report.technicalDetail?.contains("Sam-old-dittos.dittorecovery") == true)
  }
}

/// The menu check (`hasRecoverableLegacyData()`, called whenever the menu is built) never walks the
/// inventory and is silent after its first call in a process.
@Suite struct MenuCheckNoiseTests {
  @Test func theMenuCheckIsSilentAfterItsFirstCall() throws {
    let folder = try TemporaryDirectory("menu-noise")
    let container = folder.appending("container")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), logger: log.logger)
    _ = migrator.hasRecoverableLegacyData()
    let afterFirst = log.lines().count
    for _ in 0..<5 { #expect(!migrator.hasRecoverableLegacyData()) }
    #expect(log.lines().count == afterFirst, "\(log.lines().dropFirst(afterFirst))")
    #expect(!log.lines().contains { $0.hasPrefix("inventory[") })
  }
}

/// What the app's own types say (a flag store's or a defaults source's error, whose reason may be
/// Foundation's description with its `NSFilePath`) and what the user received (AirDrop and "Open
/// in" put files in `Documents/Inbox`, named by whoever sent them) never reach a public line.
@Suite struct AppSuppliedPrivacyTests {
  static let secretPath = "/private/var/mobile/Containers/Shared/AppGroup/Jane-Doe-secret"

  /// Flags and defaults that fail with reasons holding a path, as an app passing `"\(error)"` makes.
  struct FailingDefaults: MigrationFlagStore, LegacyDefaultsSource {
    var legacySourceName: String { "UserDefaults(group.io.kern.ditto)" }
    func readFlags() throws(FlagStoreError) -> MigrationFlags {
      throw FlagStoreError(
        store: "UserDefaults", reason: "Error Domain=NSCocoaErrorDomain NSFilePath=\(secretPath)")
    }
    func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
      throw FlagStoreError(store: "UserDefaults", reason: "cannot write \(secretPath)/flags.plist")
    }
    func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? {
      throw .unreadable(file: secretPath, reason: "NSFilePath=\(secretPath)/prefs.plist")
    }
  }

  @Test func theAppsOwnReasonsAreNeverPublic() throws {
    let harness = try MigrationHarness("app-reasons")
    try harness.builder.writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 5), journal: .delete)
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator(
      layout: harness.layout, destination: InMemoryDestination(), flags: FailingDefaults(),
      legacyDefaults: FailingDefaults(), logger: log.logger)
    _ = migrator.migrateIfNeededBlocking()
    _ = migrator.recoverNowBlocking()
    let lines = log.lines()
    #expect(lines.contains { $0.hasPrefix("migrateIfNeeded: the flags cannot be read") })
    #expect(lines.contains { $0.hasPrefix("defaults: cannot be read (unreadable)") })
    for line in lines {
      #expect(!line.contains("Jane"), "an app-supplied reason at public level: \(line)")
      #expect(!line.contains("NSFilePath"), "an app-supplied reason at public level: \(line)")
    }
    // The private detail keeps it whole.
    #expect(log.records.contains { $0.message.rendered(redactingPrivate: false).contains("Jane") })
  }

  @Test func receivedFilesAreToldByKindAndSizeOnly() throws {
    let harness = try MigrationHarness("inbox")
    let home = try TemporaryDirectory("inbox-home")
    let inbox = home.appending("Documents/Inbox")
    try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    let received = [
      "Jane Doe – dittos for Bob.dittorecovery", "Bob's notes", "Jane's store.sqlite",
    ]
    for name in received {
      try Data(repeating: 7, count: 4_096).write(to: URL(fileURLWithPath: inbox + "/" + name))
    }
    try FileManager.default.createDirectory(
      atPath: home.appending("Documents/Jane's folder"), withIntermediateDirectories: true)
    try Data("x".utf8).write(
      to: URL(fileURLWithPath: home.appending("Documents/Jane's folder/Bob")))
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: harness.folder.path, home: home.path),
      destination: InMemoryDestination(), flags: InMemoryFlagStore(), legacyDefaults: nil,
      logger: log.logger)
    _ = migrator.migrateIfNeededBlocking()
    let lines = log.lines()
    for line in lines {
      #expect(!line.contains("Jane"), "a received file's name at public level: \(line)")
      #expect(!line.contains("Bob"), "a received file's name at public level: \(line)")
    }
    #expect(lines.contains("inventory[app] 4096B /Documents/Inbox/<received>.dittorecovery"))
    #expect(lines.contains("inventory[app] 4096B /Documents/Inbox/<received>.sqlite"))
    #expect(lines.contains("inventory[app] 4096B /Documents/Inbox/<received>"))
    #expect(lines.contains("inventory[app] 1B /Documents/<received>/<received>"))
  }
}
