import DittoRecoverCLI
import Exchange
import Foundation
import SafeFiles
import StoreFixtures

/// `ditto-fixture`: the developer tool that makes test containers. Never shipped with
/// `ditto-recover`: what it writes (a `Ditto.store` with model hashes that are not the app's) must
/// never reach a device.
public enum FixtureTool {
  public static var definition: CommandLineTool {
    CommandLineTool(
      name: "ditto-fixture", version: Tool.version,
      abstract: FixtureCommand.abstract, discussion: nil, single: FixtureCommand.self)
  }

  /// Runs `ditto-fixture` with `arguments` (without the program name); returns the exit code.
  public static func main(_ arguments: [String], context: ToolContext) -> Int32 {
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
  enum Options {
    static let out = Option<String>.path(
      "out", value: "dir", help: "The folder to create (must not exist, or be empty).",
      required: true, kind: .folder)
    static let scenario = Option<FixtureScenario>.choice(
      "scenario", value: "name", help: "The device state to build.", required: true)
    static let categories = Option<Int>.count(
      "categories", help: "Categories in the generated store (default: 4).")
    static let dittosPerCategory = Option<Int>.count(
      "dittos-per-category", help: "Dittos in each category (default: 6).")
    static let seed = Option<Int>.count("seed", help: "Seed of the generated content (default: 1).")
    static let library = Option<FixtureScenario.Library>.choice(
      "library", value: "kind",
      help:
        "The Ditto.store beside it: none, empty (as the app creates it) or presets (default: the scenario's). For tests only: never load it onto a device."
    )
  }

  static let options = [
    Options.out.spec, Options.scenario.spec, Options.categories.spec,
    Options.dittosPerCategory.spec, Options.seed.spec, Options.library.spec,
  ]

  let out: String
  let scenario: FixtureScenario
  let parameters: FixtureScenario.Parameters
  let json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    out = try arguments.value(of: Options.out) ?? ""
    scenario = try arguments.value(of: Options.scenario) ?? .intact2x
    parameters = FixtureScenario.Parameters(
      categories: try arguments.value(of: Options.categories) ?? 4,
      dittosPerCategory: try arguments.value(of: Options.dittosPerCategory) ?? 6,
      seed: UInt64(try arguments.value(of: Options.seed) ?? 1),
      library: try arguments.value(of: Options.library))
    json = arguments.isSet(CommonOptions.json)
  }

  func run(_ context: ToolContext) throws -> ExitCode {
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
    if json {
      let object: JSONValue = .object([
        "out": .string(out), "scenario": .string(scenario.rawValue),
        "summary": .string(scenario.summary), "expected": .string(out + "/expected.json"),
        "categories": .number(expected.categories.count), "dittos": .number(expected.dittoCount),
      ])
      context.standardOutput.write(object.rendered() + "\n")
      return .success
    }
    context.standardOutput.write(
      "made \(scenario.rawValue) in \(out): \(scenario.summary)\nexpected import: \(expected.dittoCount) dittos in \(expected.categories.count) categories (expected.json)\n"
    )
    return .success
  }
}
