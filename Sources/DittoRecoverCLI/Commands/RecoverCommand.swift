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
  @Argument(
    group: ContainerOptions.specs(
      containerHelp:
        "The App Group container folder copied from the device (not needed with --from and --library)."
    ), ContainerOptions.init)
  var target: ContainerOptions
  @Argument(
    Flag("dry-run", help: "Compute what would be imported; write nothing, leave the flag alone."))
  var isDryRun: Bool
  @Argument(
    .path(
      "from", value: "file",
      help:
        "Recover from this file instead of the probed places: a .dittorecovery file or a 2.x store."
    ))
  var file: String?
  @Argument(
    Flag(
      "include-never-committed",
      help:
        "Also import dittos salvage finds only in -wal frames no commit covers (left out by default)."
    ))
  var includesNeverCommitted: Bool

  func validate() throws(UsageError) {
    // A picked file needs only a library to import into: the container's, or --library.
    if !target.hasContainer, file == nil || !target.hasLibrary {
      throw UsageError.missing(ContainerOptions.container.spec)
    }
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    if target.hasContainer { try ContainerPreflight(target).validate(context) }
    // The folder's stores are read once, by the attempt: copies nearby are compared with it after.
    let nearby = file == nil ? try ContainerPreflight(target).searchBeforeAttempt(context) : nil
    if !isDryRun { try ContainerPreflight(target).requireLibrary() }
    if let file { try InputError.requireExisting(file, option: $file.spec) }
    let migrator = EngineFactory.migrator(for: target, context: context)
    let report =
      if let file {
        migrator.recoverNowBlocking(fromFile: file, dryRun: isDryRun)
      } else {
        migrator.recoverNowBlocking(
          dryRun: isDryRun, includingNeverCommitted: includesNeverCommitted)
      }
    if let nearby {
      ContainerPreflight(target).noteBetterCopies(
        nearby, comparedWith: report.read.survey, context: context)
    }
    return ReportRendering.output(
      report, libraryPath: target.libraryPath, folders: target, context: context)
  }
}
