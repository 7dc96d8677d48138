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
  /// The command's options, declared once.
  enum Options {
    static let dryRun = Flag(
      "dry-run", help: "Compute what would be imported; write nothing, leave the flag alone.")
    static let from = Option<String>.path(
      "from", value: "file",
      help:
        "Recover from this file instead of the probed places: a .dittorecovery file or a 2.x store."
    )
  }

  static let options =
    ContainerOptions.specs(
      containerHelp:
        "The App Group container folder copied from the device (not needed with --from and --library)."
    ) + [Options.dryRun.spec, Options.from.spec]

  let target: ContainerOptions
  let json: Bool
  let isDryRun: Bool
  let file: String?

  init(arguments: ParsedArguments) throws(UsageError) {
    target = try ContainerOptions(arguments)
    json = arguments.isSet(CommonOptions.json)
    isDryRun = arguments.isSet(Options.dryRun)
    file = try arguments.value(of: Options.from)
    // A picked file needs only a library to import into: the container's, or --library.
    if !target.hasContainer, file == nil || !target.hasLibrary {
      throw UsageError.missing(ContainerOptions.container.spec)
    }
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    if target.hasContainer { try target.validate(context) }
    if !isDryRun { try target.requireLibrary() }
    if let file { try InputError.requireExisting(file, option: Options.from.spec) }
    let migrator = target.makeMigrator(context)
    let report =
      if let file {
        migrator.recoverNow(fromFile: file, dryRun: isDryRun)
      } else {
        migrator.recoverNow(dryRun: isDryRun)
      }
    ReportRendering.write(
      report, libraryPath: target.libraryPath, folders: target, json: json, to: context)
    return ExitCode.of(report)
  }
}
