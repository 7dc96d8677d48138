import EngineTestSupport
import Foundation
import LegacyMigration
import StoreFixtures
import TestSupport
import Testing

/// The CLI contracts of the engine issue, key by key.
@Suite struct ContractTests {
  func container(_ scenario: FixtureScenario, _ folder: TemporaryDirectory) throws -> String {
    let path = folder.appending("container")
    try scenario.build(at: path, parameters: .init(categories: 3, dittosPerCategory: 5, seed: 8))
    return path
  }

  @Test func migrateJSONHasExactlyTheContractKeys() throws {
    let folder = try TemporaryDirectory("cli")
    let path = try container(.user578kb, folder)
    let run = ToolRunner.run(["migrate", "--container", path, "--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    for key in [
      "attempted", "source", "outcome", "legacyStore", "legacyBytes", "categories", "dittos",
      "insertedCategories", "inserted", "skipped", "flagSet", "error",
    ] {
      #expect(json.keys.contains(key), "\(key)")
    }
    #expect(json["attempted"] as? Bool == true)
    #expect(json["source"] as? String == "auto")
    #expect(json["outcome"] as? String == "success")
    #expect(json["legacyStore"] as? String == "Library/Application Support/Ditto.sqlite")
    #expect((json["legacyBytes"] as? Int ?? 0) > 0)
    #expect(json["categories"] as? Int == 3)
    #expect(json["dittos"] as? Int == 15)
    #expect(json["insertedCategories"] as? Int == 3)
    #expect(json["inserted"] as? Int == 15)
    #expect(json["skipped"] as? Int == 0)
    #expect(json["flagSet"] as? Bool == true)
    #expect(json["error"] is NSNull)
    #expect(
      run.outcomeLines == [
        "migration_outcome source=auto outcome=success categories=3 dittos=15 inserted=15"
      ])

    let again = ToolRunner.run(["migrate", "--container", path, "--json"])
    #expect(again.exitCode == 0)
    let skipped = try #require(again.json)
    #expect(skipped.count == 4)
    #expect(skipped["attempted"] as? Bool == false)
    #expect(skipped["source"] as? String == "auto")
    #expect(skipped["reason"] as? String == "already_complete")
    #expect(skipped["flagSet"] as? Bool == true)
    #expect(again.outcomeLines.isEmpty)
  }

  @Test(arguments: [
    (FixtureScenario.intact2x, "inserted", 0), (.zeroByte, "foundButUnreadable", 65),
    (.garbage, "foundButUnreadable", 65), (.emptyStore, "emptyStore", 0),
    (.freshInstall, "nothingOnDisk", 0),
  ])
  func recoverJSONAddsResultAndMessage(scenario: FixtureScenario, result: String, exitCode: Int32)
    throws
  {
    let folder = try TemporaryDirectory("recover")
    let path = try container(scenario, folder)
    let before = try FileHashes(of: path)
    let run = ToolRunner.run(["recover", "--container", path, "--json"])
    #expect(run.exitCode == exitCode)
    let json = try #require(run.json)
    #expect(json["source"] as? String == "manual")
    #expect(json["result"] as? String == result)
    let message = try #require(json["message"] as? String)
    #expect(!message.isEmpty)
    if result == "foundButUnreadable" {
      #expect(json["outcome"] as? String == "found_unreadable")
      #expect((json["error"] as? String)?.contains("Ditto.sqlite") == true)
    }
    #expect(run.outcomeLines.count == 1)
    let after = try FileHashes(of: path)
    #expect(after.changes(since: before).filter { !$0.hasPrefix("/Ditto.store") }.isEmpty)
  }

  @Test func dryRunWritesNothingAndLeavesTheFlag() throws {
    let folder = try TemporaryDirectory("dry")
    let path = try container(.intact2x, folder)
    let before = try FileHashes(of: path)
    let run = ToolRunner.run(["recover", "--container", path, "--dry-run", "--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(json["dryRun"] as? Bool == true)
    #expect(json["inserted"] as? Int == 15)
    #expect(json["flagSet"] as? Bool == false)
    #expect(try FileHashes(of: path) == before)
    #expect(run.outcomeLines.isEmpty)
  }

  @Test func statusJSON() throws {
    let folder = try TemporaryDirectory("status")
    let path = try container(.user578kb, folder)
    let run = ToolRunner.run(["status", "--container", path, "--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(json["hasRecoverableLegacyData"] as? Bool == true)
    #expect(json["flagSet"] as? Bool == false)
    #expect(json["chosen"] as? String == "Library/Application Support/Ditto.sqlite")
    let candidates = try #require(json["candidates"] as? [[String: Any]])
    #expect(
      candidates.map { $0["path"] as? String } == [
        "Ditto.sqlite", "Library/Application Support/Ditto.sqlite",
      ])
    #expect(candidates.first?["bytes"] as? Int == 0)
    let freshFolder = try TemporaryDirectory("fresh")
    let fresh = ToolRunner.run([
      "status", "--container", try container(.freshInstall, freshFolder), "--json",
    ])
    #expect(fresh.json?["chosen"] is NSNull)
    #expect(fresh.json?["hasRecoverableLegacyData"] as? Bool == false)
  }

  @Test func inventoryPrintsTheSeedLinesOnStandardOutput() throws {
    let folder = try TemporaryDirectory("inventory")
    let path = try container(.walOnly, folder)
    let run = ToolRunner.run(["inventory", "--container", path])
    #expect(run.exitCode == 0)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains("inventory[appgroup] 4096B /Ditto.sqlite"))
    #expect(lines.contains("inventory[appgroup] 32768B /Ditto.sqlite-shm"))
    #expect(lines.allSatisfy { $0.hasPrefix("inventory[appgroup] ") })
  }

  @Test func exitCodes() throws {
    let folder = try TemporaryDirectory("codes")
    let path = try container(.intact2x, folder)
    try ContainerBuilder(root: path).writeGarbage(count: 64, seed: 1, at: "bad-library.sqlite")
    let unwritable = ToolRunner.run([
      "migrate", "--container", path, "--library", path + "/bad-library.sqlite", "--json",
    ])
    #expect(unwritable.exitCode == 74)
    #expect(unwritable.json?["flagSet"] as? Bool == false)
    #expect(ToolRunner.run(["migrate"]).exitCode == 64)
    #expect(ToolRunner.run(["migrate", "--container", folder.appending("missing")]).exitCode == 66)
    #expect(ToolRunner.run(["frobnicate"]).exitCode == 64)
  }
}
