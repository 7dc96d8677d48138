import EngineTestSupport
import Foundation
import LegacyMigration
import StoreFixtures
import TestSupport
import Testing

/// The built executable, run as separate processes: the README's commands and concurrent migrations.
@Suite
struct ProcessTests {
  @Test func readmeDemoCommandsWork() throws {
    let folder = try TemporaryDirectory("readme")
    let container = folder.appending("device")
    let made = try ToolRunner.runProcess(
      ["--out", container, "--scenario", "user-578kb"], executable: ToolRunner.fixturePath)
    #expect(made.exitCode == 0)
    let migrated = try ToolRunner.runProcess(["migrate", "--container", container])
    #expect(migrated.exitCode == 0)
    #expect(migrated.outcomeLines.count == 1)
    #expect(
      migrated.outcomeLines.first?.hasPrefix("migration_outcome source=auto outcome=success")
        == true)
    let exported = try ToolRunner.runProcess([
      "export", "--library", container + "/Ditto.store", "--format", "csv",
    ])
    #expect(exported.standardOutput.hasPrefix("Category,Ditto\r\n"))
  }

  /// After `--` every argument is a file name, even `--help` and `-h`.
  @Test(arguments: ["--help", "-h"])
  func aFileNamedLikeTheHelpOptionIsInspectedAfterDoubleDash(name: String) throws {
    let folder = try TemporaryDirectory("dashdash")
    let container = folder.appending("c")
    _ = try ToolRunner.runProcess(
      ["--out", container, "--scenario", "intact-2x"], executable: ToolRunner.fixturePath)
    try FileManager.default.copyItem(
      atPath: container + "/Ditto.sqlite", toPath: folder.appending(name))
    let run = try ToolRunner.runProcess(
      ["inspect", "--json", "--", name], currentDirectory: folder.path)
    #expect(run.exitCode == 0, "\(run.standardError)")
    let entities = try #require(run.json?["entities"] as? [[String: Any]])
    #expect(entities.map { $0["name"] as? String } == ["Category", "Ditto", "Profile"])
    let help = try ToolRunner.runProcess(["inspect", name], currentDirectory: folder.path)
    #expect(help.standardOutput.hasPrefix("OVERVIEW: "))
  }
}
