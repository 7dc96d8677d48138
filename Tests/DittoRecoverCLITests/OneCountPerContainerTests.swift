import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// One count per container: what `status` calls recoverable is what `recover` then imports into a
/// library without them, each ditto once, however the sources overlap (one store in two places,
/// overlapping stores); and "already in your library" counts only what the library holds.
@Suite struct OneCountPerContainerTests {
  @Test(arguments: [0, 4, 9])
  func statusCountsWhatRecoverImports(extra: Int) throws {
    let harness = try MigrationHarness("one-count", library: .empty)
    let spec = FixtureContent.make(categories: 3, dittosPerCategory: 6, seed: 19)
    try harness.builder.writeStore(spec)
    var both = spec
    if extra > 0 {
      both.categories.append(
        FixtureContent.make(categories: 1, dittosPerCategory: extra, seed: 23).categories[0])
    }
    try harness.builder.writeStore(both, at: "Library/Application Support/Ditto.sqlite")
    let status = ToolRunner.run(["status", "--container", harness.folder.path, "--json"])
    #expect(status.exitCode == 0, "\(status.standardError)")
    let recoverable = try #require(status.json?["recoverable"] as? [String: Any])
    let counted = try #require(recoverable["dittos"] as? Int)
    let recovered = ToolRunner.run(["recover", "--container", harness.folder.path, "--json"])
    #expect(recovered.exitCode == 0, "\(recovered.standardError)")
    let inserted = try #require(recovered.json?["inserted"] as? Int)
    #expect(counted == inserted)
    #expect(inserted == both.readableDittoCount)
    #expect(recovered.json?["alreadyInLibrary"] as? Int == 0)
  }
}
