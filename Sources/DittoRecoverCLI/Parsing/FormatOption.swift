import Exchange

extension OptionSpec {
  /// `--format <format>`: `json` or `csv`.
  static func format(help: String) -> OptionSpec {
    .option("format", value: "format", help: help, allowed: ExportFormat.allCases.map(\.rawValue))
  }
}

extension ParsedArguments {
  /// The format `--format` and `--json` ask for (`--json` means `--format json`); nil when neither is
  /// given.
  ///
  /// - Throws: ``UsageError`` when `--json` comes with another format.
  func outputFormat() throws(UsageError) -> ExportFormat? {
    let named = value("format").flatMap(ExportFormat.init(rawValue:))
    guard flag("json") else { return named }
    if let named, named != .json {
      throw UsageError("'--json' and '--format \(named.rawValue)' cannot be used together")
    }
    return .json
  }
}
