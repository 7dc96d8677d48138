/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum HelpFormatter {
  static let columnWidth = 24

  /// Help for the command at `path`.
  static func help(for path: CommandPath) -> String {
    guard let command = path.command else { return "" }
    var text = "OVERVIEW: \(command.abstract)\n"
    if let discussion = command.discussion {
      text += "\n\(discussion)\n"
    }
    text += "\nUSAGE: \(path.usage)\n"
    if !command.subcommands.isEmpty {
      text += "\nOPTIONS:\n"
      text += row("-h, --help", "Show help information.")
      text += "\nSUBCOMMANDS:\n"
      for subcommand in command.subcommands { text += row(subcommand.name, subcommand.abstract) }
      text += "\n  See '\(path.tool) help \(path.words) <subcommand>' for detailed help.\n"
      return text
    }
    let positionals = command.allOptions.filter(\.isPositional)
    if !positionals.isEmpty {
      text += "\nARGUMENTS:\n"
      for spec in positionals { text += row(spec.synopsis, help(spec)) }
    }
    text += "\nOPTIONS:\n"
    for spec in command.allOptions where !spec.isPositional {
      text += row(spec.synopsis, help(spec))
    }
    text += row("-h, --help", "Show help information.")
    return text
  }

  /// Help for the tool itself.
  static func rootHelp(_ tool: CommandLineTool) -> String {
    if let single = tool.single {
      return help(for: CommandPath(tool: tool.name, commands: [single], isSingleCommandTool: true))
    }
    var text = "OVERVIEW: \(tool.abstract)\n\n"
    if let discussion = tool.discussion { text += "\(discussion)\n\n" }
    text += "USAGE: \(tool.name) <subcommand>\n\n"
    text += "OPTIONS:\n"
    text += row("--version", "Show the version.")
    text += row("-h, --help", "Show help information.")
    text += "\nSUBCOMMANDS:\n"
    for command in tool.commands { text += row(command.name, command.abstract) }
    text += row("help", "Show subcommand help information.")
    text += "\n  See '\(tool.name) help <subcommand>' for detailed help.\n"
    return text
  }

  /// Help for `help` itself.
  static func helpHelp(_ tool: CommandLineTool) -> String {
    "OVERVIEW: Show subcommand help information.\n\n"
      + "USAGE: \(tool.name) help [<subcommands> ...]\n\n"
      + "ARGUMENTS:\n"
      + row("<subcommands>", "The subcommand to show help for, with its group (help backup list).")
      + "\nOPTIONS:\n" + row("-h, --help", "Show help information.")
  }

  private static func help(_ spec: OptionSpec) -> String {
    guard let allowed = spec.allowedValues else { return spec.help }
    return spec.help + " (values: " + allowed.joined(separator: ", ") + ")"
  }

  /// Two aligned columns; a long left column pushes the help to the next line.
  static func row(_ left: String, _ right: String) -> String {
    let lead = "  " + left
    if lead.count + 2 > columnWidth {
      return lead + "\n" + String(repeating: " ", count: columnWidth) + right + "\n"
    }
    return lead + String(repeating: " ", count: columnWidth - lead.count) + right + "\n"
  }
}
