import Foundation
import LegacyMigration
import StoreFixtures
import TestSupport
import Testing

/// The built executable, run as separate processes: the README's commands and concurrent migrations.
@Suite(.enabled(if: ToolRunner.executablePath != nil, "needs the built ditto-recover"))
struct ProcessTests {
  @Test func readmeDemoCommandsWork() throws {
    let folder = try TemporaryDirectory("readme")
    let container = folder.appending("device")
    let made = try ToolRunner.runProcess([
      "fixture", "--out", container, "--scenario", "user-578kb",
    ])
    #expect(made.exitCode == 0)
    let migrated = try ToolRunner.runProcess(["migrate", "--container", container])
    #expect(migrated.exitCode == 0)
    #expect(migrated.outcomeLines.count == 1)
    #expect(
      migrated.outcomeLines.first?.hasPrefix("migration_outcome source=auto outcome=success")
        == true)
    let exported = try ToolRunner.runProcess([
      "export", "--library", container + "/DittoLibrary.sqlite", "--format", "csv",
    ])
    #expect(exported.standardOutput.hasPrefix("Category,Ditto\r\n"))
  }

  @Test(arguments: [2, 8])
  func concurrentMigrationsNeverInsertTwice(processes: Int) throws {
    for round in 0..<3 {
      let folder = try TemporaryDirectory("concurrent")
      let container = folder.appending("device")
      try FixtureScenario.intact2x.build(
        at: container, parameters: .init(categories: 5, dittosPerCategory: 40, seed: UInt64(round)))
      let before = try FileHashes(of: container)
      let runs = try (0..<processes).map { _ in
        try ProcessLauncher(["migrate", "--container", container, "--json"])
      }.map { $0.finish() }
      #expect(runs.allSatisfy { $0.exitCode == 0 })
      let outcomes = runs.compactMap { $0.json?["outcome"] as? String }
      let skippedByFlag = runs.filter { $0.json?["attempted"] as? Bool == false }.count
      #expect(outcomes.filter { $0 == "success" }.count == 1, "\(outcomes)")
      #expect(outcomes.count + skippedByFlag == processes)
      #expect(outcomes.allSatisfy { $0 == "success" || $0 == "no_new_data" })
      #expect(runs.reduce(0) { $0 + ($1.json?["inserted"] as? Int ?? 0) } == 200)
      #expect(runs.map(\.outcomeLines.count).reduce(0, +) == outcomes.count)
      let check = try ToolRunner.runProcess([
        "export", "--library", container + "/DittoLibrary.sqlite",
      ])
      let library =
        try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
      let categories = library?["categories"] as? [[String: Any]] ?? []
      #expect(categories.count == 5)
      #expect(categories.reduce(0) { $0 + (($1["dittos"] as? [Any])?.count ?? 0) } == 200)
      let after = try FileHashes(of: container)
      #expect(
        after.changes(since: before).filter {
          !$0.hasPrefix("/DittoLibrary") && !$0.hasPrefix("/Library/Preferences")
        }.isEmpty)
    }
  }
}
