/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, OPTIONS, SUBCOMMANDS.
enum HelpFormatter {
  static let columnWidth = 24

  /// Help for one subcommand.
  static func help(for command: any Command.Type) -> String {
    var text = "OVERVIEW: \(command.abstract)\n"
    if let discussion = command.discussion {
      text += "\n\(discussion)\n"
    }
    text += "\nUSAGE: \(command.usage)\n"
    if !command.subcommands.isEmpty {
      text += "\nOPTIONS:\n"
      text += row("-h, --help", "Show help information.")
      text += "\nSUBCOMMANDS:\n"
      for subcommand in command.subcommands { text += row(subcommand.name, subcommand.abstract) }
      text +=
        "\n  See 'ditto-recover help \(command.qualifiedName) <subcommand>' for detailed help.\n"
      return text
    }
    let positionals = command.options.filter {
      if case .positional = $0.kind { true } else { false }
    }
    if !positionals.isEmpty {
      text += "\nARGUMENTS:\n"
      for spec in positionals { text += row(spec.synopsis, help(spec)) }
    }
    text += "\nOPTIONS:\n"
    for spec in command.options {
      if case .positional = spec.kind { continue }
      text += row(spec.synopsis, help(spec))
    }
    text += row("-h, --help", "Show help information.")
    return text
  }

  /// Help for the tool itself.
  static func rootHelp(commands: [any Command.Type]) -> String {
    var text = "OVERVIEW: \(Tool.abstract)\n\n"
    text += "\(Tool.discussion)\n\n"
    text += "USAGE: ditto-recover <subcommand>\n\n"
    text += "OPTIONS:\n"
    text += row("--version", "Show the version.")
    text += row("-h, --help", "Show help information.")
    text += "\nSUBCOMMANDS:\n"
    for command in commands { text += row(command.name, command.abstract) }
    text += row("help", "Show subcommand help information.")
    text += "\n  See 'ditto-recover help <subcommand>' for detailed help.\n"
    return text
  }

  private static func help(_ spec: OptionSpec) -> String {
    guard let allowed = spec.allowedValues else { return spec.help }
    return spec.help + " (values: " + allowed.joined(separator: ", ") + ")"
  }

  /// Two aligned columns; a long left column pushes the help to the next line.
  private static func row(_ left: String, _ right: String) -> String {
    let lead = "  " + left
    if lead.count + 2 > columnWidth {
      return lead + "\n" + String(repeating: " ", count: columnWidth) + right + "\n"
    }
    return lead + String(repeating: " ", count: columnWidth - lead.count) + right + "\n"
  }
}
