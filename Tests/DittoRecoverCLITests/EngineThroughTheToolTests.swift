import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// What the engine finds, as `status`, `migrate`, `export --legacy` and `salvage` print it (the
/// engine's own tests assert on its values; these on the tool's words and JSON).
@Suite struct EngineThroughTheToolTests {
  /// Builds a scenario's container (with the presets library) and returns its path.
  static func container(_ scenario: FixtureScenario, in folder: TemporaryDirectory) throws -> String
  {
    let path = folder.appending("device")
    try scenario.build(at: path, parameters: .init(seed: 9, library: .presets))
    return path
  }

  /// The defaults plists the engine's tests read.
  static let legacyMigrationFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("LegacyMigrationTests/Fixtures").path

  @Test func statusJSONCountsWhatItReadAndNeverSaysZeroForNotRead() throws {
    let folder = try TemporaryDirectory("status-counts")
    let container = try Self.container(.user578kb, in: folder)
    let run = ToolRunner.run(["status", "--container", container, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let candidates = try #require(run.json?["candidates"] as? [[String: Any]])
    let truncated = try #require(candidates.first { $0["path"] as? String == "Ditto.sqlite" })
    #expect(truncated["dittos"] is NSNull)
    #expect(truncated["categories"] is NSNull)
    #expect(truncated["errorCode"] as? String == "not_a_database")
    #expect(truncated["transient"] as? Bool == false)
    let real = try #require(
      candidates.first { $0["path"] as? String == "Library/Application Support/Ditto.sqlite" })
    #expect(real["dittos"] as? Int == 24)
    #expect(real["categories"] as? Int == 4)
    #expect(real["error"] is NSNull)
    let sources = try #require(run.json?["sources"] as? [[String: Any]])
    #expect(sources.contains { $0["dittos"] is NSNull && $0["error"] is String })
    #expect(!sources.contains { ($0["dittos"] as? Int) == 0 && $0["error"] is String })
    let recoverable = try #require(run.json?["recoverable"] as? [String: Any])
    #expect(recoverable["dittos"] as? Int == 24)
    let text = ToolRunner.run(["status", "--container", container])
    #expect(
      text.standardOutput.hasPrefix(
        "recoverable: 24 dittos in 4 categories (Library/Application Support/Ditto.sqlite)\n"))
  }

  /// A lone -wal (3.0.0's delete succeeded for the main file): nothing SQLite can read, and status
  /// says how many dittos salvage rebuilds from it.
  @Test func aLoneWALIsCountedBySalvage() throws {
    let folder = try TemporaryDirectory("status-lone-wal")
    let container = try Self.container(.walOnly, in: folder)
    try FileManager.default.removeItem(atPath: container + "/Ditto.sqlite")
    let run = ToolRunner.run(["status", "--container", container, "--json"])
    let wals = try #require(run.json?["orphanWALs"] as? [[String: Any]])
    #expect(wals.first?["hasValidFrames"] as? Bool == true)
    #expect(wals.first?["salvageable"] as? Int == 24)
    let text = ToolRunner.run(["status", "--container", container])
    #expect(
      text.standardOutput.hasPrefix(
        "recoverable: 24 dittos in 4 categories (Ditto.sqlite-wal, rebuilt by salvage)\n"))
  }

  @Test func statusShowsAnUnreadableDefaultsFileAsASourceWithItsError() throws {
    let harness = try MigrationHarness("unusable-defaults")
    try harness.builder.writeDefaults(["dittos": 42, "pendingDittos": "not a dictionary"])
    let run = ToolRunner.run(["status", "--container", harness.folder.path, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let sources = try #require(run.json?["sources"] as? [[String: Any]])
    #expect(sources.map { $0["kind"] as? String } == ["defaults"])
    #expect((sources.first?["error"] as? String)?.contains("unexpected type") == true)
    #expect(run.json?["defaultsError"] is String)
  }

  @Test func theLeftBehindStoresCommandImportsItAsPrinted() throws {
    let harness = try MigrationHarness()
    try harness.writeWALHeavyStores()
    try harness.recordFiles()
    let migrated = ToolRunner.run(["migrate", "--container", harness.folder.path])
    #expect(migrated.exitCode == 0, "\(migrated.standardError)")
    let next = try #require(
      migrated.standardOutput.split(separator: "\n").first { $0.hasPrefix("next: ") })
    let command = String(next.dropFirst("next: ".count))
    #expect(command.hasPrefix("ditto-recover recover --from "))
    // Run as printed, by a shell, with ditto-recover on the PATH.
    let run = try ToolRun.pasted(command)
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.standardOutput.hasPrefix("Recovered 28 dittos from your previous version."))
    #expect(try harness.libraryContents().reduce(0) { $0 + $1.1.count } == 148)
    #expect(try harness.changedFiles().isEmpty)
  }

  @Test func exportLegacyOfTheDefaultsFile() throws {
    let run = ToolRunner.run([
      "export", "--legacy", Self.legacyMigrationFixtures + "/pending.binary.plist",
    ])
    #expect(run.exitCode == 0)
    #expect(run.standardOutput.contains("\"added in keyboard\""))
  }

  @Test func salvageCommandJSON() throws {
    let harness = try MigrationHarness()
    let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 17)
    try harness.builder.writeStore(spec, journal: .walOnly)
    // Delete a few rows so free space holds them, then checkpoint into a copy.
    let live = harness.builder.path("live.sqlite")
    try LegacyStoreWriter.write(spec, to: live)
    let database = try Database(path: UserPath.resolvingFolder(of: live), mode: .readWrite)
    try database.execute(sql: "PRAGMA secure_delete = OFF; DELETE FROM ZDITTO WHERE Z_PK % 5 = 0")
    try database.close()
    let run = ToolRunner.run(["salvage", live, "--include-deleted", "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    let sources = try #require(json["sources"] as? [[String: Any]])
    #expect(
      sources.allSatisfy {
        ["main", "wal", "freelist"].contains($0["kind"] as? String ?? "") && $0["pages"] is Int
          && $0["rows"] is Int
      })
    #expect((json["categories"] as? [[String: Any]])?.count == 3)
    let deleted = try #require(json["deleted"] as? [[String: Any]])
    #expect(deleted.count == 3)
    #expect(deleted.allSatisfy { $0["text"] is String && $0["useCount"] is Int })
    let csv = ToolRunner.run([
      "salvage", harness.builder.path("Ditto.sqlite-wal"), "--format", "csv",
    ])
    #expect(csv.standardOutput.hasPrefix("Category,Ditto\r\n"))
    #expect(ToolRunner.run(["salvage", harness.builder.path("nothing.sqlite")]).exitCode == 66)
  }
}
