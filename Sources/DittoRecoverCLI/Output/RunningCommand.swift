/// The command a run is (its type, once parsed) and its command line as typed (the program's
/// declared name first, common flags wherever they were typed): what advice that changes "the same
/// command" starts from. What the command is comes from its type, never from the position of a
/// word (`ditto-recover --verbose migrate …` is `migrate`).
struct RunningCommand {
  /// The command, once its arguments were parsed.
  let command: (any Command.Type)?
  /// The command line as typed.
  let words: [String]

  /// No command: advice that would change it is left out.
  static var none: RunningCommand { RunningCommand(command: nil, words: []) }

  /// True when this run is `type`.
  func `is`(_ type: any Command.Type) -> Bool {
    command.map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? false
  }

  /// The same command line with the flag `C` declares as `argument` added.
  func adding<C: Command>(_ argument: KeyPath<C, Argument<Bool>>) -> [String] {
    words + [C()[keyPath: argument].spec.synopsis]
  }

  /// The same command line run as `other` (the subcommand's word replaced, `--json` left out:
  /// advice to read as text), nil when the command's word is not in it.
  func runningAs(_ other: any Command.Type) -> [String]? {
    guard let command, words.count > 1,
      let index = words.dropFirst().firstIndex(of: command.name)
    else { return nil }
    var changed = words
    changed[index] = other.name
    return changed.enumerated().filter {
      $0.offset == 0 || $0.element != CommonOptions.json.spec.synopsis
    }.map(\.element)
  }
}
