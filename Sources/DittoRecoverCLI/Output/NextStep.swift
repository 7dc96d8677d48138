/// One thing to do next, as the tool prints it.
///
/// A command pastes into a POSIX shell and runs as printed: `next: <command>`, its label, if any,
/// after it as a shell comment (`  # label`), never before it. A note is a sentence for what no
/// command can do (unlock the iPhone, copy the container again): `note: <sentence>`. Under
/// `--json`, commands are `"next": […]` (each as it pastes) and notes `"notes": […]`.
struct NextStep: Sendable, Equatable {
  /// A command or a sentence.
  enum Kind: Sendable, Equatable {
    case command
    case note
  }

  let kind: Kind
  /// The command line (shell-quoted) or the sentence.
  let text: String
  /// What the command is for, printed after it as a comment; nil for none (and for a note).
  let label: String?

  /// The command the user typed, changed (`words`, the program's declared name first, as
  /// ``ToolContext/invocation`` holds it; each shell-quoted), then `suffix` as given, with `label`
  /// after it as a comment. A command of the tool's own making is an ``Invocation``.
  static func command(_ words: [String], suffix: String = "", label: String? = nil) -> NextStep {
    NextStep(
      kind: .command, text: ShellWord.line(ProgramName.naming(words)) + suffix, label: label)
  }

  /// `invocation`, run as the program is named (``Invocation/commandLine``), each word
  /// shell-quoted, then `suffix` as given, with `label` after it as a comment.
  static func command(_ invocation: Invocation, suffix: String = "", label: String? = nil)
    -> NextStep
  {
    NextStep(
      kind: .command, text: ShellWord.line(invocation.commandLine) + suffix, label: label)
  }

  /// `invocation` (an `export` or a `salvage`) into `file` in the current folder, never replacing
  /// a file that is there (`set -C`, in a subshell so the user's shell keeps its options).
  static func export(_ invocation: Invocation, into file: String, label: String? = nil)
    -> NextStep
  {
    NextStep(
      kind: .command,
      text: "(set -C; " + ShellWord.line(invocation.commandLine) + " > "
        + ShellWord.quote(file) + ")",
      label: label)
  }

  /// A command line already quoted, with `label` after it as a comment.
  static func command(line: String, label: String? = nil) -> NextStep {
    NextStep(kind: .command, text: line, label: label)
  }

  /// A sentence for what no command can do.
  static func note(_ sentence: String) -> NextStep {
    NextStep(kind: .note, text: sentence, label: nil)
  }

  /// The command as it pastes (its label as a trailing comment), or the sentence.
  var pasteable: String {
    guard kind == .command, let label else { return text }
    return text + "  # " + label
  }

  /// The line printed: `next: <command>  # label`, or `note: <sentence>`.
  var line: String {
    (kind == .command ? "next: " : "note: ") + pasteable
  }
}

extension Array where Element == NextStep {
  /// The commands, as they paste (the `"next"` key under `--json`).
  var commands: [String] { filter { $0.kind == .command }.map(\.pasteable) }
  /// The sentences (the `"notes"` key under `--json`).
  var notes: [String] { filter { $0.kind == .note }.map(\.text) }
  /// Every step in order, as printed lines.
  var lines: [String] { map(\.line) }
}
