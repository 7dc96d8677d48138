import DittoRecoverCLI
import EngineTestSupport
import Foundation
import SafeFiles
import TestSupport
import Testing

@Suite struct HelpAndUsageTests {
  @Test func noArgumentsPrintsTheRootHelp() {
    let run = ToolRunner.run([])
    #expect(run.exitCode == 0)
    #expect(run.standardOutput.hasPrefix("OVERVIEW: "))
    for section in ["USAGE: ditto-recover <subcommand>", "OPTIONS:", "SUBCOMMANDS:"] {
      #expect(run.standardOutput.contains(section))
    }
    #expect(
      run.standardOutput.hasSuffix("  See 'ditto-recover help <subcommand>' for detailed help.\n"))
    #expect(ToolRunner.run(["--help"]).standardOutput == run.standardOutput)
    #expect(ToolRunner.run(["-h"]).standardOutput == run.standardOutput)
  }

  @Test func versionPrintsOnlyTheVersion() {
    #expect(ToolRunner.run(["--version"]).standardOutput == "3.0.2\n")
  }

  @Test(arguments: Tool.definition.commands.map { $0.name })
  func everySubcommandHasHelp(name: String) {
    let run = ToolRunner.run([name, "--help"])
    #expect(run.exitCode == 0)
    #expect(run.standardOutput.hasPrefix("OVERVIEW: "))
    #expect(run.standardOutput.contains("USAGE: ditto-recover \(name)"))
    #expect(run.standardOutput.contains("  -h, --help            Show help information.\n"))
    #expect(ToolRunner.run(["help", name]).standardOutput == run.standardOutput)
    #expect(run.standardError.isEmpty)
  }

  @Test func migrateHelpSnapshot() {
    #expect(
      ToolRunner.run(["migrate", "--help"]).standardOutput == """
        OVERVIEW: Run the automatic migration, as the app does at launch.

        Skipped when the App Group defaults hold legacyCoreDataMigrationComplete_v302 = true (the 3.0.0 and
        3.0.1 flags are ignored). Otherwise probes the container, imports the largest store and sets the flag
        (after found_unreadable, only once three attempts have failed). Writes into the app's library, an
        existing Ditto.store (never created here: without one, exit 74).

        USAGE: ditto-recover migrate --container <dir> [--home <dir>] [--library <file>] [--dry-run] [--json] [--verbose]

        OPTIONS:
          --container <dir>     The App Group container folder copied from the device.
          --home <dir>          The app's own data container (its Library and Documents), if copied.
          --library <file>      The app's library, a Ditto 3.x Ditto.store (default: <container>/Ditto.store).
          --dry-run             Compute what the automatic migration would do; write nothing, leave the flag alone.
          --json                Print one JSON object on standard output.
          --verbose             Show info-level log lines and error causes.
          -h, --help            Show help information.

        """)
  }

  @Test func usageErrorsHaveThreeLinesAndExit64() {
    let unknown = ToolRunner.run(["migrate", "--container", "/tmp", "--foo"])
    #expect(unknown.exitCode == 64)
    #expect(
      unknown.standardError == """
        Error: Unknown option '--foo'
        Usage: ditto-recover migrate --container <dir> [--home <dir>] [--library <file>] [--dry-run] [--json] [--verbose]
          See 'ditto-recover migrate --help' for more information.

        """)
    #expect(unknown.standardOutput.isEmpty)
    let missing = ToolRunner.run(["migrate", "--container"])
    #expect(missing.standardError.hasPrefix("Error: Missing value for '--container <dir>'\n"))
    let extra = ToolRunner.run(["status", "--container", "/tmp", "x"])
    #expect(extra.standardError.hasPrefix("Error: Unexpected argument 'x'\n"))
    let invalid = ToolRunner.run(["export", "--legacy", "x", "--format", "xml"])
    #expect(
      invalid.standardError.hasPrefix("Error: The value 'xml' is invalid for '--format <format>'\n")
    )
    #expect(
      ToolRunner.run(["migrate"]).standardError.hasPrefix(
        "Error: Missing expected argument '--container <dir>'\n"))
  }

  /// Every command that runs, by the words that name it (a group's subcommands, not the group).
  static let runnableCommands: [[String]] = Tool.definition.commands.flatMap { command in
    command.subcommands.isEmpty
      ? [[command.name]] : command.subcommands.map { [command.name, $0.name] }
  }

  @Test(arguments: runnableCommands)
  func everyCommandTakesJSONAndDashH(words: [String]) {
    let help = ToolRunner.run(words + ["--help"])
    #expect(help.exitCode == 0)
    #expect(
      help.standardOutput.contains(
        "  --json                Print one JSON object on standard output.\n"))
    #expect(help.standardOutput.contains("[--json]"))
    for arguments in [["-h"], ["--verbose", "-h"], ["--json", "--help"]] {
      let run = ToolRunner.run(words + arguments)
      #expect(run.exitCode == 0, "\(arguments)")
      #expect(run.standardOutput == help.standardOutput, "\(arguments)")
    }
  }

  @Test(arguments: runnableCommands)
  func afterDoubleDashHelpIsNeverShown(words: [String]) {
    for arguments in [["--", "-h"], ["--", "--help"], ["--json", "--", "-h"]] {
      let run = ToolRunner.run(words + arguments)
      #expect(!run.standardOutput.hasPrefix("OVERVIEW: "), "\(arguments)")
      #expect(run.exitCode != 0, "\(arguments)")
    }
  }

  @Test func afterDoubleDashEveryArgumentIsPositional() throws {
    let files = Option<String>.positionalText(
      "file", value: "file", help: "", required: false, repeatable: true)
    let specs = [files.spec, CommonOptions.json.spec]
    let parsed = try ParsedArguments(
      ["--json", "--", "--help", "-h", "--json", "--"], specs: specs)
    #expect(try parsed.values(of: files) == ["--help", "-h", "--json", "--"])
    #expect(parsed.isSet(CommonOptions.json))
    #expect(!(try ParsedArguments(["--", "--json"], specs: specs)).isSet(CommonOptions.json))
    let inspect = ToolRunner.run(["inspect", "--json", "--", "--help"])
    #expect(inspect.exitCode == 66)
    // A typed path is reported resolved: absolute, from the working directory.
    let resolved = UserPath.resolved("--help")
    #expect(resolved.hasPrefix("/") && resolved.hasSuffix("/--help"))
    #expect(inspect.json?["error"] as? String == "\(resolved): no such file")
    #expect(inspect.standardError == "Error: \(resolved): no such file\n")
    let salvage = ToolRunner.run(["salvage", "--", "-h"])
    #expect(salvage.exitCode == 66)
    #expect(salvage.standardError.contains("-h"))
  }

  @Test(arguments: ["export", "salvage"])
  func jsonWithCSVIsAUsageError(name: String) {
    let source = name == "export" ? ["--legacy", "/nonexistent/Ditto.sqlite"] : ["/nonexistent"]
    for arguments in [["--json", "--format", "csv"], ["--format=csv", "--json"]] {
      let run = ToolRunner.run([name] + source + arguments)
      #expect(run.exitCode == 64, "\(arguments)")
      #expect(
        run.standardError.hasPrefix(
          "Error: '--json' and '--format csv' cannot be used together\n"))
      // Under --json even a usage error is one JSON object.
      #expect(run.json?["exitCode"] as? Int == 64)
      #expect(
        run.json?["error"] as? String == "'--json' and '--format csv' cannot be used together")
    }
    // --json with --format json is the same request: no usage error (the missing file is 66).
    #expect(ToolRunner.run([name] + source + ["--json", "--format", "json"]).exitCode == 66)
  }

  @Test func exportJSONIsFormatJSON() throws {
    let folder = try TemporaryDirectory("export-json")
    let container = folder.appending("c")
    let made = ToolRunner.runFixture(["--out", container, "--scenario", "intact-2x"])
    #expect(made.exitCode == 0)
    let store = container + "/Ditto.sqlite"
    let json = ToolRunner.run(["export", "--legacy", store, "--json"])
    #expect(json.exitCode == 0)
    #expect(json.standardOutput == ToolRunner.run(["export", "--legacy", store]).standardOutput)
    #expect(
      json.standardOutput
        == ToolRunner.run(["export", "--legacy", store, "--format", "json"]).standardOutput)
    #expect((json.json?["categories"] as? [Any])?.count == 4)
    let missing = ToolRunner.run(["export", "--library", folder.appending("none"), "--json"])
    #expect(missing.exitCode == 66)
    #expect(missing.json?["exitCode"] as? Int == 66)
  }

  /// The keys of a top-level object in the order the text prints them.
  func topLevelKeys(_ text: String) -> [String] {
    text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
      String($0.dropFirst(3).prefix { $0 != "\"" })
    }
  }

  @Test func fixtureJSONSaysWhatTheTextSays() throws {
    let folder = try TemporaryDirectory("fixture-json")
    let run = ToolRunner.runFixture([
      "--out", folder.appending("c"), "--scenario", "wal-only", "--categories", "3",
      "--dittos-per-category", "2", "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["out"] as? String == shown(folder.appending("c")))
    #expect(json["scenario"] as? String == "wal-only")
    #expect(json["expected"] as? String == shown(folder.appending("c")) + "/expected.json")
    #expect(json["categories"] as? Int == 3)
    #expect(json["dittos"] as? Int == 6)
    #expect((json["summary"] as? String)?.isEmpty == false)
    #expect(FileManager.default.fileExists(atPath: folder.appending("c/expected.json")))
    let keys = topLevelKeys(run.standardOutput)
    #expect(keys == ["categories", "dittos", "expected", "out", "scenario", "summary"])
    let again = ToolRunner.runFixture([
      "--out", folder.appending("c"), "--scenario", "wal-only", "--json",
    ])
    // An output that exists is never replaced: refused, as every output is (73), not "unforeseen".
    #expect(again.exitCode == 73)
    #expect(again.json?["error"] is String)
  }

  @Test func inventoryJSONHoldsTheTextLines() throws {
    let folder = try TemporaryDirectory("inventory-json")
    let container = folder.appending("c")
    _ = ToolRunner.runFixture(["--out", container, "--scenario", "wal-only"])
    let home = folder.appending("home")
    try FileManager.default.createDirectory(
      atPath: home + "/Documents", withIntermediateDirectories: true)
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: home + "/Documents/Ditto.sqlite"))
    let arguments = ["inventory", "--container", container, "--home", home]
    let text = ToolRunner.run(arguments)
    let run = ToolRunner.run(arguments + ["--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(json["container"] as? String == shown(container))
    #expect(json["home"] as? String == shown(home))
    let lines = try #require(json["lines"] as? [String])
    #expect(lines == text.standardOutput.split(separator: "\n").map(String.init))
    #expect(lines.contains("inventory[app] 3B /Documents/Ditto.sqlite"))
    #expect(topLevelKeys(run.standardOutput) == ["container", "home", "lines"])
    let noHome = ToolRunner.run(["inventory", "--container", container, "--json"])
    #expect(noHome.json?["home"] is NSNull)
    let missing = ToolRunner.run(["inventory", "--container", folder.appending("x"), "--json"])
    #expect(missing.exitCode != 0)
    #expect(missing.json?["error"] is String)
  }
}
