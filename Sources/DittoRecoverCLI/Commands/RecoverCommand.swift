import Exchange
import LegacyMigration

/// `ditto-recover recover`: the manual path ("Recover Old Dittos", `recoverNow`).
struct RecoverCommand: Command {
  static let name = "recover"
  static let abstract = "Recover old dittos now, whatever the completion flag says."
  static let discussion: String? = """
    Imports only dittos the library does not hold yet (duplicates are skipped) and prints the message
    the app's alert shows. With --dry-run, shows what would be imported and writes nothing.
    """
  static let options: [OptionSpec] =
    MigrationTarget.options + [
      .flag(
        "dry-run", help: "Compute what would be imported; write nothing, leave the flag alone."),
      .json, .verbose,
    ]

  let target: MigrationTarget
  let json: Bool
  let dryRun: Bool

  init(arguments: ParsedArguments) {
    target = MigrationTarget(arguments: arguments)
    json = arguments.flag("json")
    dryRun = arguments.flag("dry-run")
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    try target.validate()
    if !dryRun { try target.requireLibrary() }
    let migrator = target.makeMigrator(context)
    let report = migrator.recoverNow(dryRun: dryRun)
    let library = target.libraryPath
    context.standardOutput.write(
      json
        ? ReportRendering.json(report, libraryPath: library).rendered() + "\n"
        : ReportRendering.text(report, libraryPath: library))
    return ExitCode.of(report)
  }
}
