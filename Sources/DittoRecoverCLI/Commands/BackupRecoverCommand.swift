import BackupReader
import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import LibraryMerge
import SafeFiles

/// `ditto-recover backup recover`: rebuild Ditto's containers from a backup, then recover from them.
struct BackupRecoverCommand: Command {
  static let name = "recover"
  static let abstract = "Rebuild Ditto's files from a backup and recover the old dittos from them."
  static let discussion: String? = """
    Reads Manifest.db on a private copy, copies every file of AppDomainGroup-group.io.kern.ditto and
    AppDomain-io.kern.Ditto into OUT/<domain>/ (sizes checked against the manifest), then runs the
    same recovery as 'recover' on them. Given several backups, uses the newest that holds a Ditto store.
    An encrypted backup needs its password in a file (--password-file), never on the command line.
    The library is the backup's own Ditto.store, rebuilt in OUT/AppDomainGroup-group.io.kern.ditto/
    (or --library); a backup made before Ditto 3.0 has none: exit 74, with what its old files hold and
    the commands that fit ('backup extract' for the phone, 'export --legacy' for a CSV).
    Then: ditto-recover export --library OUT/AppDomainGroup-group.io.kern.ditto/Ditto.store --format csv
    """
  /// The command's options, declared once.
  @Argument(BackupCommand.backup) var backupRoot: String = "."
  @Argument(
    .path(
      "library", value: "file",
      help:
        "The Ditto 3.x library to import into (default: the backup's Ditto.store, rebuilt in <out>)."
    ))
  var library: String?
  @Argument(
    .path(
      "out", value: "dir",
      help: "The folder to rebuild into (new or empty; default: a new temporary folder).",
      kind: .folder))
  var out: String?
  @Argument(BackupCommand.passwordFile) var passwordFile: String?

  func run(_ context: ToolContext) throws -> CommandOutput {
    let (chosen, listing, summaries) = try BackupCommand.chooseListing(
      root: backupRoot, passwordFile: passwordFile, context: context)
    try BackupCommand.requireDittoFiles(
      chosen, summaries: summaries, invocation: context.invocation)
    BackupCommand.warnAbout(chosen.backup.metadata, context: context)

    // Built in a private folder of ours and given its name only when the run is over: decrypted
    // files never sit under a name the user chose while the run can still be stopped.
    let staged = try prepareOutput(chosen, context: context)
    let output = staged.folder.path
    if let library {
      for root in [backupRoot, chosen.backup.path] where OutputFolder.isInside(library, root) {
        throw UsageError(
          "'\($library.spec.synopsis)' must not be inside the backup folder \(root)")
      }
    }

    let progress = ProgressLine(
      "rebuilding the backup's Ditto files", totalBytes: 0, context: context)
    let rebuild = BackupRebuilder(backup: chosen.backup, output: output).rebuild(
      listing, contents: chosen.contentReader
    ) { done, total in progress.update(done: done, total: total) }
    progress.finish()
    for file in rebuild.files where file.status != .copied {
      context.diagnose(
        "warning: \(file.domain)/\(file.relativePath): \(file.status.rawValue): \(file.reason ?? "")"
      )
    }
    for problem in rebuild.folderProblems + listing.problems {
      context.diagnose("warning: \(problem)")
    }

    // Before anything is published or imported: a listed store the backup does not give is
    // "could not read", never "nothing".
    try BackupCommand.requireListedStoresRebuilt(
      rebuild, chosen: chosen, summaries: summaries, invocation: context.invocation)
    let layout = ContainerLayout(container: rebuild.container, home: rebuild.home)
    let libraryPath = library ?? layout.defaultLibraryPath
    if library == nil, let unrebuilt = Self.libraryNotRebuilt(rebuild) {
      // The backup lists its library but does not give it: "could not read", never "made before
      // Ditto 3.0"; nothing is imported and nothing is left under --out.
      throw LibraryFailure(
        DestinationError(
          .readFailed, file: libraryPath,
          reason: "the backup lists it, but it could not be rebuilt (\(unrebuilt))"),
        explanation:
          "\(ArgumentSpelling.shown(path: chosen.backup.path)) holds a Ditto 3.x library (\(ContainerLayout.libraryFileName)), but it could not be rebuilt from the backup (\(unrebuilt)): nothing was imported, and nothing was made\(out.map { " under \(ArgumentSpelling.shown(path: $0))" } ?? "")"
      )
    }
    if library == nil, !LibraryFailure.exists(libraryPath) {
      // The rebuilt files are the answer here: published first, then described where they are.
      let final = try staged.publish()
      var published = rebuild
      published.container = staged.final(rebuild.container)
      published.home = rebuild.home.map(staged.final)
      throw madeBeforeDitto3(
        chosen,
        layout: ContainerLayout(container: published.container, home: published.home),
        output: final, context: context)
    }
    try LibraryFailure.requireExisting(libraryPath)
    let destination = EngineFactory.destination(libraryPath, context: context)
    let migrator = LegacyDataMigrator(
      layout: layout, destination: destination,
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: context.logger)
    let report = migrator.recoverNowBlocking()
    var exitCode = ExitCode.of(report)
    let unreadable = summaries.filter { $0.error != nil }
    if report.outcome == .nothingOnDisk, !unreadable.isEmpty {
      // Another backup may hold the store: "nothing here" is not proven.
      context.printError(
        "nothing to recover in \(ArgumentSpelling.shown(path: chosen.backup.path)), but \(unreadable.count) other backups could not be read and may hold Ditto data"
      )
      if exitCode == .success { exitCode = .dataError }
    }
    let failedInputs = rebuild.failedEngineInputs
    if !failedInputs.isEmpty {
      context.printError(
        "\(failedInputs.count) Ditto data files listed in the backup could not be rebuilt; the recovery may be incomplete"
      )
      if exitCode == .success { exitCode = .dataError }
    }

    let final = try staged.publish()
    var published = rebuild
    published.container = staged.final(rebuild.container)
    published.home = rebuild.home.map(staged.final)
    return try finish(
      report, exitCode: exitCode, chosen: chosen, listing: listing, summaries: summaries,
      rebuild: published, output: final, libraryPath: staged.final(libraryPath),
      naming: staged.final, context: context)
  }

  /// The report of a published output.
  private func finish(
    _ report: MigrationReport, exitCode: ExitCode, chosen: BackupSummary, listing: ManifestListing,
    summaries: [BackupSummary], rebuild: RebuildReport, output: String, libraryPath: String,
    naming: @escaping ReportRendering.FileNaming, context: ToolContext
  ) throws -> CommandOutput {
    ReportRendering.printWarnings(report, to: context)
    // Only the form printed is built.
    let value = {
      Combined(
        ReportRendering.value(report, libraryPath: libraryPath, naming: naming),
        BackupMember(
          backup: Combined(
            BackupIdentity(chosen.backup),
            BackupRecoverOutput(
              chosen, listing: listing, rebuild: rebuild, output: output,
              backupsFound: summaries.count))))
    }
    let text = {
      BackupRendering.recoverText(chosen, rebuild: rebuild, output: output)
        + ReportRendering.text(report, libraryPath: libraryPath, naming: naming)
        + NextStep.export(
          .export(library: libraryPath, format: "csv"), into: "dittos.csv",
          label: "the library as a CSV"
        ).line + "\n"
    }
    return CommandOutput.result(value(), text: text(), exitCode: exitCode)
  }

  /// Why the library the backup lists (its `Ditto.store`, or a sidecar of it) was not rebuilt; nil
  /// when it was, or when the backup lists none.
  static func libraryNotRebuilt(_ rebuild: RebuildReport) -> String? {
    let failed = rebuild.files.first { file in
      file.domain == DittoDomain.appGroupDomain
        && [ContainerLayout.libraryFileName, ContainerLayout.libraryFileName + "-wal"].contains(
          file.relativePath)
        && [.missing, .failed, .refused].contains(file.status)
    }
    return failed.map { "\($0.relativePath): \($0.status.rawValue): \($0.reason ?? "")" }
  }

  /// A backup made before Ditto 3.0 holds no library to recover into: what its rebuilt files hold,
  /// and the commands that fit (a recovery file for the phone, a CSV).
  private func madeBeforeDitto3(
    _ chosen: BackupSummary, layout: ContainerLayout, output: String, context: ToolContext
  ) -> LibraryFailure {
    let survey = LegacySurvey.of(
      layout, defaults: AppGroupDefaults(path: layout.defaultsPath), logger: context.logger)
    let preview = survey.preview(for: .manual)
    let explanation =
      "\(ArgumentSpelling.shown(path: chosen.backup.path)) holds no Ditto 3.x library (Ditto.store): the backup was made before Ditto 3.0, so there is nothing in it to recover into (ditto-recover never creates a library). Its Ditto files are rebuilt in \(ArgumentSpelling.shown(path: output)); \(StatusRendering.headline(survey))"
    var next: [NextStep] = []
    guard preview.dittos > 0 else {
      return LibraryFailure(
        DestinationError(.noLibrary, file: layout.defaultLibraryPath, reason: "none in the backup"),
        explanation: explanation, next: next)
    }
    let extract = Invocation.backupExtract(chosen.backup.path, passwordFile: passwordFile)
      .with(RecoveryFileOutput.salvage, if: preview.isSalvaged)
    next.append(
      .command(extract, label: "for the iPhone: a recovery file to open with Ditto 3.0.2"))
    for source in preview.sources {
      switch source.origin {
      case .store(let candidate):
        next.append(
          .export(
            .export(legacy: candidate.path, format: "csv"), into: "dittos.csv",
            label: "a CSV of the old store's dittos that Ditto's Import reads"))
      case .salvage(let candidate):
        next.append(
          .export(
            .salvage(candidate.path, format: "csv"), into: "dittos.csv",
            label: "a CSV of the dittos salvage rebuilds, that Ditto's Import reads"))
      case .defaults, .neverCommitted:
        continue
      }
      break
    }
    return LibraryFailure(
      DestinationError(.noLibrary, file: layout.defaultLibraryPath, reason: "none in the backup"),
      explanation: explanation, next: next)
  }

  /// A private folder to rebuild into: beside `--out` (new or an empty folder), published under
  /// its name when the run is over; or a new folder in the temporary directory, kept in place.
  /// Never inside a backup.
  private func prepareOutput(_ chosen: BackupSummary, context: ToolContext) throws
    -> StagedOutput
  {
    guard let out else {
      let staged = try StagedOutput.temporary()
      context.diagnose(
        "rebuilding into \(ArgumentSpelling.shown(path: staged.folder.path)) (a new folder, kept after the run)"
      )
      return staged
    }
    for root in [backupRoot, chosen.backup.path] where OutputFolder.isInside(out, root) {
      throw UsageError(
        "'\($out.spec.synopsis)' must not be inside the backup folder \(root)")
    }
    return try StagedOutput.beside(
      trimmed(out), option: $out.spec, rawName: context.folderName(out))
  }

  private func trimmed(_ path: String) -> String {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }
}
