import DittoRecoverCLI
import Exchange
import Foundation
import SafeFiles
import StoreFixtures

/// `ditto-fixture`: the developer tool that makes test containers. Never shipped with
/// `ditto-recover`: what it writes (a `Ditto.store` with model hashes that are not the app's) must
/// never reach a device.
package enum FixtureTool {
  package static var definition: CommandLineTool {
    CommandLineTool(
      name: "ditto-fixture", version: Tool.version,
      abstract: FixtureCommand.abstract, discussion: nil, single: FixtureCommand.self)
  }

  /// Runs `ditto-fixture` with `arguments` (without the program name); returns the exit code.
  package static func main(_ arguments: [String], context: ToolContext) -> Int32 {
    definition.main(arguments, context: context)
  }
}

/// A container folder that looks like a device in a given state.
struct FixtureCommand: Command {
  static let name = "ditto-fixture"
  static let abstract =
    "Make a container folder that looks like a device in a given state (for tests only)."
  static var discussion: String? {
    "Scenarios:\n"
      + FixtureScenario.allCases.map {
        "  \($0.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.summary)"
      }
      .joined(separator: "\n")
      + "\nThe same seed always gives the same content. expected.json in the folder holds what a\nrecovery should import, in the shape of 'export --format json'. The Ditto.store written beside\nit (--library) is for ditto-recover and tests only: its model hashes are not the app's, so it\nmust never be loaded onto a device.\nWith --json: {\"out\", \"scenario\", \"summary\", \"expected\", \"categories\", \"dittos\"}."
  }
  /// The command's options, declared once.
  @Argument(
    .path(
      "out", value: "dir", help: "The folder to create (must not exist, or be empty).",
      required: true, kind: .folder))
  var out: String = ""
  @Argument(
    .choice("scenario", value: "name", help: "The device state to build.", required: true))
  var scenario: FixtureScenario = .intact2x
  @Argument(.count("categories", help: "Categories in the generated store (default: 4)."))
  var categories: Int = 4
  @Argument(.count("dittos-per-category", help: "Dittos in each category (default: 6)."))
  var dittosPerCategory: Int = 6
  @Argument(.count("seed", help: "Seed of the generated content (default: 1)."))
  var seed: Int = 1
  @Argument(
    .choice(
      "library", value: "kind",
      help:
        "The Ditto.store beside it: none, empty (as the app creates it) or presets (default: the scenario's). For tests only: never load it onto a device."
    ))
  var library: FixtureScenario.Library?

  var parameters: FixtureScenario.Parameters {
    FixtureScenario.Parameters(
      categories: categories, dittosPerCategory: dittosPerCategory, seed: UInt64(seed),
      library: library)
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    if let status = try FileStatus.of(path: out) {
      let isEmptyFolder =
        try status.kind == .directory
        && FileManager.default.contentsOfDirectory(atPath: out).isEmpty
      guard isEmptyFolder else {
        throw OutputError.exists(
          "\(out) already exists and is not an empty folder; nothing was written")
      }
    }
    let expected = try scenario.build(at: out, parameters: parameters)
    return .result(
      FixtureOutput(
        out: out, scenario: scenario.rawValue, summary: scenario.summary,
        expected: out + "/expected.json", categories: expected.categories.count,
        dittos: expected.dittoCount),
      text:
        "made \(scenario.rawValue) in \(out): \(scenario.summary)\nexpected import: \(expected.dittoCount) dittos in \(expected.categories.count) categories (expected.json)\n"
    )
  }
}

/// `ditto-fixture --json`: the container made, its scenario and what importing it gives.
struct FixtureOutput: Encodable {
  let out: String
  let scenario: String
  let summary: String
  let expected: String
  let categories: Int
  let dittos: Int
}
