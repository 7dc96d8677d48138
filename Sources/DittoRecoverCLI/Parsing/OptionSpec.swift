/// One option or positional argument of a command: drives both parsing and help.
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

  /// The long name without dashes (`container`), or the positional's key.
  public var name: String
  public var kind: Kind
  public var help: String
  public var isRequired: Bool
  /// May be given more than once (positionals: takes all remaining bare arguments).
  public var isRepeatable: Bool
  /// Allowed values, when the value comes from a fixed list (shown in help, checked when parsing).
  public var allowedValues: [String]?
  /// The value is a path the user chose: it is resolved when parsed (links followed, made
  /// absolute; `UserPath`), and the resolved path is what the command uses and reports.
  public var isPath = false

  public static func option(
    _ name: String, value: String, help: String, required: Bool = false,
    repeatable: Bool = false, allowed: [String]? = nil
  ) -> OptionSpec {
    OptionSpec(
      name: name, kind: .option(valueName: value), help: help, isRequired: required,
      isRepeatable: repeatable, allowedValues: allowed)
  }

  /// `--name <value>` whose value is a path the user chose (see ``isPath``).
  public static func path(
    _ name: String, value: String, help: String, required: Bool = false
  ) -> OptionSpec {
    var spec = option(name, value: value, help: help, required: required)
    spec.isPath = true
    return spec
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

  /// A positional argument that is a path the user chose (see ``isPath``).
  public static func positionalPath(
    _ name: String, value: String, help: String, required: Bool = true
  ) -> OptionSpec {
    var spec = positional(name, value: value, help: help, required: required)
    spec.isPath = true
    return spec
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

  /// Shared options.
  public static let container = path(
    "container", value: "dir", help: "The App Group container folder copied from the device.",
    required: true)
  public static let home = path(
    "home", value: "dir",
    help: "The app's own data container (its Library and Documents), if copied.")
  public static let library = path(
    "library", value: "file",
    help: "The app's library, a Ditto 3.x Ditto.store (default: <container>/Ditto.store).")
  public static let json = flag("json", help: "Print one JSON object on standard output.")
  public static let verbose = flag("verbose", help: "Show info-level log lines and error causes.")
}
