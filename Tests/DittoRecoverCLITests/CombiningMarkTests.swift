import EngineTestSupport
import Foundation
import TestSupport
import Testing

@testable import DittoRecoverCLI
@testable import OutcomeReport

/// A quote, a `<` or a line feed followed by a combining mark is one Swift `Character`, so code that
/// compares Characters (and Foundation's `replacingOccurrences`) leaves it in place. Every escape
/// the tool prints works scalar by scalar.
@Suite struct CombiningMarkTests {
  static let hostile = "x'\u{301}; echo pwned > hacked #\n\u{301}<\u{301}script>"

  @Test func aShellWordStaysOneWordWhenPasted() throws {
    let folder = try TemporaryDirectory("shell-word")
    let quoted = ShellWord.quote(Self.hostile)
    let run = try ToolRun.shell("printf '%s' \(quoted)", in: folder.path)
    #expect(run.exitCode == 0)
    #expect(run.standardOutput == Self.hostile)
    #expect(!FileManager.default.fileExists(atPath: folder.appending("hacked")))
  }

  @Test func aLogLineStaysOneLine() {
    #expect(!"a\n\u{301}b".replacingScalar("\n", with: "\\n").unicodeScalars.contains("\n"))
  }

  @Test func htmlNeverHoldsARawAngleBracketOrQuote() {
    let escaped = OutcomeSummary.escape(Self.hostile)
    for raw in ["<", ">", "'"] {
      #expect(!escaped.unicodeScalars.contains(Unicode.Scalar(raw)!), "\(raw) in \(escaped)")
    }
  }
}
