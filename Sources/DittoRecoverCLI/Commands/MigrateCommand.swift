import ContainerFiles
import Exchange
import LegacyMigration

/// `ditto-recover migrate`: the automatic path (`migrateIfNeeded`).
struct MigrateCommand: Command {
  static let name = "migrate"
  static let abstract = "Run the automatic migration, as the app does at launch."
  static let discussion: String? = """
    Skipped when the App Group defaults hold legacyCoreDataMigrationComplete_v302 = true (the 3.0.0 and
    3.0.1 flags are ignored). Otherwise probes the container, imports the largest store and sets the flag
    (after found_unreadable, only once three attempts have failed). Writes into the app's library, an
    existing Ditto.store (never created here: without one, exit 74).
    """
  @Argument(group: ContainerOptions.specs, ContainerOptions.init) var target: ContainerOptions
  @Argument(
    Flag(
      "dry-run",
      help: "Compute what the automatic migration would do; write nothing, leave the flag alone."))
  var isDryRun: Bool

  func run(_ context: ToolContext) throws -> CommandOutput {
    try ContainerPreflight(target).validate(context)
    if !isDryRun { try ContainerPreflight(target).requireLibrary() }
    let here = try ContainerPreflight(target).requireNoBetterCopy(
      context, stopsWhenFewer: !isDryRun)
    let migrator = EngineFactory.migrator(for: target, context: context)
    let outcome =
      isDryRun ? migrator.previewAutomaticMigration() : migrator.migrateIfNeededBlocking()
    switch outcome {
    case .alreadyComplete:
      return .result(
        AlreadyCompleteOutput(),
        text:
          "Nothing to do: the 3.0.2 migration already completed (\(AppGroupDefaults.completionKey) is set).\nUse 'ditto-recover recover' to recover again.\n"
      )
    case .attempted(let report):
      return ReportRendering.output(
        report, libraryPath: target.libraryPath, folders: target, context: context,
        salvageWouldGive: ReportRendering.salvageWouldGive(
          report, survey: here ?? migrator.surveyBlocking(.contentsAndSalvage)))
    }
  }
}
