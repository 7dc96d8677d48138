import Telemetry

/// What a running command may use: its output streams and its logger.
package final class ToolContext {
  /// Standard output: results (text or the one JSON object).
  package let standardOutput: TextOutput
  /// Standard error: logs, progress and error lines.
  package let standardError: TextOutput
  /// Extra log handler (tests capture records here); the stderr handler is always used.
  package let extraLogHandler: (any LogHandler)?
  /// Set by `--verbose`: info-level lines reach standard error.
  package var isVerbose = false
  /// Set by `--json` (given before any `--`), decided once for the run by the tool: results are
  /// one JSON object, and a failure is reported as `{"error": …}` on standard output.
  package internal(set) var isJSON = false
  /// The command line as typed (the tool's name first), for "run it again" advice.
  package var invocation: [String] = []
  /// The command this run is, once its arguments are parsed (nil before, and for the tool's own
  /// help and version).
  package internal(set) var command: (any Command.Type)?

  /// This run's command and its command line, for advice that changes "the same command".
  var running: RunningCommand { RunningCommand(command: command, words: invocation) }
  /// True when standard error is a terminal a person watches (set by the program's `main`): only
  /// then is progress shown, and never with `--json`.
  package var errorIsTerminal = false
  /// Run once a command has returned, before its result is printed: gives outputs written under
  /// a stand-in name their own (``RawArguments/publishOutputs()``); an error is the run's.
  package var publishOutputs: () throws -> Void = {}
  /// The folder to make that an argument stands for, when its name is not valid UTF-8
  /// (``RawArguments/folderName(standingFor:)``).
  package var folderName: (String) -> RawFolderName? = { _ in nil }
  /// True when a library path is reached through a second name of its files
  /// (``RawArguments/isLinkedLibrary(_:)``).
  package var isLinkedLibrary: (String) -> Bool = { _ in false }
  /// True when standard output is a terminal (set by the program's `main`): a command that
  /// streams its results there shows no progress line between them.
  package var outputIsTerminal = false

  /// True when a long command shows its progress line.
  var showsProgress: Bool { errorIsTerminal && !isJSON }

  /// Replaces the progress line on standard error with `text` (one terminal line, rewritten in
  /// place); nothing unless ``showsProgress``.
  func showProgress(_ text: String) {
    guard showsProgress else { return }
    standardError.write("\r\u{1B}[K" + text)
    isProgressShown = true
  }

  /// Clears the progress line, when one is shown.
  func clearProgress() {
    guard isProgressShown else { return }
    standardError.write("\r\u{1B}[K")
    isProgressShown = false
  }

  /// True while a progress line is on the terminal.
  private var isProgressShown = false

  package init(
    standardOutput: TextOutput, standardError: TextOutput, extraLogHandler: (any LogHandler)? = nil
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.extraLogHandler = extraLogHandler
  }

  /// The migrator's logger: stderr at notice (info with `--verbose`), plus the extra handler.
  package var logger: EngineLogger {
    let stderr = ContextLogHandler(output: standardError, minimumLevel: isVerbose ? .info : .notice)
    let handler: any LogHandler =
      extraLogHandler.map { MultiplexLogHandler([stderr, $0]) } ?? stderr
    return EngineLogger.legacyDataMigrator(logLevel: .info, handler: handler)
  }

  /// Prints `Error: <message>` on standard error.
  package func printError(_ message: String) {
    standardError.write("Error: \(message)\n")
  }

  /// Writes part of an interactive command's dialogue (a question, a line of the guide) on
  /// standard output as it happens: the one command that converses (`guide`) has no result to
  /// print at the end but its last words.
  func converse(_ text: String) {
    standardOutput.write(text)
  }

  /// Prints one diagnostic line on standard error, as it happens (a warning, a note, progress):
  /// never part of the result, in either mode.
  package func diagnose(_ line: String) {
    // Over a progress line, if one is shown: it is redrawn by its next update.
    standardError.write((isProgressShown ? "\r\u{1B}[K" : "") + line + "\n")
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
      .replacingScalar("\n", with: "\\n")
    let prefix = record.level >= .error ? "error: " : record.level == .warning ? "warning: " : ""
    output.write(prefix + text + "\n")
  }
}

extension String {
  /// This string with every `target` scalar replaced, scalar by scalar: a quote or a line feed
  /// followed by a combining mark is one `Character`, so `replacingOccurrences(of:with:)`, which
  /// compares Characters, would leave it in place (a quote that ends a shell word, a line break
  /// in a one-line log).
  func replacingScalar(_ target: Unicode.Scalar, with replacement: String) -> String {
    guard unicodeScalars.contains(target) else { return self }
    var result = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if scalar == target {
        result.append(contentsOf: replacement.unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}

/// One subcommand of a tool (`migrate`, `backup list`).
package protocol Command {
  /// The subcommand name (`migrate`).
  static var name: String { get }
  /// One sentence for the subcommand list and the help's OVERVIEW.
  static var abstract: String { get }
  /// More help, shown under the overview.
  static var discussion: String? { get }
  /// Nested subcommands (`backup list`); a command with any is a group and is never run itself.
  static var subcommands: [any Command.Type] { get }

  /// The command with its declarations (``Argument`` properties) and nothing read yet; its
  /// options are those properties, in declaration order (the tool adds ``CommonOptions``).
  init()

  /// Checks across options, once every declared argument is read.
  func validate() throws(UsageError)

  /// Runs the command and returns its output; the tool prints it (commands never write to
  /// standard output themselves; diagnostics go through ``ToolContext/diagnose(_:)``).
  func run(_ context: ToolContext) throws -> CommandOutput
}

extension Command {
  package static var discussion: String? { nil }
  package static var subcommands: [any Command.Type] { [] }
  package func validate() throws(UsageError) {}

  /// Every option the command parses: its own, then the common ones.
  static var allOptions: [OptionSpec] { options + CommonOptions.specs }

  /// The subcommand of this group called `name`.
  static func subcommand(named name: String) -> (any Command.Type)? {
    subcommands.first { $0.name == name }
  }
}

/// Where a command sits in its tool: `backup list` is the tool's `backup` group, then `list`.
package struct CommandPath {
  /// The tool's own name (`ditto-recover`).
  package let tool: String
  /// From the top-level command to this one; empty for the tool itself.
  package let commands: [any Command.Type]
  /// True for a tool that is one command (`ditto-fixture`): its name is not typed.
  package let isSingleCommandTool: Bool

  package init(tool: String, commands: [any Command.Type], isSingleCommandTool: Bool = false) {
    self.tool = tool
    self.commands = commands
    self.isSingleCommandTool = isSingleCommandTool
  }

  /// The command this path ends at (nil for the tool itself).
  package var command: (any Command.Type)? { commands.last }

  /// The words after the tool's name (`backup list`).
  package var words: String { commands.map { $0.name }.joined(separator: " ") }

  /// The words that run it (`ditto-recover backup list`).
  package var invocation: String {
    if isSingleCommandTool { return tool }
    return ([tool] + commands.map { $0.name }).joined(separator: " ")
  }

  /// This path, one level down.
  func appending(_ command: any Command.Type) -> CommandPath {
    CommandPath(tool: tool, commands: commands + [command])
  }

  /// `ditto-recover migrate --container <dir> [--home <dir>] …`; `… backup <subcommand>` for a group.
  var usage: String {
    guard let command else { return "\(tool) <subcommand>" }
    if !command.subcommands.isEmpty { return "\(invocation) <subcommand>" }
    return ([invocation] + command.allOptions.map(\.usageFragment)).joined(separator: " ")
  }
}
