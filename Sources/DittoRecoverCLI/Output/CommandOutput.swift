import Exchange
import Foundation
import JSONOutput

/// What a command gives back: its result for standard output, its exit code, and the lines that
/// follow the result on standard error. The tool prints it once (``CommandLineTool``): one JSON
/// object under `--json`, the text otherwise, decided once for the run.
package struct CommandOutput {
  /// What standard output gets.
  package enum Body {
    /// A result: `value` as one JSON object (written in `style`) under `--json`, `text`
    /// otherwise. Only the one printed is built.
    case result(() -> any Encodable, style: JSONValue.Style, text: () -> String)
    /// Bytes the command streams in either mode (an export, log entries, a script): the tool hands
    /// it standard output, and its exit code is what the stream returns.
    case stream((any TextOutput) throws -> ExitCode)
  }

  /// What standard output gets.
  package var body: Body
  /// The exit code of a result (a stream returns its own).
  package var exitCode: ExitCode
  /// Lines printed on standard error once the result is out (next steps that follow a listing).
  package var trailer: [String]

  /// A result: `value` under `--json`, `text` (as it is, line breaks included) otherwise; only
  /// the one printed is built (both are expressions evaluated when printed).
  package static func result(
    _ value: @autoclosure @escaping () -> any Encodable, text: @autoclosure @escaping () -> String,
    exitCode: ExitCode = .success, trailer: [String] = [], jsonStyle: JSONValue.Style = .indented
  ) -> CommandOutput {
    CommandOutput(
      body: .result(value, style: jsonStyle, text: text), exitCode: exitCode, trailer: trailer)
  }

  /// A stream written to standard output by `body`, which returns the exit code.
  package static func stream(_ body: @escaping (any TextOutput) throws -> ExitCode)
    -> CommandOutput
  {
    CommandOutput(body: .stream(body), exitCode: .success, trailer: [])
  }

  /// `value` as the run writes a JSON object on standard output: every argument reached through
  /// a stand-in named as typed (``ArgumentSpelling``), then `style`, then a line break.
  static func json(_ value: JSONValue, _ style: JSONValue.Style = .indented) -> String {
    value.mappingStrings(ArgumentSpelling.shown(path:)).rendered(style) + "\n"
  }

  /// Prints this output: the result (JSON or text, as `isJSON` says) or the stream, then the
  /// trailer. Returns the exit code; throws what a stream throws.
  func print(to output: any TextOutput, errors: any TextOutput, isJSON: Bool) throws -> ExitCode {
    let code: ExitCode
    switch body {
    case .result(let value, let style, let text):
      output.write(isJSON ? Self.json(JSONValue(encoding: value()), style) : text())
      code = exitCode
    case .stream(let write):
      code = try write(output)
    }
    for line in trailer { errors.write(line + "\n") }
    return code
  }
}
