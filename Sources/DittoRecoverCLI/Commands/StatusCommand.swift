import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge
import RecoveryFile

/// `ditto-recover status`: what the probe sees, without reading or writing anything.
struct StatusCommand: Command {
  static let name = "status"
  static let abstract = "Show the legacy store candidates, the chosen one and the completion flag."
  static let discussion: String? = """
    With --from FILE, describes that file instead (a .dittorecovery file or a 2.x store, read on a
    private copy): where a recovery file came from, when and by which tool it was written, its counts
    per source, and what the engine reads in it. Exits 65 when it cannot be read.
    """
  /// `--container` is required unless `--from` is given.
  @Argument(
    group: ContainerOptions.specs(
      containerHelp:
        "The App Group container folder copied from the device (not needed with --from)."),
    ContainerOptions.init)
  var target: ContainerOptions
  @Argument(
    .path(
      "from", value: "file",
      help: "Describe this recovery file (or 2.x store) instead of a container."))
  var file: String?

  func validate() throws(UsageError) {
    if file == nil, !target.hasContainer {
      throw UsageError.missing(ContainerOptions.container.spec)
    }
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    if let file { return try describe(file) }
    if let ambiguity = target.ambiguity {
      // Nothing is guessed: each folder that could be the container, with the command for it.
      let headline =
        "recoverable: unknown: \(ArgumentSpelling.shown(path: ambiguity.given)) holds \(ambiguity.choices.count) folders that could be the \(ambiguity.option.name) (\(ambiguity.choices.map(ArgumentSpelling.shown(path:)).joined(separator: ", ")))"
      // Exit 66, as every other command on the same folder: the answer is "give the one to read".
      return .result(
        AmbiguousFolderOutput(ambiguous: ambiguity.choices, next: ambiguity.steps.commands),
        text: ([headline] + ambiguity.steps.lines).joined(separator: "\n") + "\n",
        exitCode: .noInput)
    }
    try ContainerPreflight(target).validate(context)
    let migrator = EngineFactory.migrator(for: target, context: context)
    let survey = migrator.surveyBlocking(.contentsAndSalvage)
    let nearby = ContainerPreflight(target).nearby(given: survey)
    let flag = Result { () throws(FlagStoreError) -> Bool in
      try migrator.flags.readFlags().isComplete
    }
    let view = StatusView(
      survey: survey, flag: flag, library: LibraryStatus(path: target.libraryPath),
      target: target, invocation: context.invocation, nearby: nearby)
    return .result(view.value, text: view.text)
  }
}

extension StatusCommand {
  /// `status --from FILE`: the recovery record and what the engine's reader finds in the file.
  func describe(_ file: String) throws -> CommandOutput {
    try InputError.requireExisting(file, option: $file.spec)
    let summary: LegacyReadSummary
    do {
      summary = try CoreDataStore.withSnapshot(of: file) { store throws(LegacyStoreError) in
        try LegacyStoreReader(store: store).count()
      }
    } catch {
      throw DataError(
        "\(ArgumentSpelling.described(error)): not a recovery file or a Ditto 2.x store")
    }
    let info = try RecoveryFileInfo.read(path: file)
    var lines = ["file: \(ArgumentSpelling.shown(path: file))"]
    lines += info.map(RecoveryRendering.lines) ?? ["a Ditto 2.x store (no recovery record)"]
    lines.append(
      "reads as: \(plural(summary.categories, "category", "categories")), \(plural(summary.dittos, "ditto")) (what 'recover --from' offers)"
    )
    return .result(
      FileDescriptionOutput(
        file: file, recovery: info.map(RecoveryOutput.init), categories: summary.categories,
        dittos: summary.dittos),
      text: lines.joined(separator: "\n") + "\n")
  }
}

/// What `status` says about the app's library (read on a private snapshot; never written).
struct LibraryStatus {
  let path: String
  let summary: DittoStoreSummary?
  let error: DestinationError?

  init(path: String) {
    self.path = path
    do {
      summary = try DittoStoreFile.summary(at: path)
      error = nil
    } catch {
      summary = nil
      self.error = error
    }
  }

  var line: String {
    if let summary, summary.exists {
      var line =
        "library: \(ArgumentSpelling.shown(path: path)): \(plural(summary.categories, "category", "categories")), \(plural(summary.dittos, "ditto"))"
      if summary.cloudKit {
        line +=
          " (this library has iCloud sync tables; if sync is on, Ditto uploads new dittos the next time it syncs)"
      }
      if let refusal = summary.writeRefusal { line += "; will not be written: \(refusal)" }
      return line
    }
    if let error, error.kind != .noLibrary {
      return "library: \(ArgumentSpelling.described(error))"
    }
    return
      "library: \(ArgumentSpelling.shown(path: path)): none yet (run Ditto 3.0.2 on the device to create it)"
  }
}
