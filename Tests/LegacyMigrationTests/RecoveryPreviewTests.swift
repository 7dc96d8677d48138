import ContainerFiles
import EngineTestSupport
import LegacyMigration
import StoreFixtures
import Testing

/// The preview (what Recover Old Dittos would take) is what the attempt then does: every place
/// that shows it (`status`, `migrate`'s salvage line, the recovery file's note) reads this one
/// value.
@Suite struct RecoveryPreviewTests {
  @Test(arguments: FixtureScenario.allCases)
  func thePreviewCountsWhatTheRecoveryImports(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("recovery-preview")
    let container = try SurveyTests.container(scenario, in: folder)
    let layout = ContainerLayout(container: container)
    func migrator() -> LegacyDataMigrator {
      LegacyDataMigrator(
        layout: layout, destination: InMemoryDestination(), flags: InMemoryFlagStore(),
        legacyDefaults: AppGroupDefaults(path: layout.defaultsPath), logger: .disabled)
    }
    let preview = migrator().surveyBlocking().preview(for: .manual)
    let report = migrator().recoverNowBlocking()
    #expect(preview.dittos == report.counts.inserted, "\(scenario)")
    #expect(preview.categories == report.counts.insertedCategories, "\(scenario)")
    #expect(preview.sources.count == report.sources.filter { $0.error == nil }.count)
    #expect(preview.salvagedDittos == (report.salvaged ?? 0), "\(scenario)")
    #expect(preview.isSalvaged == (report.salvaged != nil), "\(scenario)")
  }
}
