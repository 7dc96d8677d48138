import Exchange

/// The `ditto-recover` command-line tool: a table of subcommands and their dispatch.
///
/// `main` never throws and never prints a backtrace: usage errors exit 64 with the usage line, runtime
/// errors print one `Error:` line, and each command maps its outcome to an ``ExitCode``.
public enum Tool {
  public static let version = "3.0.2"
  static let abstract =
    "Find, read and recover Ditto 2.x dittos from a container copied from a device."
  static let discussion = """
    Legacy files are only ever read, on a private copy: nothing here deletes, renames or writes them.
    Logs go to standard error; results (or one JSON object with --json) to standard output.
    """

  /// Every subcommand, in help order.
  public static var commands: [any Command.Type] {
    [
      MigrateCommand.self, RecoverCommand.self, StatusCommand.self, InventoryCommand.self,
      InspectCommand.self, ExportCommand.self, ImportCommand.self, ExtractCommand.self,
      BackupCommand.self,
      SalvageCommand.self, FixtureCommand.self, OutcomesCommand.self,
    ]
  }

  /// Runs the tool with `arguments` (without the program name) and returns the exit code.
  public static func main(_ arguments: [String], context: ToolContext) -> Int32 {
    guard let first = arguments.first else {
      context.standardOutput.write(HelpFormatter.rootHelp(commands: commands))
      return ExitCode.success.rawValue
    }
    switch first {
    case "-h", "--help":
      context.standardOutput.write(HelpFormatter.rootHelp(commands: commands))
      return ExitCode.success.rawValue
    case "--version":
      context.standardOutput.write(version + "\n")
      return ExitCode.success.rawValue
    case "help":
      guard arguments.count > 1 else {
        context.standardOutput.write(HelpFormatter.rootHelp(commands: commands))
        return ExitCode.success.rawValue
      }
      guard var command = command(named: arguments[1]) else {
        return usageFailure(
          UsageError("Unknown subcommand '\(arguments[1])'"), command: nil, context)
      }
      for name in arguments.dropFirst(2) {
        guard let nested = command.subcommand(named: name) else {
          return usageFailure(
            UsageError("Unknown subcommand '\(name)'"), command: command, context)
        }
        command = nested
      }
      context.standardOutput.write(HelpFormatter.help(for: command))
      return ExitCode.success.rawValue
    default:
      break
    }
    guard let command = command(named: first) else {
      let message =
        first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
      return usageFailure(UsageError(message), command: nil, context)
    }
    return dispatch(command, arguments: Array(arguments.dropFirst()), context: context)
  }

  /// Runs `command` with the arguments after its name; a group hands them to one of its subcommands.
  private static func dispatch(
    _ command: any Command.Type, arguments: [String], context: ToolContext
  ) -> Int32 {
    if !command.subcommands.isEmpty {
      // Like swift-argument-parser: a group run bare, or with -h/--help, prints its help.
      guard let first = arguments.first, first != "-h", first != "--help" else {
        context.standardOutput.write(HelpFormatter.help(for: command))
        return ExitCode.success.rawValue
      }
      guard let subcommand = command.subcommand(named: first) else {
        let message =
          first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
        return usageFailure(UsageError(message), command: command, context)
      }
      return dispatch(subcommand, arguments: Array(arguments.dropFirst()), context: context)
    }
    if asksForHelp(arguments) {
      context.standardOutput.write(HelpFormatter.help(for: command))
      return ExitCode.success.rawValue
    }
    return run(command, arguments: arguments, context: context)
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

  private static func run(_ command: any Command.Type, arguments: [String], context: ToolContext)
    -> Int32
  {
    let instance: any Command
    do {
      let parsed = try ParsedArguments(arguments, specs: command.options)
      context.isVerbose = parsed.flag("verbose")
      context.isJSON = parsed.flag("json")
      instance = try command.init(arguments: parsed)
    } catch {
      return usageFailure(error, command: command, context)
    }
    do {
      return try instance.run(context).rawValue
    } catch let error as UsageError {
      return usageFailure(error, command: command, context)
    } catch let error as CommandFailure {
      return failure(error.message, exitCode: error.exitCode, context)
    } catch {
      return failure("\(error)", exitCode: .failure, context)
    }
  }

  private static func failure(_ message: String, exitCode: ExitCode, _ context: ToolContext)
    -> Int32
  {
    context.printError(message)
    if context.isJSON {
      let object: JSONValue = .object([
        "error": .string(message), "exitCode": .number(exitCode.rawValue),
      ])
      context.standardOutput.write(object.rendered() + "\n")
    }
    return exitCode.rawValue
  }

  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  private static func usageFailure(
    _ error: UsageError, command: (any Command.Type)?, _ context: ToolContext
  ) -> Int32 {
    context.standardError.write("Error: \(error.message)\n")
    if let command {
      context.standardError.write("Usage: \(command.usage)\n")
      context.standardError.write(
        "  See 'ditto-recover \(command.qualifiedName) --help' for more information.\n")
    } else {
      context.standardError.write("Usage: ditto-recover <subcommand>\n")
      context.standardError.write("  See 'ditto-recover --help' for more information.\n")
    }
    return ExitCode.usage.rawValue
  }
}

/// A runtime error a command reports as one `Error:` line with a chosen exit code.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
  public let message: String
  public let exitCode: ExitCode

  public init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}
