import Exchange
import LegacyMigration

/// `ditto-recover recover`: the manual path ("Recover Old Dittos", `recoverNow`).
struct RecoverCommand: Command {
  static let name = "recover"
  static let abstract = "Recover old dittos now, whatever the completion flag says."
  static let discussion: String? = """
    Imports only dittos the library does not hold yet (duplicates are skipped) and prints the message
    the app's alert shows. With --dry-run, shows what would be imported and writes nothing. With --from,
    reads only that file (on a private copy), as the app does with a recovery file the user opens.
    """
  static let options: [OptionSpec] =
    MigrationTarget.options + [
      .flag(
        "dry-run", help: "Compute what would be imported; write nothing, leave the flag alone."),
      .path(
        "from", value: "file",
        help:
          "Recover from this file instead of the probed places: a .dittorecovery file or a 2.x store."
      ),
      .json, .verbose,
    ]

  let target: MigrationTarget
  let json: Bool
  let dryRun: Bool
  let file: String?

  init(arguments: ParsedArguments) {
    target = MigrationTarget(arguments: arguments)
    json = arguments.flag("json")
    dryRun = arguments.flag("dry-run")
    file = arguments.value("from")
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    try target.validate()
    if !dryRun { try target.requireLibrary() }
    let migrator = target.makeMigrator(context)
    if let file {
      guard try FileStatusProbe.exists(file) else {
        throw CommandFailure("--from \(file): no such file", exitCode: .noInput)
      }
    }
    let report =
      if let file {
        migrator.recoverNow(fromFile: file, dryRun: dryRun)
      } else {
        migrator.recoverNow(dryRun: dryRun)
      }
    let library = target.libraryPath
    ReportRendering.printWarnings(report, to: context)
    context.standardOutput.write(
      json
        ? ReportRendering.json(
          report, libraryPath: library
        ).rendered() + "\n"
        : ReportRendering.text(
          report, libraryPath: library))
    return ExitCode.of(report)
  }
}
