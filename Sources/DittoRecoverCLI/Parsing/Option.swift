import SafeFiles

/// An option or positional argument: its ``OptionSpec`` drives parsing, help and shell
/// completions, and its text is converted into `Value`. A command binds it to a property with
/// ``Argument`` (one declaration; options several commands share are `static let`s bound the same
/// way).
///
/// ```swift
/// @Argument(.count("seed", help: "Seed of the generated content (default: 1).")) var seed: Int = 1
/// ```
package struct Option<Value>: Sendable {
  /// How it is written and shown.
  package let spec: OptionSpec
  /// Turns the text given into a value. (Untyped `throws`: a stored function type with typed
  /// throws needs the iOS 18 / macOS 15 runtime; the reader maps any error to a usage error.)
  let convert: @Sendable (String) throws -> Value

  init(spec: OptionSpec, convert: @escaping @Sendable (String) throws -> Value) {
    self.spec = spec
    self.convert = convert
  }
}

/// A flag (`--json`), declared once and read with ``ParsedArguments/isSet(_:)``.
package struct Flag: Sendable {
  package let spec: OptionSpec

  package init(_ name: String, help: String) {
    spec = .flag(name, help: help)
  }
}

/// A text that is not a valid value of an option (the reader reports it as a usage error).
struct InvalidValue: Error {}

extension Option where Value == String {
  /// `--name <value>`: any text.
  package static func text(
    _ name: String, value: String, help: String, required: Bool = false,
    repeatable: Bool = false
  ) -> Option {
    Option(
      spec: .option(name, value: value, help: help, required: required, repeatable: repeatable),
      convert: { $0 })
  }

  /// `--name <file>`: a path the user chose, resolved (links followed, made absolute: the resolved
  /// path is what the command uses and reports, see `UserPath`).
  package static func path(
    _ name: String, value: String, help: String, required: Bool = false,
    kind: OptionSpec.ValueKind = .file
  ) -> Option {
    var spec = OptionSpec.option(name, value: value, help: help, required: required)
    spec.valueKind = kind
    return Option(spec: spec, convert: { UserPath.resolved($0) })
  }

  /// `<file>` in position: a path the user chose, resolved.
  package static func positionalPath(
    _ name: String, value: String, help: String, required: Bool = true,
    repeatable: Bool = false, kind: OptionSpec.ValueKind = .file
  ) -> Option {
    var spec = OptionSpec.positional(
      name, value: value, help: help, required: required, repeatable: repeatable)
    spec.valueKind = kind
    return Option(spec: spec, convert: { UserPath.resolved($0) })
  }

  /// `<file>` in position, kept as typed (a name shown in reports, or `-` for standard input).
  package static func positionalText(
    _ name: String, value: String, help: String, required: Bool = true,
    repeatable: Bool = false
  ) -> Option {
    var spec = OptionSpec.positional(
      name, value: value, help: help, required: required, repeatable: repeatable)
    spec.valueKind = .file
    return Option(spec: spec, convert: { $0 })
  }
}

extension Option where Value == Int {
  /// `--name <n>`: a whole number, zero or more.
  package static func count(_ name: String, value: String = "n", help: String) -> Option {
    Option(
      spec: .option(name, value: value, help: help),
      convert: { text in
        guard let number = Int(text), number >= 0 else { throw InvalidValue() }
        return number
      })
  }
}

extension Option where Value == Double {
  /// `--name <value>`: a number.
  package static func number(_ name: String, value: String, help: String) -> Option {
    Option(
      spec: .option(name, value: value, help: help),
      convert: { text in
        guard let number = Double(text), number.isFinite else { throw InvalidValue() }
        return number
      })
  }
}

extension Option where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
  /// `--name <value>` taking one of `Value`'s cases (listed in help and completions).
  package static func choice(_ name: String, value: String, help: String, required: Bool = false)
    -> Option
  {
    oneOf(.option(name, value: value, help: help, required: required))
  }

  /// `<value>` in position, one of `Value`'s cases (listed in help and completions).
  package static func positionalChoice(
    _ name: String, value: String, help: String, required: Bool = true
  ) -> Option {
    oneOf(.positional(name, value: value, help: help, required: required))
  }

  /// `spec`, taking one of `Value`'s cases.
  private static func oneOf(_ spec: OptionSpec) -> Option {
    var spec = spec
    spec.allowedValues = Value.allCases.map(\.rawValue)
    spec.valueKind = .choice
    return Option(
      spec: spec,
      convert: { text in
        guard let value = Value(rawValue: text) else { throw InvalidValue() }
        return value
      })
  }
}
