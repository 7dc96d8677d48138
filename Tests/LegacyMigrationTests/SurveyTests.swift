import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import Testing

/// The survey reads for real and writes nothing; `status` renders it.
@Suite struct SurveyTests {
  /// Builds a scenario's container (with the presets library) and returns its path.
  static func container(_ scenario: FixtureScenario, in folder: TemporaryDirectory) throws -> String
  {
    let path = folder.appending("device")
    try scenario.build(at: path, parameters: .init(seed: 9, library: .presets))
    return path
  }

  @Test(arguments: FixtureScenario.allCases)
  func theSurveyWritesNothingAndLogsNothingThatPersists(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("survey-writes-nothing")
    let container = try Self.container(scenario, in: folder)
    let before = try FileHashes(of: container)
    let log = InMemoryLogHandler()
    let flags = InMemoryFlagStore()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: container),
      destination: InMemoryDestination(), flags: flags,
      legacyDefaults: AppGroupDefaults(path: ContainerLayout(container: container).defaultsPath),
      logger: log.logger)
    let survey = migrator.surveyBlocking()
    _ = migrator.hasRecoverableLegacyData()
    #expect(flags.writes == 0)
    #expect(try FileHashes(of: container) == before, "the survey changed a file")
    #expect(log.lines(atLeast: .notice).isEmpty, "\(log.lines(atLeast: .notice))")
    #expect(log.outcomeLines.isEmpty)
    // What it says matches what the scenario holds.
    let expected = try TestFixtures.expectedContent(at: container + "/expected.json")
    let dittos = expected.reduce(0) { $0 + $1.dittos.count }
    let recoverable = survey.sources(for: .manual).filter { $0.kind == .coreData }
    switch scenario {
    case .zeroByte, .garbage:
      #expect(survey.storeToImport == nil)
      #expect(survey.decidingReadError != nil)
    case .freshInstall:
      #expect(survey.stores.isEmpty)
      #expect(!survey.hasRecoverableLegacyData)
    case .emptyStore:
      #expect(survey.storeToImport?.content == .read(categories: 0, dittos: 0))
    case .intact2x, .walOnly, .user578kb, .stale301Flag, .after302:
      #expect(recoverable.first?.dittos == dittos)
      #expect(recoverable.first?.categories == expected.count)
    case .walHeavy, .bloatedCopy:
      // Two stores: the manual path takes both; expected.json is what they merge into.
      #expect(recoverable.count == 2)
      #expect(survey.otherReadableStores.count == 1)
      let merged = recoverable.reduce(0) { $0 + $1.dittos }
      #expect(merged >= dittos)
    }
  }

}
