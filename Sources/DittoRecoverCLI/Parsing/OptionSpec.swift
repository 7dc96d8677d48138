/// How one option or positional argument is written: drives parsing, help and shell completions.
/// Commands declare their options as ``Option`` and ``Flag`` values, which carry a spec.
package struct OptionSpec: Sendable, Equatable {
  /// How the argument is written.
  package enum Kind: Sendable, Equatable {
    /// `--name <value>`.
    case option(valueName: String)
    /// `--name`, no value.
    case flag
    /// A bare argument, in position.
    case positional(valueName: String)
  }

  /// What a value is, for completions.
  package enum ValueKind: Sendable, Equatable {
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
  package var name: String
  package var kind: Kind
  package var help: String
  package var isRequired: Bool
  /// May be given more than once (positionals: takes all remaining bare arguments).
  package var isRepeatable: Bool
  /// Allowed values, when the value comes from a fixed list (shown in help, checked when parsing).
  package var allowedValues: [String]?
  /// What the value is.
  package var valueKind: ValueKind = .text

  package static func option(
    _ name: String, value: String, help: String, required: Bool = false,
    repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: .option(valueName: value), help: help, isRequired: required,
      isRepeatable: repeatable, allowedValues: nil)
  }

  package static func flag(_ name: String, help: String) -> OptionSpec {
    OptionSpec(
      name: name, kind: .flag, help: help, isRequired: false, isRepeatable: false,
      allowedValues: nil)
  }

  package static func positional(
    _ name: String, value: String, help: String, required: Bool = true, repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: .positional(valueName: value), help: help, isRequired: required,
      isRepeatable: repeatable, allowedValues: nil)
  }

  /// True for a positional argument.
  package var isPositional: Bool {
    if case .positional = kind { return true }
    return false
  }

  /// `--container <dir>`, `--json`, `<file>`.
  package var synopsis: String {
    switch kind {
    case .option(let value): "--\(name) <\(value)>"
    case .flag: "--\(name)"
    case .positional(let value): isRepeatable ? "<\(value)> ..." : "<\(value)>"
    }
  }

  /// The synopsis as it appears in a usage line: optional parts in brackets.
  package var usageFragment: String {
    isRequired ? synopsis : "[\(synopsis)]"
  }
}
