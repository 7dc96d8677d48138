import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
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
    _ = migrator.migrateIfNeeded()
    _ = migrator.recoverNow()
    _ = migrator.recoverNow(dryRun: true)
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
    _ = migrator.survey()
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
    let report = migrator.recoverNow(fromFile: picked)
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
