import Foundation
import Testing

@testable import DittoRecoverCLI

/// `docs/CLI.md` and README's "commands at a glance" are made from the commands' own declarations
/// (every subcommand, nested ones too, every argument and option with its help): a command or an
/// option added without its entry fails here. `scripts/cli-reference` rewrites both.
@Suite struct CLIReferenceTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static let glanceBegin = "<!-- commands:begin (made by scripts/cli-reference) -->"
  static let glanceEnd = "<!-- commands:end -->"

  /// Every command path, depth first, in help order.
  static func paths() -> [CommandPath] {
    let tool = Tool.definition
    var paths: [CommandPath] = []
    func add(_ path: CommandPath) {
      paths.append(path)
      for sub in path.command?.subcommands ?? [] { add(path.appending(sub)) }
    }
    for command in tool.commands { add(CommandPath(tool: tool.name, commands: [command])) }
    return paths
  }

  /// The reference part of `docs/CLI.md`: the tool's help, then each command's, as `help` prints
  /// them.
  static func commandReference() -> String {
    let tool = Tool.definition
    var text = "## `\(tool.name)`\n\n```text\n\(HelpFormatter.rootHelp(tool))```\n"
    for path in paths() {
      text += "\n## `\(path.invocation)`\n\n```text\n\(HelpFormatter.help(for: path))```\n"
    }
    return text
  }

  /// README's commands at a glance: one line each.
  static func glance() -> String {
    paths().filter { $0.command?.subcommands.isEmpty ?? true }.map { path in
      "- [`\(path.invocation)`](docs/CLI.md#\(anchor(path.invocation))): \(path.command?.abstract ?? "")"
    }.joined(separator: "\n") + "\n"
  }

  /// GitHub's anchor of a heading `` `text` ``.
  static func anchor(_ text: String) -> String {
    String(
      text.lowercased().unicodeScalars.compactMap { scalar -> Character? in
        if scalar == " " { return "-" }
        if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" {
          return Character(scalar)
        }
        return nil
      })
  }

  static func generated() throws -> (cli: String, readme: String) {
    let template = try String(contentsOfFile: root + "/docs/CLI.template.md", encoding: .utf8)
    let cli =
      "<!-- Generated from docs/CLI.template.md and the commands' declarations by scripts/cli-reference: edit those, then run it. -->\n"
      + template.replacingOccurrences(of: "{{commands}}", with: commandReference())
    let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    guard let begin = readme.range(of: glanceBegin), let end = readme.range(of: glanceEnd),
      begin.upperBound <= end.lowerBound
    else { return (cli, readme) }
    return (
      cli, String(readme[..<begin.upperBound]) + "\n" + glance() + String(readme[end.lowerBound...])
    )
  }

  @Test func theCLIReferenceAndTheGlanceAreTheDeclarations() throws {
    let (cli, readme) = try Self.generated()
    if ProcessInfo.processInfo.environment["DITTO_UPDATE_DOCS"] == "1" {
      try cli.write(toFile: Self.root + "/docs/CLI.md", atomically: true, encoding: .utf8)
      try readme.write(toFile: Self.root + "/README.md", atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOfFile: Self.root + "/docs/CLI.md", encoding: .utf8)
    #expect(
      committed == cli, "docs/CLI.md is not what the commands declare: run scripts/cli-reference")
    let committedReadme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    #expect(
      committedReadme.contains(Self.glanceBegin), "README.md has no commands-at-a-glance block")
    #expect(
      committedReadme == readme,
      "README.md's commands at a glance are not what the commands declare: run scripts/cli-reference"
    )
    // Every option of every command is in the reference.
    for path in Self.paths() {
      for option in path.command?.allOptions ?? [] {
        #expect(committed.contains(option.synopsis), "\(path.invocation) \(option.synopsis)")
      }
    }
  }
}
