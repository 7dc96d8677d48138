/// What a command declares as a property and the tool reads: one option, flag or positional, or a
/// group of them read into one value (see ``Argument``).
package protocol DeclaredArgument {
  /// How it is written, in help order (none for a common flag the tool adds itself).
  var specs: [OptionSpec] { get }
  /// Reads its value from the parsed arguments.
  func read(_ arguments: ParsedArguments) throws(UsageError)
}

/// A command's option, flag, positional or option group, declared once, as a property, in the
/// manner of swift-argument-parser's property wrappers: the declaration gives the help, the usage
/// line, the shell completions and the parse, and the property holds the typed value.
///
/// ```swift
/// @Argument(.path("from", value: "file", help: "Recover from this file.")) var file: String?
/// @Argument(.count("seed", help: "Seed (default: 1).")) var seed: Int = 1
/// @Argument(Flag("dry-run", help: "Write nothing.")) var isDryRun: Bool
/// ```
///
/// A command's options are its `Argument` properties in declaration order (``Command/options``);
/// checks across options go in ``Command/validate()``.
@propertyWrapper
package struct Argument<Value>: DeclaredArgument {
  /// The value, shared by the copies of the command the tool makes while reading it.
  private final class Storage {
    var value: Value?
    init(_ value: Value?) { self.value = value }
  }

  package let specs: [OptionSpec]
  // Untyped: a stored function type with typed throws needs the iOS 18 / macOS 15 runtime.
  private let reader: (ParsedArguments) throws -> Value
  private let storage: Storage

  /// The value read (the default until the arguments are read).
  package var wrappedValue: Value {
    guard let value = storage.value else {
      preconditionFailure("\(specs.map(\.name)) read before the arguments were parsed")
    }
    return value
  }

  /// This declaration itself (its spec, for messages that name the option).
  package var projectedValue: Argument<Value> { self }

  /// The one spec of a single option, flag or positional.
  package var spec: OptionSpec { specs[0] }

  private init(
    specs: [OptionSpec], initial: Value?, reader: @escaping (ParsedArguments) throws -> Value
  ) {
    self.specs = specs
    self.reader = reader
    storage = Storage(initial)
  }

  package func read(_ arguments: ParsedArguments) throws(UsageError) {
    do {
      storage.value = try reader(arguments)
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
  }

  /// An option or positional without a default: nil when it is not given.
  package init<Wrapped>(_ option: Option<Wrapped>) where Value == Wrapped? {
    self.init(specs: [option.spec], initial: .some(nil)) { try $0.value(of: option) }
  }

  /// An option with a default for when it is not given.
  package init(wrappedValue: Value, _ option: Option<Value>) {
    self.init(specs: [option.spec], initial: wrappedValue) {
      try $0.value(of: option) ?? wrappedValue
    }
  }

  /// A positional given any number of times.
  package init<Element>(repeating option: Option<Element>) where Value == [Element] {
    self.init(specs: [option.spec], initial: []) { try $0.values(of: option) }
  }

  /// A group of options read into one value (`--container`, `--home`, `--library`).
  package init(
    group specs: [OptionSpec], _ read: @escaping (ParsedArguments) throws(UsageError) -> Value
  ) {
    self.init(specs: specs, initial: nil) { arguments in try read(arguments) }
  }
}

extension Argument where Value == Bool {
  /// A flag: true when given.
  package init(_ flag: Flag) {
    self.init(specs: [flag.spec], initial: false) { $0.isSet(flag) }
  }

}

extension Command {
  /// The command's declared arguments, in declaration order.
  var declaredArguments: [any DeclaredArgument] {
    Mirror(reflecting: self).children.compactMap { $0.value as? any DeclaredArgument }
  }

  /// Its own options and positionals, in help order: its ``Argument`` properties.
  static var options: [OptionSpec] { Self().declaredArguments.flatMap(\.specs) }

  /// The command with every declared argument read from `arguments`, then validated.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Self {
    let command = Self()
    for argument in command.declaredArguments { try argument.read(arguments) }
    try command.validate()
    return command
  }
}
