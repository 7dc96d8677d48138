import Telemetry

/// What a running command may use: its output streams and its logger.
public final class ToolContext {
  /// Standard output: results (text or the one JSON object).
  public let standardOutput: TextOutput
  /// Standard error: logs, progress and error lines.
  public let standardError: TextOutput
  /// Extra log handler (tests capture records here); the stderr handler is always used.
  public let extraLogHandler: (any LogHandler)?
  /// Set by `--verbose`: info-level lines reach standard error.
  public var isVerbose = false
  /// Set by `--json`: a failure is also reported as `{"error": …}` on standard output.
  public var isJSON = false

  public init(
    standardOutput: TextOutput, standardError: TextOutput, extraLogHandler: (any LogHandler)? = nil
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.extraLogHandler = extraLogHandler
  }

  /// The migrator's logger: stderr at notice (info with `--verbose`), plus the extra handler.
  public var logger: EngineLogger {
    let stderr = ContextLogHandler(output: standardError, minimumLevel: isVerbose ? .info : .notice)
    let handler: any LogHandler =
      extraLogHandler.map { MultiplexLogHandler([stderr, $0]) } ?? stderr
    return EngineLogger.legacyDataMigrator(logLevel: .info, handler: handler)
  }

  /// Prints `Error: <message>` on standard error.
  public func printError(_ message: String) {
    standardError.write("Error: \(message)\n")
  }
}

/// A log handler writing redacted lines to a context's standard error.
struct ContextLogHandler: LogHandler, @unchecked Sendable {
  // TextOutput is a class used from one thread per command run.
  let output: TextOutput
  let minimumLevel: LogLevel

  func log(_ record: LogRecord) {
    guard record.level >= minimumLevel else { return }
    let text = record.message.rendered(redactingPrivate: true)
      .replacingOccurrences(of: "\n", with: "\\n")
    let prefix = record.level >= .error ? "error: " : record.level == .warning ? "warning: " : ""
    output.write(prefix + text + "\n")
  }
}

extension String {
  func replacingOccurrences(of target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}

/// One subcommand of `ditto-recover`.
public protocol Command {
  /// The subcommand name (`migrate`).
  static var name: String { get }
  /// One sentence for the subcommand list and the help's OVERVIEW.
  static var abstract: String { get }
  /// More help, shown under the overview.
  static var discussion: String? { get }
  /// Options and positionals, in help order.
  static var options: [OptionSpec] { get }
  /// Nested subcommands (`backup list`); a command with any is a group and is never run itself.
  static var subcommands: [any Command.Type] { get }
  /// The group this command belongs to (`backup` for `backup list`), nil at the top level.
  static var parentName: String? { get }

  /// Checks the parsed arguments.
  init(arguments: ParsedArguments) throws(UsageError)

  /// Runs the command.
  func run(_ context: ToolContext) throws -> ExitCode
}

extension Command {
  public static var discussion: String? { nil }
  public static var subcommands: [any Command.Type] { [] }
  public static var parentName: String? { nil }

  /// The words after `ditto-recover` that name this command (`migrate`, `backup list`).
  public static var qualifiedName: String {
    parentName.map { "\($0) \(name)" } ?? name
  }

  /// `ditto-recover migrate --container <dir> [--home <dir>] …`; `ditto-recover backup <subcommand>`
  /// for a group.
  public static var usage: String {
    if !subcommands.isEmpty { return "ditto-recover \(qualifiedName) <subcommand>" }
    return (["ditto-recover", qualifiedName] + options.map(\.usageFragment)).joined(separator: " ")
  }

  /// The subcommand of this group called `name`.
  static func subcommand(named name: String) -> (any Command.Type)? {
    subcommands.first { $0.name == name }
  }
}
