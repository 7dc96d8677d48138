import Exchange
import LegacyMigration

/// `ditto-recover inventory`: the seed's inventory lines, on standard output.
struct InventoryCommand: Command {
  static let name = "inventory"
  static let abstract = "List every file in the container (and the app's Library and Documents)."
  static let discussion: String? = """
    Prints the lines the migrator logs at info level, one per file: inventory[appgroup] <size>B /<path>
    (inventory[app] for the app's home). Links are listed, not followed. At most 10000 files per root.
    With --json: {"container", "home", "lines": [the same lines]}.
    """
  @Argument(
    group: [ContainerOptions.container.spec, ContainerOptions.home.spec], ContainerOptions.init)
  var target: ContainerOptions
  @Argument(common: CommonOptions.json) var json: Bool

  func run(_ context: ToolContext) throws -> ExitCode {
    try target.validate(context)
    let layout = target.layout
    if json {
      var lines: [String] = []
      Inventory.produce(for: layout) { lines.append($0) }
      let object = InventoryOutput(container: layout.container, home: layout.home, lines: lines)
      context.standardOutput.write(JSONValue(encoding: object).rendered() + "\n")
      return .success
    }
    var buffer = ""
    Inventory.produce(for: layout) { line in
      buffer += line + "\n"
      if buffer.utf8.count > 1 << 16 {
        context.standardOutput.write(buffer)
        buffer = ""
      }
    }
    context.standardOutput.write(buffer)
    return .success
  }
}
