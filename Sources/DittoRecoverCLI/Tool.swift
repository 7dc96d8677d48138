import BuildInfo
import Exchange
import Foundation
import JSONOutput

/// `ditto-recover`: its commands, in help order.
package enum Tool {
  package static let version = "3.0.2"

  /// The tool's definition: every subcommand, a typed tree (`backup` holds `list`, `recover`,
  /// `extract`).
  package static var definition: CommandLineTool {
    CommandLineTool(
      name: "ditto-recover", version: version, buildDetails: buildDetails,
      abstract: "Find, read and recover Ditto 2.x dittos from a container copied from a device.",
      discussion: """
        Legacy files are only ever read, on a private copy: nothing here deletes, renames or writes them.
        Logs go to standard error; results (or one JSON object with --json) to standard output.
        """,
      commands: [
        MigrateCommand.self, RecoverCommand.self, StatusCommand.self, InventoryCommand.self,
        InspectCommand.self, ExportCommand.self, ImportCommand.self, ExtractCommand.self,
        BackupCommand.self, SalvageCommand.self, OutcomesCommand.self, LogsCommand.self,
        GuideCommand.self, CompletionCommand.self,
      ])
  }

  /// The arguments the program runs with: alone on a terminal (a person, not a script), the
  /// guided recovery; anywhere else (a pipe, CI) `arguments` as given (no arguments: the help).
  package static func arguments(
    _ arguments: [String], standardInputIsTerminal: Bool, standardOutputIsTerminal: Bool
  ) -> [String] {
    guard arguments.isEmpty, standardInputIsTerminal, standardOutputIsTerminal else {
      return arguments
    }
    return [GuideCommand.name]
  }

  /// What `--version --verbose` adds: the commit and date a release was built from (scripts/release),
  /// and how the Swift runtime is linked.
  static var buildDetails: [(key: String, value: String?)] {
    let commit = String(cString: ditto_build_commit())
    let date = String(cString: ditto_build_date())
    return [("commit", commit.isEmpty ? nil : commit), ("built", date.isEmpty ? nil : date)]
  }

  /// Runs `ditto-recover` with `arguments` (without the program name) and returns the exit code;
  /// with a `refusal` (an argument the run cannot take), reports it instead of running.
  package static func main(
    _ arguments: [String], context: ToolContext, refusal: (any Error)? = nil
  ) -> Int32 {
    definition.main(arguments, context: context, refusal: refusal)
  }
}

/// A command-line tool in swift-argument-parser's manner: subcommands (or one command run
/// directly), `help`, `-h`/`--help`, `--version`, usage errors with the usage line (exit 64), runtime
/// errors as one `Error:` line with the exit code `ExitCode.of(_:)` gives. It never throws and never
/// prints a backtrace.
package struct CommandLineTool {
  package let name: String
  package let version: String
  /// What `--version --verbose` prints after the version, and `--version --json` adds: the
  /// build's commit and date (nil when unknown: not a release build).
  package let buildDetails: [(key: String, value: String?)]
  package let abstract: String
  package let discussion: String?
  /// The subcommands, in help order (empty for a tool that is one command: ``single``).
  package let commands: [any Command.Type]
  /// The command a single-command tool runs with all its arguments.
  package let single: (any Command.Type)?

  package init(
    name: String, version: String, buildDetails: [(key: String, value: String?)] = [],
    abstract: String,
    discussion: String?,
    commands: [any Command.Type] = [], single: (any Command.Type)? = nil
  ) {
    self.name = name
    self.version = version
    self.buildDetails = buildDetails
    self.abstract = abstract
    self.discussion = discussion
    self.commands = commands
    self.single = single
  }

  var root: CommandPath { CommandPath(tool: name, commands: []) }

  /// Runs the tool with `arguments` (without the program name) and returns the exit code; with a
  /// `refusal` (an argument the run cannot take), reports it as the run's error instead.
  package func main(_ arguments: [String], context: ToolContext, refusal: (any Error)? = nil)
    -> Int32
  {
    context.invocation = [name] + arguments
    let arguments = Self.commonFlagsMovedAfterTheCommand(arguments)
    // The one decision: text or JSON, for everything this run prints.
    context.isJSON = Self.asksForJSON(arguments)
    if let refusal { return failure(refusal, context) }
    if arguments.first == "--version" {
      let rest = arguments.dropFirst()
      if context.isJSON {
        var object: [String: JSONValue] = ["name": .string(name), "version": .string(version)]
        for detail in buildDetails { object[detail.key] = .optional(detail.value) }
        context.standardOutput.write(CommandOutput.json(.object(object)))
        return ExitCode.success.rawValue
      }
      let details = buildDetails.map {
        $0.key + ": " + ($0.value ?? "unknown (not a release build)")
      }
      context.standardOutput.write(
        ([version] + (rest.contains("--verbose") ? details : [])).joined(separator: "\n") + "\n")
      return ExitCode.success.rawValue
    }
    if let single {
      let path = CommandPath(tool: name, commands: [single], isSingleCommandTool: true)
      return dispatch(path, arguments: arguments, context: context)
    }
    guard let first = arguments.first, first != "-h", first != "--help" else {
      context.standardOutput.write(HelpFormatter.rootHelp(self))
      return ExitCode.success.rawValue
    }
    if first == "help" { return help(root, words: Array(arguments.dropFirst()), context) }
    guard let command = commands.first(where: { $0.name == first }) else {
      return usageFailure(Self.unknown(first), path: nil, arguments: arguments, context)
    }
    return dispatch(
      root.appending(command), arguments: Array(arguments.dropFirst()), context: context)
  }

  /// `--json` and `--verbose` anywhere on the line: given before the command (`--json --version`,
  /// `--json status …`), they are read as if given after it (before any `--`).
  static func commonFlagsMovedAfterTheCommand(_ arguments: [String]) -> [String] {
    let common: Set<String> = ["--json", "--verbose"]
    let leading = arguments.prefix { common.contains($0) }
    guard !leading.isEmpty, leading.count < arguments.count else { return arguments }
    var rest = Array(arguments.dropFirst(leading.count))
    let end = rest.firstIndex(of: "--") ?? rest.count
    rest.insert(contentsOf: leading, at: end)
    return rest
  }

  /// `help [<subcommand> …]`, `help help`, and `<group> help <subcommand>`.
  private func help(_ start: CommandPath, words: [String], _ context: ToolContext) -> Int32 {
    var path = start
    for (index, word) in words.enumerated() {
      if word == "help", index == 0, path.commands.isEmpty {
        context.standardOutput.write(HelpFormatter.helpHelp(self))
        return ExitCode.success.rawValue
      }
      let next: (any Command.Type)?
      if let command = path.command {
        next = command.subcommand(named: word)
      } else {
        next = commands.first { $0.name == word }
      }
      guard let next else {
        return usageFailure(
          UsageError("Unknown subcommand '\(word)'"), path: path.command == nil ? nil : path,
          arguments: words, context)
      }
      path = path.appending(next)
    }
    context.standardOutput.write(
      path.command == nil ? HelpFormatter.rootHelp(self) : HelpFormatter.help(for: path))
    return ExitCode.success.rawValue
  }

  /// Runs the command at `path` with the arguments after its name; a group hands them to one of
  /// its subcommands.
  private func dispatch(_ path: CommandPath, arguments: [String], context: ToolContext) -> Int32 {
    guard let command = path.command else { return ExitCode.failure.rawValue }
    if !command.subcommands.isEmpty {
      // Like swift-argument-parser: a group run bare, or with -h/--help, prints its help.
      guard let first = arguments.first, first != "-h", first != "--help" else {
        context.standardOutput.write(HelpFormatter.help(for: path))
        return ExitCode.success.rawValue
      }
      if first == "help" { return help(path, words: Array(arguments.dropFirst()), context) }
      guard let subcommand = command.subcommand(named: first) else {
        return usageFailure(Self.unknown(first), path: path, arguments: arguments, context)
      }
      return dispatch(
        path.appending(subcommand), arguments: Array(arguments.dropFirst()), context: context)
    }
    if Self.asksForHelp(arguments) {
      context.standardOutput.write(HelpFormatter.help(for: path))
      return ExitCode.success.rawValue
    }
    return run(path, command: command, arguments: arguments, context: context)
  }

  /// True when `-h` or `--help` comes before any `--`: after it every argument is positional, so
  /// `inspect -- --help` inspects a file named `--help`.
  static func asksForHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "-h" || argument == "--help" { return true }
    }
    return false
  }

  /// Whether `arguments` ask for JSON (`--json` before any `--`): the one rule, applied once per
  /// run (``main(_:context:)``; `ditto-recover`'s entry point applies it to set up its outputs).
  package static func asksForJSON(_ arguments: [String]) -> Bool {
    arguments.prefix(while: { $0 != "--" }).contains(CommonOptions.json.spec.synopsisName)
  }

  private func run(
    _ path: CommandPath, command: any Command.Type, arguments: [String], context: ToolContext
  ) -> Int32 {
    let instance: any Command
    do {
      let parsed = try ParsedArguments(arguments, specs: command.allOptions)
      context.isVerbose = parsed.isSet(CommonOptions.verbose)
      instance = try command.parse(parsed)
      context.command = command
    } catch {
      return usageFailure(error, path: path, arguments: arguments, context)
    }
    do {
      let output = try instance.run(context)
      context.clearProgress()
      try context.publishOutputs()
      return try output.print(
        to: context.standardOutput, errors: context.standardError, isJSON: context.isJSON
      ).rawValue
    } catch let error as UsageError {
      return usageFailure(error, path: path, arguments: arguments, context)
    } catch {
      return failure(error, context)
    }
  }

  /// One `Error:` line (the error's own words), and under `--json` one JSON object.
  private func failure(_ error: any Error, _ context: ToolContext) -> Int32 {
    context.clearProgress()
    let code = ExitCode.of(error)
    let message = ArgumentSpelling.described(error)
    context.printError(message)
    let next = (error as? any GuidedError)?.nextSteps ?? []
    for line in next.lines { context.standardError.write(line + "\n") }
    if context.isJSON {
      var object = FailureOutput(error: message, exitCode: code.rawValue, next: next)
      if let uncertain = error as? UncertainBackupChoice {
        object.newestDependsOn = uncertain.newestDependsOn
      }
      context.standardOutput.write(CommandOutput.json(JSONValue(encoding: object)))
    }
    return code.rawValue
  }

  private static func unknown(_ word: String) -> UsageError {
    UsageError(word.hasPrefix("-") ? "Unknown option '\(word)'" : "Unknown subcommand '\(word)'")
  }

  /// The usage error, the usage line and where to look (stderr, exit 64); under `--json` (given
  /// before any `--`) also one JSON object on standard output.
  private func usageFailure(
    _ error: UsageError, path: CommandPath?, arguments: [String], _ context: ToolContext
  ) -> Int32 {
    context.standardError.write("Error: \(error.message)\n")
    let shown = path ?? root
    context.standardError.write("Usage: \(shown.usage)\n")
    let more = shown.commands.isEmpty ? name : shown.invocation
    context.standardError.write("  See '\(more) --help' for more information.\n")
    if context.isJSON {
      let object = FailureOutput(error: error.message, exitCode: ExitCode.usage.rawValue)
      context.standardOutput.write(CommandOutput.json(JSONValue(encoding: object)))
    }
    return ExitCode.usage.rawValue
  }
}
