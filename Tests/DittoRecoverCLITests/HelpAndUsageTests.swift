import DittoRecoverCLI
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

  @Test(arguments: Tool.commands.map { $0.name })
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

        USAGE: ditto-recover migrate --container <dir> [--home <dir>] [--library <file>] [--json] [--verbose]

        OPTIONS:
          --container <dir>     The App Group container folder copied from the device.
          --home <dir>          The app's own data container (its Library and Documents), if copied.
          --library <file>      The app's library, a Ditto 3.x Ditto.store (default: <container>/Ditto.store).
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
        Usage: ditto-recover migrate --container <dir> [--home <dir>] [--library <file>] [--json] [--verbose]
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
}
