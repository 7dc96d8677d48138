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
