import Foundation
import Testing

/// Commands return their output and the tool prints it once: no command, rendering or option
/// group writes to standard output or standard error itself (diagnostics go through
/// `ToolContext.diagnose`, results through `CommandOutput`).
@Suite struct CommandOutputTests {
  /// Where commands and what they print live; `Tool.swift`, `Command.swift` (the context) and
  /// `TextOutput.swift` (the streams themselves) are the only places that touch the streams.
  static let folders = [
    "Sources/DittoRecoverCLI/Commands", "Sources/DittoRecoverCLI/Output",
    "Sources/DittoRecoverCLI/Parsing", "Sources/FixtureTool",
  ]

  /// `file:line` of each line that names a stream of the context.
  static func writes(in text: String, file: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      index, line in
      let code = line.trimmingCharacters(in: .whitespaces)
      guard !code.hasPrefix("//") else { return nil }
      return code.contains("context.standardOutput") || code.contains("context.standardError")
        ? "\(file):\(index + 1)" : nil
    }
  }

  @Test func noCommandWritesToItsStreams() throws {
    var found: [String] = []
    var files = 0
    for folder in Self.folders {
      let names = try FileManager.default.subpathsOfDirectory(atPath: folder)
      for name in names where name.hasSuffix(".swift") && name != "TextOutput.swift" {
        let path = folder + "/" + name
        files += 1
        found += Self.writes(in: try String(contentsOfFile: path, encoding: .utf8), file: path)
      }
    }
    #expect(files > 30)
    #expect(found.isEmpty, "\(found)")
  }

  @Test func theCheckFindsAWrite() {
    let text = """
      // context.standardOutput.write("a comment")
      func run(_ context: ToolContext) {
        context.standardError.write("x\\n")
      }
      """
    #expect(Self.writes(in: text, file: "x.swift") == ["x.swift:3"])
  }
}
