import Foundation
import SafeFiles
import StoreFixtures
import Testing

@testable import DittoRecoverCLI

/// A next step built from the declarations (``Invocation``) names a command of the tool and
/// options it takes: its words walk the tool's tree to the command meant, parse back with that
/// command's own options into the values given, and, printed, a POSIX shell reads them back word
/// for word. Over generated paths (spaces, quotes, `$`, a leading dash, non-ASCII).
@Suite struct InvocationFamilyTests {
  /// A path as a user may have one: absolute, with any of the characters a shell treats apart.
  static func path(_ generator: inout SeededGenerator) -> String {
    let pieces = ["a", "Ditto", " ", "'", "\"", "$HOME", "`x`", "-", "é", "☃", "#", "\\", "*", ";"]
    let name = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
      pieces.randomElement(using: &generator)!
    }.joined()
    let leading = Bool.random(using: &generator) ? "-" : ""
    return "/tmp/\(leading)\(name)/Ditto.sqlite"
  }

  /// The command `words` name, walking the tool's tree, and the words after its name.
  static func command(of words: [String]) -> (any Command.Type, [String])? {
    var commands = Tool.definition.commands
    var found: (any Command.Type)?
    var rest = words[...]
    while let word = rest.first, let next = commands.first(where: { $0.name == word }) {
      found = next
      commands = next.subcommands
      rest = rest.dropFirst()
    }
    return found.map { ($0, Array(rest)) }
  }

  @Test func everyNextStepParsesBackIntoTheValuesGiven() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x1A40))
    for _ in 0..<40 {
      let (file, library, backup) = (
        Self.path(&generator), Self.path(&generator), Self.path(&generator)
      )
      let password = Bool.random(using: &generator) ? Self.path(&generator) : nil
      // Each helper, the command it must name, and the values the command must read back.
      let cases: [(Invocation, any Command.Type, [String: String])] = [
        (.status(container: file), StatusCommand.self, ["container": file]),
        (.status(from: file), StatusCommand.self, ["from": file]),
        (
          .recover(from: file, library: library), RecoverCommand.self,
          ["from": file, "library": library]
        ),
        (
          .export(legacy: file, format: "csv"), ExportCommand.self,
          ["legacy": file, "format": "csv"]
        ),
        (
          .export(library: library, format: "json"), ExportCommand.self,
          ["library": library, "format": "json"]
        ),
        (.salvage(file), SalvageCommand.self, ["path": file]),
        (.salvage(file, format: "csv"), SalvageCommand.self, ["path": file, "format": "csv"]),
        (
          .backupExtract(backup, passwordFile: password), BackupExtractCommand.self,
          ["backup": backup].merging(password.map { ["password-file": $0] } ?? [:]) { $1 }
        ),
      ]
      for (invocation, expected, values) in cases {
        let (command, rest) = try #require(Self.command(of: invocation.words))
        #expect(ObjectIdentifier(command) == ObjectIdentifier(expected), "\(invocation.words)")
        // A word the command does not take would throw here.
        let parsed = try ParsedArguments(rest, specs: command.allOptions)
        for (name, value) in values {
          let read = try parsed.value(of: Option<String>.text(name, value: "v", help: ""))
          #expect(read == value, "\(name) in \(invocation.words)")
        }
      }
    }
  }

  @Test func aPrintedNextStepIsReadBackWordForWordByTheShell() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x1A41))
    for _ in 0..<12 {
      let invocation = Invocation.recover(
        from: Self.path(&generator), library: Self.path(&generator))
      let step = NextStep.command(invocation, label: "a label")
      // The line as pasted (its label a comment), each word printed on a line of its own.
      let script = "set -- \(step.pasteable)\nfor word in \"$@\"; do printf '%s\\n' \"$word\"; done"
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", script]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let words = String(decoding: output, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast().map(String.init)
      #expect(words == invocation.commandLine, "\(step.pasteable)")
    }
  }
}
