/// How one option or positional argument is written: drives parsing, help and shell completions.
/// Commands declare their options as ``Option`` and ``Flag`` values, which carry a spec.
public struct OptionSpec: Sendable, Equatable {
  /// How the argument is written.
  public enum Kind: Sendable, Equatable {
    /// `--name <value>`.
    case option(valueName: String)
    /// `--name`, no value.
    case flag
    /// A bare argument, in position.
    case positional(valueName: String)
  }

  /// What a value is, for completions.
  public enum ValueKind: Sendable, Equatable {
    /// Any text (or none, for a flag).
    case text
    /// A file.
    case file
    /// A folder.
    case folder
    /// One of ``OptionSpec/allowedValues``.
    case choice
  }

  /// The long name without dashes (`container`), or the positional's key.
  public var name: String
  public var kind: Kind
  public var help: String
  public var isRequired: Bool
  /// May be given more than once (positionals: takes all remaining bare arguments).
  public var isRepeatable: Bool
  /// Allowed values, when the value comes from a fixed list (shown in help, checked when parsing).
  public var allowedValues: [String]?
  /// What the value is.
  public var valueKind: ValueKind = .text

  public static func option(
    _ name: String, value: String, help: String, required: Bool = false,
    repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: .option(valueName: value), help: help, isRequired: required,
      isRepeatable: repeatable, allowedValues: nil)
  }

  public static func flag(_ name: String, help: String) -> OptionSpec {
    OptionSpec(
      name: name, kind: .flag, help: help, isRequired: false, isRepeatable: false,
      allowedValues: nil)
  }

  public static func positional(
    _ name: String, value: String, help: String, required: Bool = true, repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: .positional(valueName: value), help: help, isRequired: required,
      isRepeatable: repeatable, allowedValues: nil)
  }

  /// True for a positional argument.
  public var isPositional: Bool {
    if case .positional = kind { return true }
    return false
  }

  /// `--container <dir>`, `--json`, `<file>`.
  public var synopsis: String {
    switch kind {
    case .option(let value): "--\(name) <\(value)>"
    case .flag: "--\(name)"
    case .positional(let value): isRepeatable ? "<\(value)> ..." : "<\(value)>"
    }
  }

  /// The synopsis as it appears in a usage line: optional parts in brackets.
  public var usageFragment: String {
    isRequired ? synopsis : "[\(synopsis)]"
  }
}
