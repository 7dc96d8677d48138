import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// Every command's `--json` output, byte for byte, against files taken before the outputs became
/// `Encodable` values (`Tests/Fixtures/golden`): the JSON contract cannot drift unseen.
///
/// Each scenario runs in its own temporary folder; that folder's path is written as `$ROOT` and
/// dates that depend on the day the test runs as `$DATE`. A missing golden file fails its test; set
/// `DITTO_UPDATE_GOLDEN=1` to write the files (then review the diff).
@Suite struct GoldenJSONTests {
  static let goldenFolder = TestFixtures.root + "/golden"

  /// Runs `arguments` (with `$ROOT` standing for the scenario's folder) and compares standard
  /// output with `<name>.json` (exit codes are held by the contract tests).
  @discardableResult
  func expectGolden(_ name: String, _ arguments: [String], in folder: TemporaryDirectory) throws
    -> ToolRun
  {
    let run = ToolRunner.run(
      arguments.map { $0.replacingOccurrences(of: "$ROOT", with: folder.path) })
    let text = Self.normalized(run.standardOutput, root: folder.path)
    let path = Self.goldenFolder + "/" + name + ".json"
    if ProcessInfo.processInfo.environment["DITTO_UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(
        atPath: Self.goldenFolder, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return run
    }
    let golden = try String(
      contentsOfFile: TestFixtures.path("golden/\(name).json"), encoding: .utf8)
    if text != golden {
      // Kept for `diff`: the output as this run printed it.
      let actual = FileManager.default.temporaryDirectory.path + "/ditto-golden-actual"
      try FileManager.default.createDirectory(atPath: actual, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: actual + "/" + name + ".json"))
      Issue.record(
        "\(name): output differs from Tests/Fixtures/golden/\(name).json (this run's: \(actual)/\(name).json)"
      )
    }
    return run
  }

  static func normalized(_ text: String, root: String) -> String {
    var text = text
    for form in [shown(root), root, URL(fileURLWithPath: root).resolvingSymlinksInPath().path] {
      text = text.replacingOccurrences(of: form, with: "$ROOT")
      text = text.replacingOccurrences(
        of: form.replacingOccurrences(of: "/", with: "\\/"), with: "$ROOT")
    }
    // Private folders (removed when the command ends) have random names.
    text = text.replacingOccurrences(
      of: #"[^"]*/(ditto-[a-z]+)-[A-Za-z0-9]{6}/"#, with: #"\$TMP/$1-\$ID/"#,
      options: .regularExpression)
    // Dates of the run (recovery file names, timestamps) are not part of the contract's shape.
    let patterns = [
      #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"#, #"\d{4}-\d{2}-\d{2}-\d{4,6}"#,
      #"\d{4}-\d{2}-\d{2}"#,
    ]
    for pattern in patterns {
      text = text.replacingOccurrences(of: pattern, with: "$DATE", options: .regularExpression)
    }
    return text
  }

  func container(_ scenario: FixtureScenario, in folder: TemporaryDirectory) throws {
    try scenario.build(
      at: folder.appending("container"),
      parameters: .init(categories: 3, dittosPerCategory: 4, seed: 11))
  }

  @Test(arguments: [
    FixtureScenario.intact2x, .walHeavy, .garbage, .freshInstall, .bloatedCopy, .stale301Flag,
  ])
  func statusInventoryAndRecoverPreview(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("golden")
    try container(scenario, in: folder)
    let name = scenario.rawValue
    try expectGolden(
      "status-\(name)", ["status", "--container", "$ROOT/container", "--json"], in: folder)
    try expectGolden(
      "inventory-\(name)", ["inventory", "--container", "$ROOT/container", "--json"], in: folder)
    try expectGolden(
      "recover-dry-run-\(name)",
      ["recover", "--container", "$ROOT/container", "--dry-run", "--json"], in: folder)
  }

  @Test(arguments: [FixtureScenario.intact2x, .garbage, .emptyStore, .freshInstall])
  func migrateThenRecover(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("golden")
    try container(scenario, in: folder)
    let name = scenario.rawValue
    try expectGolden(
      "migrate-\(name)", ["migrate", "--container", "$ROOT/container", "--json"], in: folder)
    try expectGolden(
      "migrate-again-\(name)", ["migrate", "--container", "$ROOT/container", "--json"], in: folder)
    try expectGolden(
      "recover-\(name)", ["recover", "--container", "$ROOT/container", "--json"], in: folder)
  }

  @Test func storeCommands() throws {
    let folder = try TemporaryDirectory("golden")
    try container(.walHeavy, in: folder)
    let store = "$ROOT/container/Ditto.sqlite"
    try expectGolden("inspect", ["inspect", store, "--json"], in: folder)
    try expectGolden("salvage", ["salvage", store, "--json"], in: folder)
    try expectGolden("salvage-wal", ["salvage", store + "-wal", "--json"], in: folder)
    try expectGolden("export-legacy", ["export", "--legacy", store, "--json"], in: folder)
    try expectGolden(
      "extract",
      ["extract", "--container", "$ROOT/container", "--out", "$ROOT/out.dittorecovery", "--json"],
      in: folder)
    try expectGolden(
      "status-from", ["status", "--from", "$ROOT/out.dittorecovery", "--json"], in: folder)
    try expectGolden(
      "recover-from-dry-run",
      [
        "recover", "--from", "$ROOT/out.dittorecovery", "--container", "$ROOT/container",
        "--dry-run", "--json",
      ],
      in: folder)
  }

  @Test func importAndExportLibrary() throws {
    let folder = try TemporaryDirectory("golden")
    let library = try LibraryFixtures.copy(.presets, toFolder: folder.path)
    let csv = folder.appending("in.csv")
    try Data("Category,Ditto\r\nWork,Hello\r\nWork,Hello\r\nHome,\"Line, with comma\"\r\n".utf8)
      .write(to: URL(fileURLWithPath: csv))
    let relative = "$ROOT/" + String(library.dropFirst(folder.path.count + 1))
    try expectGolden(
      "import", ["import", "--library", relative, "--csv", "$ROOT/in.csv", "--json"], in: folder)
    try expectGolden("export-library", ["export", "--library", relative, "--json"], in: folder)
  }

  @Test func backupCommands() throws {
    let folder = try TemporaryDirectory("golden")
    try FileManager.default.createDirectory(
      atPath: folder.appending("Backup"), withIntermediateDirectories: true)
    try DittoBackupFixture.build(
      at: folder.appending("Backup/00008030-000A1B2C3D4E5F60"),
      date: Date(timeIntervalSince1970: 1_700_000_000))
    try DittoBackupFixture.build(
      at: folder.appending("Backup/00008030-000A1B2C3D4E5F61"),
      date: Date(timeIntervalSince1970: 1_600_000_000), deviceName: "Old iPhone",
      encryption: BackupEncryption(password: "secret"))
    try expectGolden("backup-list", ["backup", "list", "$ROOT/Backup", "--json"], in: folder)
    try expectGolden(
      "backup-extract",
      [
        "backup", "extract", "$ROOT/Backup/00008030-000A1B2C3D4E5F60", "--out",
        "$ROOT/b.dittorecovery", "--json",
      ],
      in: folder)
    try expectGolden(
      "backup-recover",
      [
        "backup", "recover", "$ROOT/Backup/00008030-000A1B2C3D4E5F60", "--out", "$ROOT/copy",
        "--json",
      ],
      in: folder)
  }

  @Test func outcomesAndTheToolItself() throws {
    let folder = try TemporaryDirectory("golden")
    let capture = folder.appending("capture.log")
    let lines = [
      "migration_outcome source=auto outcome=success categories=3 dittos=15 inserted=15",
      "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0",
      "migration_outcome source=auto outcome=nothing_on_disk categories=0 dittos=0 inserted=0",
      "migration_outcome source=manual outcome=success categories=1 dittos=2 inserted=2",
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: capture))
    try expectGolden("outcomes", ["outcomes", "$ROOT/capture.log", "--json"], in: folder)
    try expectGolden("completion-bash", ["completion", "bash", "--json"], in: folder)
  }
}
