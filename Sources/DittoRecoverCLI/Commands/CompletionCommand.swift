import Exchange

/// `ditto-recover completion bash|zsh|fish`: a completion script made from the commands' own
/// declarations (subcommands, options, the values of enumerated options, what kind of path a value
/// is), so it never falls behind the tool.
struct CompletionCommand: Command {
  static let name = "completion"
  static let abstract = "Print a shell completion script (bash, zsh or fish)."
  static let discussion: String? = """
    bash:  ditto-recover completion bash > ~/.local/share/bash-completion/completions/ditto-recover
           (or add 'source <(ditto-recover completion bash)' to ~/.bashrc)
    zsh:   ditto-recover completion zsh > "${fpath[1]}/_ditto-recover"  (then restart zsh)
    fish:  ditto-recover completion fish > ~/.config/fish/completions/ditto-recover.fish
    """

  /// The shells a script is made for.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// The command's options, declared once.
  @Argument(.positionalChoice("shell", value: "shell", help: "The shell: bash, zsh or fish."))
  var chosenShell: Shell?

  /// Required: the parser reports it missing before this is read.
  var shell: Shell { chosenShell ?? .bash }

  func validate() throws(UsageError) {
    if chosenShell == nil { throw UsageError.missing($chosenShell.spec) }
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    let tree = CompletionTree(Tool.definition)
    let script =
      switch shell {
      case .bash: tree.bash()
      case .zsh: tree.zsh()
      case .fish: tree.fish()
      }
    return .result(CompletionOutput(shell: shell.rawValue, script: script), text: script)
  }
}

/// The tool's commands as completions need them: each runnable path (`migrate`, `backup list`)
/// with its options, and the groups with their subcommands.
struct CompletionTree {
  struct Entry {
    /// `migrate`, `backup list`; "" for the tool itself.
    var path: String
    var abstract: String
    var options: [OptionSpec]
    /// The words that may come next (subcommands), for the tool and the groups.
    var subcommands: [(name: String, abstract: String)]
  }

  let tool: String
  var entries: [Entry] = []

  init(_ definition: CommandLineTool) {
    tool = definition.name
    entries.append(
      Entry(
        path: "", abstract: definition.abstract, options: [],
        subcommands: definition.commands.map { ($0.name, $0.abstract) } + [
          ("help", "Show help for a command.")
        ]))
    for command in definition.commands { add(command, prefix: "") }
  }

  private mutating func add(_ command: any Command.Type, prefix: String) {
    let path = prefix.isEmpty ? command.name : prefix + " " + command.name
    entries.append(
      Entry(
        path: path, abstract: command.abstract,
        options: command.allOptions + [.flag("help", help: "Show help.")],
        subcommands: command.subcommands.map { ($0.name, $0.abstract) }))
    for sub in command.subcommands { add(sub, prefix: path) }
  }

  // MARK: - bash

  func bash() -> String {
    let function = "_" + tool.replacingOccurrences(of: "-", with: "_")
    var lines = [
      "# bash completion for \(tool), made by '\(tool) completion bash' from its own options.",
      "\(function)() {",
      "  local cur prev path word i",
      "  cur=\"${COMP_WORDS[COMP_CWORD]}\"",
      "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
      "  path=\"\"",
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      "    word=\"${COMP_WORDS[i]}\"",
      "    case \"$path:$word\" in",
    ]
    for entry in entries where !entry.subcommands.isEmpty {
      for sub in entry.subcommands where sub.name != "help" {
        let next = entry.path.isEmpty ? sub.name : entry.path + " " + sub.name
        lines.append(
          "      \(Self.quoted(entry.path + ":" + sub.name))) path=\(Self.quoted(next)) ;;")
      }
    }
    lines += ["    esac", "  done", "  case \"$path\" in"]
    for entry in entries {
      lines.append("    \(Self.quoted(entry.path)))")
      let valued = entry.options.filter {
        if case .option = $0.kind { return true }
        return false
      }
      if !valued.isEmpty {
        lines.append("      case \"$prev\" in")
        for option in valued {
          lines.append("        --\(option.name)) \(bashValues(option)); return ;;")
        }
        lines.append("      esac")
      }
      let words =
        entry.subcommands.map(\.name)
        + (entry.path.isEmpty ? ["--help", "--version"] : [])
      let flags = entry.options.filter { !$0.isPositional }.map { "--" + $0.name }
      lines.append("      if [[ \"$cur\" == -* ]]; then")
      lines.append(
        "        COMPREPLY=($(compgen -W \(Self.quoted((flags + (entry.path.isEmpty ? ["--help", "--version"] : [])).joined(separator: " "))) -- \"$cur\"))"
      )
      lines.append("      else")
      if !words.isEmpty {
        lines.append(
          "        COMPREPLY=($(compgen -W \(Self.quoted(words.joined(separator: " "))) -- \"$cur\"))"
        )
      } else if let positional = entry.options.first(where: \.isPositional) {
        lines.append("        \(bashValues(positional))")
      } else {
        lines.append("        COMPREPLY=()")
      }
      lines += ["      fi", "      ;;"]
    }
    lines += [
      "  esac", "}", "complete -o filenames -o bashdefault -F \(function) \(tool)", "",
    ]
    return lines.joined(separator: "\n")
  }

  private func bashValues(_ option: OptionSpec) -> String {
    switch option.valueKind {
    case .choice:
      "COMPREPLY=($(compgen -W \(Self.quoted((option.allowedValues ?? []).joined(separator: " "))) -- \"$cur\"))"
    case .folder: "COMPREPLY=($(compgen -d -- \"$cur\"))"
    case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
    case .text: "COMPREPLY=()"
    }
  }

  // MARK: - zsh

  /// zsh reads the bash script through its bash-completion layer (`bashcompinit`).
  func zsh() -> String {
    """
    #compdef \(tool)
    # zsh completion for \(tool), made by '\(tool) completion zsh' from its own options: the bash
    # completion, read through zsh's bashcompinit.
    autoload -U +X bashcompinit && bashcompinit
    \(bash())
    """
  }

  // MARK: - fish

  func fish() -> String {
    var lines = [
      "# fish completion for \(tool), made by '\(tool) completion fish' from its own options.",
      "complete -c \(tool) -f",
    ]
    // A path's condition: its words seen, and (for a top-level name that is also a subcommand
    // name) its group not seen.
    func condition(_ path: String) -> String {
      let words = path.split(separator: " ").map(String.init)
      guard let last = words.last else { return "__fish_use_subcommand" }
      var parts = words.map { "__fish_seen_subcommand_from \($0)" }
      let groups = entries.filter { !$0.subcommands.isEmpty && !$0.path.isEmpty }.map(\.path)
      if words.count == 1 {
        for group in groups where group != last {
          if entries.contains(where: { $0.path == group + " " + last }) {
            parts.append("not __fish_seen_subcommand_from \(group)")
          }
        }
      }
      return parts.joined(separator: "; and ")
    }
    for entry in entries {
      for sub in entry.subcommands {
        var test = condition(entry.path)
        if !entry.path.isEmpty {
          let names = entry.subcommands.map(\.name).joined(separator: " ")
          test += "; and not __fish_seen_subcommand_from \(names)"
        }
        lines.append(
          "complete -c \(tool) -n \(Self.quoted(test)) -a \(sub.name) -d \(Self.quoted(sub.abstract))"
        )
      }
      guard !entry.path.isEmpty else { continue }
      for option in entry.options where !option.isPositional {
        var line = "complete -c \(tool) -n \(Self.quoted(condition(entry.path))) -l \(option.name)"
        if case .option = option.kind {
          switch option.valueKind {
          case .choice:
            line += " -x -a \(Self.quoted((option.allowedValues ?? []).joined(separator: " ")))"
          case .file: line += " -r -F"
          case .folder: line += " -r -a '(__fish_complete_directories)'"
          case .text: line += " -x"
          }
        }
        lines.append(line + " -d \(Self.quoted(option.help))")
      }
      if let positional = entry.options.first(where: \.isPositional), entry.subcommands.isEmpty {
        switch positional.valueKind {
        case .choice:
          lines.append(
            "complete -c \(tool) -n \(Self.quoted(condition(entry.path))) -a \(Self.quoted((positional.allowedValues ?? []).joined(separator: " ")))"
          )
        case .file, .folder:
          lines.append("complete -c \(tool) -n \(Self.quoted(condition(entry.path))) -F")
        case .text: break
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` in single quotes for any POSIX-like shell (and fish).
  static func quoted(_ text: String) -> String {
    "'" + text.replacingScalar("'", with: "'\\''") + "'"
  }
}
