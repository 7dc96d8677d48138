/// A command of this tool to print as a next step, built from the declarations: the subcommand
/// words from the ``Command`` types (found in ``Tool/definition``'s tree, so `backup extract` is
/// never spelled by hand) and each option's `--name` from its ``OptionSpec``. The program's name
/// (``ProgramName``) and the shell quoting (``ShellWord``) are added where it is printed
/// (``NextStep/command(_:suffix:label:)``), once.
///
/// ```swift
/// Invocation(RecoverCommand.self).with(\RecoverCommand.$file, path).with(ContainerOptions.library, library)
/// ```
struct Invocation: Equatable {
  /// The words after the program's name.
  private(set) var words: [String]

  /// `<program> <command…>`, no option yet.
  ///
  /// - Precondition: `command` is one of the tool's commands (a programming error otherwise).
  init(_ command: any Command.Type) {
    guard let path = Self.path(to: command, in: Tool.definition.commands) else {
      preconditionFailure("\(command) is not a command of \(Tool.definition.name)")
    }
    words = path.map { $0.name }
  }

  /// The subcommands from the top down to `command`, nil when it is not in `commands`' tree.
  private static func path(to command: any Command.Type, in commands: [any Command.Type])
    -> [any Command.Type]?
  {
    for candidate in commands {
      if ObjectIdentifier(candidate) == ObjectIdentifier(command) { return [candidate] }
      if let below = path(to: command, in: candidate.subcommands) { return [candidate] + below }
    }
    return nil
  }

  /// This command with `spec` given `value`: `--name value`, or the value alone for a positional.
  ///
  /// - Precondition: `spec` takes a value (a flag is given with ``with(_:)-(Flag)``).
  func with(_ spec: OptionSpec, _ value: String) -> Invocation {
    var next = self
    switch spec.kind {
    case .option: next.words += ["--" + spec.name, value]
    case .positional: next.words.append(value)
    case .flag: preconditionFailure("--\(spec.name) is a flag: it takes no value")
    }
    return next
  }

  /// This command with the flag `spec` given.
  private func with(flag spec: OptionSpec) -> Invocation {
    var next = self
    next.words.append("--" + spec.name)
    return next
  }

  /// This command with `option` given `value`.
  func with<Value>(_ option: Option<Value>, _ value: String) -> Invocation {
    with(option.spec, value)
  }

  /// This command with the option a command declares as `argument` (its ``Argument`` property)
  /// given `value`.
  func with<C: Command, Value>(_ argument: KeyPath<C, Argument<Value>>, _ value: String)
    -> Invocation
  {
    with(C()[keyPath: argument].spec, value)
  }

  /// This command with `flag` given.
  func with(_ flag: Flag) -> Invocation {
    with(flag: flag.spec)
  }

  /// This command with the flag a command declares as `argument` given.
  func with<C: Command>(_ argument: KeyPath<C, Argument<Bool>>) -> Invocation {
    with(flag: C()[keyPath: argument].spec)
  }

  /// This command with `value` for `spec` when there is one, unchanged otherwise.
  func with(_ spec: OptionSpec, ifAny value: String?) -> Invocation {
    value.map { with(spec, $0) } ?? self
  }

  /// This command with `flag` when `isGiven`.
  func with(_ flag: Flag, if isGiven: Bool) -> Invocation {
    isGiven ? with(flag) : self
  }

  /// The words to run it, the program's name (as run) first.
  var commandLine: [String] { [ProgramName.asRun] + words }
}

extension Invocation {
  /// This command with the flag a command declares as `argument` when `isGiven`.
  func with<C: Command>(_ argument: KeyPath<C, Argument<Bool>>, if isGiven: Bool) -> Invocation {
    isGiven ? with(argument) : self
  }

  /// The commands the tool suggests most, each built once.

  /// `status --container <folder>`.
  static func status(container: String) -> Invocation {
    Invocation(StatusCommand.self).with(ContainerOptions.container, container)
  }

  /// `status --from <file>`: what a recovery file (or a 2.x store) holds.
  static func status(from file: String) -> Invocation {
    Invocation(StatusCommand.self).with(\StatusCommand.$file, file)
  }

  /// `recover --from <file> --library <library>`.
  static func recover(from file: String, library: String) -> Invocation {
    Invocation(RecoverCommand.self).with(\RecoverCommand.$file, file)
      .with(ContainerOptions.library, library)
  }

  /// `export --legacy <store> --format <format>`.
  static func export(legacy store: String, format: String) -> Invocation {
    Invocation(ExportCommand.self).with(\ExportCommand.$legacy, store)
      .with(\ExportCommand.$namedFormat, format)
  }

  /// `export --library <library> --format <format>`.
  static func export(library: String, format: String) -> Invocation {
    Invocation(ExportCommand.self).with(\ExportCommand.$library, library)
      .with(\ExportCommand.$namedFormat, format)
  }

  /// `salvage <file>`, with `--format <format>` when one is given.
  static func salvage(_ file: String, format: String? = nil) -> Invocation {
    let salvage = Invocation(SalvageCommand.self).with(\SalvageCommand.$path, file)
    return format.map { salvage.with(\SalvageCommand.$namedFormat, $0) } ?? salvage
  }

  /// `backup extract <backup>`, with `--password-file <file>` when one is given.
  static func backupExtract(_ backup: String, passwordFile: String? = nil) -> Invocation {
    Invocation(BackupExtractCommand.self).with(\BackupExtractCommand.$backupRoot, backup)
      .with(BackupCommand.passwordFile.spec, ifAny: passwordFile)
  }
}
