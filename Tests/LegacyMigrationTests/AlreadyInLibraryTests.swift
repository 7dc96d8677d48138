import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import StoreFixtures
import Testing

/// "Already in your library" counts only what the library holds: a ditto read twice (the same
/// store in two places, overlapping stores) is imported once and is not "already in your
/// library".
@Suite struct AlreadyInLibraryTests {
  @Test func aDittoReadTwiceIsNotAlreadyInTheLibrary() throws {
    let harness = try MigrationHarness("overlap", library: .empty)
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 9, seed: 71)
    try harness.builder.writeStore(spec)
    try harness.builder.writeStore(spec, at: "Library/Application Support/Ditto.sqlite")
    let preview = harness.makeMigrator().recoverNowBlocking(dryRun: true)
    #expect(preview.counts.inserted == spec.readableDittoCount)
    #expect(preview.counts.skipped == spec.readableDittoCount)
    #expect(preview.counts.alreadyInLibrary == 0)
    #expect(preview.previewMessage.hasSuffix("; 0 are already in your library."))
    // Once imported, a second look finds every one of them in the library.
    _ = harness.makeMigrator().recoverNowBlocking()
    let again = harness.makeMigrator().recoverNowBlocking(dryRun: true)
    #expect(again.counts.inserted == 0)
    #expect(again.counts.alreadyInLibrary == spec.readableDittoCount)
    #expect(again.counts.skipped == 2 * spec.readableDittoCount)
  }
}
