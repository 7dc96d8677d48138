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

  func run(_ context: ToolContext) throws -> CommandOutput {
    try ContainerPreflight(target).validate(context)
    let layout = target.layout
    // At most 10,000 lines per root: held whole, in either form.
    var lines: [String] = []
    Inventory.produce(for: layout) { lines.append($0) }
    return .result(
      InventoryOutput(container: layout.container, home: layout.home, lines: lines),
      text: lines.map { $0 + "\n" }.joined())
  }
}
