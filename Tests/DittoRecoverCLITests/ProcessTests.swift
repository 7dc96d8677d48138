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
      "export", "--library", container + "/Ditto.store", "--format", "csv",
    ])
    #expect(exported.standardOutput.hasPrefix("Category,Ditto\r\n"))
  }
}
