import Exchange
import Foundation
import SafeFiles
import StoreFixtures

/// `ditto-recover fixture`: a container folder that looks like a device in a given state.
struct FixtureCommand: Command {
  static let name = "fixture"
  static let abstract = "Make a container folder that looks like a device in a given state."
  static var discussion: String? {
    "Scenarios:\n"
      + FixtureScenario.allCases.map {
        "  \($0.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.summary)"
      }
      .joined(separator: "\n")
      + "\nThe same seed always gives the same content. expected.json in the folder holds what a\nrecovery should import, in the shape of 'export --format json'. The Ditto.store written beside\nit (--library) is for ditto-recover and tests only: its model hashes are not the app's, so it\nmust never be loaded onto a device.\nWith --json: {\"out\", \"scenario\", \"summary\", \"expected\", \"categories\", \"dittos\"}."
  }
  static let options: [OptionSpec] = [
    .path(
      "out", value: "dir", help: "The folder to create (must not exist, or be empty).",
      required: true),
    .option(
      "scenario", value: "name", help: "The device state to build.", required: true,
      allowed: FixtureScenario.allCases.map(\.rawValue)),
    .option("categories", value: "n", help: "Categories in the generated store (default: 4)."),
    .option("dittos-per-category", value: "n", help: "Dittos in each category (default: 6)."),
    .option("seed", value: "n", help: "Seed of the generated content (default: 1)."),
    .option(
      "library", value: "kind",
      help:
        "The Ditto.store beside it: none, empty (as the app creates it) or presets (default: the scenario's). For tests only: never load it onto a device.",
      allowed: FixtureScenario.Library.allCases.map(\.rawValue)),
    .json, .verbose,
  ]

  let out: String
  let scenario: FixtureScenario
  let parameters: FixtureScenario.Parameters
  let json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    out = arguments.value("out") ?? ""
    scenario = FixtureScenario(rawValue: arguments.value("scenario") ?? "") ?? .intact2x
    let categories = try arguments.integer("categories", default: 4, spec: Self.options[2])
    let dittos = try arguments.integer("dittos-per-category", default: 6, spec: Self.options[3])
    let seed = try arguments.integer("seed", default: 1, spec: Self.options[4])
    parameters = FixtureScenario.Parameters(
      categories: categories, dittosPerCategory: dittos, seed: UInt64(seed),
      library: arguments.value("library").flatMap(FixtureScenario.Library.init(rawValue:)))
    json = arguments.flag("json")
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    if let status = try FileStatus.of(path: out) {
      let isEmptyFolder =
        try status.kind == .directory
        && FileManager.default.contentsOfDirectory(atPath: out).isEmpty
      guard isEmptyFolder else {
        throw CommandFailure(
          "\(out) already exists and is not an empty folder; nothing was written",
          exitCode: .failure)
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
