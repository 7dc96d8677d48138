import OutcomeReport

/// `ditto-recover outcomes`: the distribution of `migration_outcome` lines across a cohort.
struct OutcomesCommand: Command {
  static let name = "outcomes"
  static let abstract =
    "Count migration_outcome lines from log captures and give the rollout verdict."
  static let discussion: String? = """
    Reads what people collect with 'log show' (default, compact, syslog, json or ndjson style), Console
    copies, or plain 'grep migration_outcome' output, from the files given or from standard input, in one
    streaming pass. Lines from other subsystems or categories are ignored; malformed tags are counted
    apart; entries repeated across overlapping captures are counted once.
    """
  static let options: [OptionSpec] = [
    .positional(
      "file", value: "file", help: "Log captures to read (default: standard input).",
      required: false,
      repeatable: true),
    .option(
      "min-sample", value: "n", help: "Fewer valid tags than this give 'too_few' (default: 20)."),
    .option(
      "recoverable-threshold", value: "share",
      help: "Share of success + no_new_data that means 'recoverable' (default: 0.6)."),
    .option(
      "gone-threshold", value: "share",
      help: "Share of nothing_on_disk that means 'gone' (default: 0.6)."),
    .option(
      "denominator", value: "kind",
      help:
        "What the shares are taken of: every valid tag, or only the decisive outcomes (default: all).",
      allowed: VerdictRule.Denominator.allCases.map(\.rawValue)),
    .json, .verbose,
  ]

  let files: [String]
  let rule: VerdictRule
  let json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    files = arguments.values("file")
    json = arguments.flag("json")
    func share(_ name: String, _ fallback: Double) throws(UsageError) -> Double {
      guard let text = arguments.value(name) else { return fallback }
      guard let value = Double(text) else {
        throw .invalidValue(text, for: .option(name, value: "share", help: ""))
      }
      return value
    }
    let minimum = try arguments.integer(
      "min-sample", default: 20, spec: .option("min-sample", value: "n", help: ""))
    let denominator =
      VerdictRule.Denominator(rawValue: arguments.value("denominator") ?? "") ?? .allValid
    do {
      rule = try VerdictRule(
        minimumSample: minimum, recoverableThreshold: try share("recoverable-threshold", 0.6),
        goneThreshold: try share("gone-threshold", 0.6), denominator: denominator)
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    var scanner = OutcomeScanner(options: OutcomeScanner.Options(rule: rule))
    do {
      if files.isEmpty {
        try scanner.scan(fileDescriptor: 0, name: "standard input")
      } else {
        for file in files { try scanner.scan(path: file) }
      }
    } catch {
      let missing: Bool
      if case .cannotOpen(_, let code) = error { missing = code == 2 } else { missing = false }
      throw CommandFailure(error.description, exitCode: missing ? .noInput : .ioError)
    }
    let summary = scanner.finish()
    let text = json ? summary.jsonText() : summary.textReport()
    context.standardOutput.write(text.hasSuffix("\n") ? text : text + "\n")
    return .success
  }
}
