/// The arguments of one command, checked against its ``OptionSpec`` list and read back through the
/// command's ``Option`` and ``Flag`` declarations.
package struct ParsedArguments: Sendable, Equatable {
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments` (after the subcommand name) against `specs`.
  ///
  /// Accepts `--name value` and `--name=value`; `--` ends options: every argument after it is a
  /// positional, even one starting with `-`. `-h`/`--help` before any `--` are handled by the tool
  /// before this runs.
  ///
  /// - Throws: ``UsageError`` with swift-argument-parser's wording.
  package init(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) {
    let positionals = specs.filter(\.isPositional)
    var positionalIndex = 0
    var index = 0
    var optionsEnded = false
    func addPositional(_ argument: String) throws(UsageError) {
      guard positionalIndex < positionals.count else { throw .unexpected(argument) }
      let spec = positionals[positionalIndex]
      values[spec.name, default: []].append(argument)
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
        values[name, default: []].append(value)
      case .positional:
        throw .unknownOption(argument)
      }
    }
    for spec in specs where spec.isRequired && values[spec.name] == nil {
      throw .missing(spec)
    }
  }

  /// The value given for `option`, parsed; nil when absent.
  ///
  /// - Throws: ``UsageError`` when the text is not a valid value.
  package func value<Value>(of option: Option<Value>) throws(UsageError) -> Value? {
    guard let text = values[option.spec.name]?.last else { return nil }
    return try convert(text, option)
  }

  /// Every value given for a repeatable `option`, parsed, in order.
  ///
  /// - Throws: ``UsageError`` when a text is not a valid value.
  package func values<Value>(of option: Option<Value>) throws(UsageError) -> [Value] {
    var parsed: [Value] = []
    for text in values[option.spec.name] ?? [] { parsed.append(try convert(text, option)) }
    return parsed
  }

  /// True when `flag` was given.
  package func isSet(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

  private func convert<Value>(_ text: String, _ option: Option<Value>) throws(UsageError)
    -> Value
  {
    do {
      return try option.convert(text)
    } catch {
      throw .invalidValue(text, for: option.spec)
    }
  }
}
