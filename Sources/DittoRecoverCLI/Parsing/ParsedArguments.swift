import SafeFiles

/// The arguments of one command, checked against its ``OptionSpec`` list.
public struct ParsedArguments: Sendable, Equatable {
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments` (after the subcommand name) against `specs`.
  ///
  /// Accepts `--name value` and `--name=value`; `--` ends options: every argument after it is a
  /// positional, even one starting with `-`. `-h`/`--help` before any `--` are handled by the tool
  /// before this runs.
  ///
  /// - Throws: ``UsageError`` with swift-argument-parser's wording.
  public init(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) {
    let positionals = specs.filter { if case .positional = $0.kind { true } else { false } }
    var positionalIndex = 0
    var index = 0
    var optionsEnded = false
    func addPositional(_ argument: String) throws(UsageError) {
      guard positionalIndex < positionals.count else { throw .unexpected(argument) }
      let spec = positionals[positionalIndex]
      values[spec.name, default: []].append(spec.isPath ? UserPath.resolved(argument) : argument)
      if !spec.isRepeatable { positionalIndex += 1 }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        try addPositional(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name =
        argument.hasPrefix("--") ? String(argument.dropFirst(2)) : String(argument.dropFirst())
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard argument.hasPrefix("--"), let spec = specs.first(where: { $0.name == name }) else {
        throw .unknownOption(argument.split(separator: "=").first.map(String.init) ?? argument)
      }
      switch spec.kind {
      case .flag:
        if inlineValue != nil { throw .unexpected(argument) }
        flags.insert(name)
      case .option:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else { throw .missingValue(spec) }
          value = arguments[index]
          index += 1
        }
        if let allowed = spec.allowedValues, !allowed.contains(value) {
          throw .invalidValue(value, for: spec)
        }
        if values[name] != nil, !spec.isRepeatable {
          throw UsageError("'\(spec.synopsis)' given more than once")
        }
        values[name, default: []].append(spec.isPath ? UserPath.resolved(value) : value)
      case .positional:
        throw .unknownOption(argument)
      }
    }
    for spec in specs where spec.isRequired && values[spec.name] == nil {
      throw .missing(spec)
    }
  }

  /// The value of option or positional `name`, nil when absent.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Every value given for `name`, in order.
  public func values(_ name: String) -> [String] { values[name] ?? [] }

  /// True when flag `name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of `name` as a non-negative integer, or `defaultValue` when absent.
  ///
  /// - Throws: ``UsageError`` when it is not a non-negative integer.
  public func integer(_ name: String, default defaultValue: Int, spec: OptionSpec)
    throws(UsageError)
    -> Int
  {
    guard let text = value(name) else { return defaultValue }
    guard let number = Int(text), number >= 0 else { throw .invalidValue(text, for: spec) }
    return number
  }
}
