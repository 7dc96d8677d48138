import DittoStore
import Exchange
import LegacyMigration

/// The JSON and text forms of a migration report (the `migrate` and `recover` contracts).
///
/// Every file the report names goes through `naming` (a path value in, where the user finds it
/// out): as read by default; for files read in a folder built before it was given its name
/// (`backup recover --out`), under that name (``StagedOutput/final(_:)``). A command's words take
/// that path; a sentence or a JSON string shows it as typed (``shown(_:)``).
enum ReportRendering {
  /// Where the user finds a file the report holds.
  typealias FileNaming = (String) -> String

  /// How a sentence or a JSON string shows a file `naming` places: as the user typed it
  /// (``ArgumentSpelling/shown(path:)``). A command's words take the path itself.
  static func shown(_ naming: @escaping FileNaming) -> FileNaming {
    { ArgumentSpelling.shown(path: naming($0)) }
  }

  /// `{"attempted": true, "source": …, "outcome": …, "legacyStore": …, "legacyBytes": N, "categories": N,
  /// "dittos": N, "insertedCategories": N, "inserted": N, "skipped": N, "flagSet": bool, "error": …}`,
  /// plus `result`/`message` for the manual path, `dryRun` for a preview, and `transient`,
  /// `reason` and `advice` when a failure said nothing about the data (nothing was counted).
  static func value(
    _ report: MigrationReport, libraryPath: String, running: RunningCommand = .none,
    salvageWouldGive: SalvageEstimate? = nil, naming: @escaping FileNaming = { $0 }
  ) -> ReportOutput {
    let steps =
      advice(report, running: running, naming: naming)
      + otherStoreSteps(report, libraryPath: libraryPath, naming: naming)
      + leftBehindSteps(report, running: running)
    var output = ReportOutput(report, libraryPath: libraryPath, steps: steps, naming: naming)
    if let salvageWouldGive {
      output.salvageable = salvageWouldGive.dittos
      if salvageWouldGive.neverCommitted > 0 {
        output.neverCommitted = salvageWouldGive.neverCommitted
      }
    }
    return output
  }

  /// What salvage would rebuild where the automatic path does not salvage: its committed dittos,
  /// those only in frames never committed, and the files.
  struct SalvageEstimate: Equatable {
    var dittos: Int
    var neverCommitted: Int
    var files: [String]

    /// The text line: `salvage: Recover Old Dittos would rebuild 15 dittos from Ditto.sqlite-wal`.
    var line: String {
      let extra =
        neverCommitted > 0
        ? " (and \(plural(neverCommitted, "more ditto", "more dittos")) only in frames never committed, imported only when asked for)"
        : ""
      return
        "salvage: Recover Old Dittos (ditto-recover recover) would rebuild \(plural(dittos, "ditto")) from \(files.joined(separator: ", "))\(extra)"
    }
  }

  /// For an automatic attempt that found legacy data it did not read (a damaged store, a lone
  /// `-wal`): what salvage would rebuild, from `survey` (the folder read's, salvage counted: the
  /// same as `status` and `recover` read; nothing written), asked for only then. Nil on the manual
  /// path, for a transient failure, or when salvage finds nothing.
  static func salvageWouldGive(
    _ report: MigrationReport, survey: @autoclosure () -> LegacySurvey
  ) -> SalvageEstimate? {
    guard report.trigger == .auto, report.outcome == .foundUnreadable,
      report.transientReason == nil
    else { return nil }
    let preview = survey().preview(for: .manual)
    let estimate = SalvageEstimate(
      dittos: preview.salvagedDittos, neverCommitted: preview.neverCommitted,
      files: preview.salvageFiles)
    return estimate.dittos + estimate.neverCommitted > 0 ? estimate : nil
  }

  /// For each store the attempt did not import that holds dittos the imported store lacks: the
  /// command that imports it (the same merge; duplicates skipped), runnable as printed.
  static func otherStoreSteps(
    _ report: MigrationReport, libraryPath: String,
    naming: @escaping FileNaming = { $0 }
  ) -> [NextStep] {
    report.otherStores.filter { !$0.imported && ($0.missing ?? 1) > 0 }.map {
      .command(
        .recover(from: naming($0.candidate.path), library: libraryPath),
        label: "imports the dittos of \($0.candidate.relativePath) the library lacks")
    }
  }

  /// What the attempt left on purpose that holds dittos: rows only in `-wal` frames never
  /// committed (the same command with `--include-never-committed`), and, on the automatic path,
  /// a lone `-wal` it does not rebuild (the same command as `recover`, which does).
  static func leftBehindSteps(_ report: MigrationReport, running: RunningCommand) -> [NextStep] {
    if report.neverCommittedLeft > 0, running.is(RecoverCommand.self) {
      return [
        .command(
          running.adding(\RecoverCommand.$includesNeverCommitted),
          label:
            "also imports the \(plural(report.neverCommittedLeft, "ditto")) only in frames never committed"
        )
      ]
    }
    if report.trigger == .auto, report.salvaged == nil, !report.orphanWALs.isEmpty,
      report.counts.dittosRead == 0, running.is(MigrateCommand.self),
      let recover = running.runningAs(RecoverCommand.self)
    {
      return [.command(recover, label: "Recover Old Dittos: rebuilds what the -wal holds")]
    }
    return []
  }

  /// `Ditto.sqlite in the container (4096 bytes, -wal 41232 bytes)`.
  static func describe(_ candidate: LegacyCandidate) -> String {
    let root =
      switch candidate.root {
      case .appGroup: "in the container"
      case .app: "in the home"
      case .picked: "(the file given)"
      }
    let sizes =
      candidate.walBytes > 0
      ? "\(candidate.bytes) bytes, -wal \(candidate.walBytes) bytes" : "\(candidate.bytes) bytes"
    return "\(candidate.relativePath) \(root) (\(sizes))"
  }

  /// What to do about the failure that made the attempt count for nothing: the lines of
  /// ``NextSteps`` for the store's error, else the first path not opened, else the defaults.
  static func advice(
    _ report: MigrationReport, running: RunningCommand,
    naming: @escaping FileNaming = { $0 }
  ) -> [NextStep] {
    let invocation = running.words
    if let error = report.destinationError {
      switch error.cause {
      case .awaitingICloud: return NextSteps.awaitingICloud(invocation: invocation)
      case .readOnly: return NextSteps.readOnlyLibrary(error.file, invocation: invocation)
      case nil: break
      }
    }
    guard report.transientReason != nil else {
      // A store that cannot be read for good: salvage rebuilds what its bytes still hold.
      guard report.outcome == .foundUnreadable, let store = report.store,
        !running.is(SalvageCommand.self)
      else { return [] }
      return [
        .command(
          .salvage(naming(store.path)),
          label: "what the damaged store's bytes still hold")
      ]
    }
    if let error = report.readError, error.isTransient {
      return NextSteps.transient(error, invocation: invocation)
    }
    if let skipped = report.skipped.first {
      return NextSteps.transient(skipped.error, invocation: invocation)
    }
    if let error = report.defaultsError {
      return NextSteps.transient(error, invocation: invocation)
    }
    return []
  }

  /// The output of `report`: its JSON value (with the folders read, when a container was given)
  /// and its text, with the exit code the outcome calls for. Warnings go to standard error now.
  static func output(
    _ report: MigrationReport, libraryPath: String, folders: ContainerOptions?,
    context: ToolContext, salvageWouldGive: SalvageEstimate? = nil
  ) -> CommandOutput {
    printWarnings(report, to: context)
    let running = context.running
    let container = folders.flatMap { $0.hasContainer ? $0.layout.container : nil }
    let text = {
      self.text(
        report, libraryPath: libraryPath, running: running, container: container,
        salvageWouldGive: salvageWouldGive)
    }
    let value = {
      self.value(
        report, libraryPath: libraryPath, running: running, salvageWouldGive: salvageWouldGive)
    }
    guard let folders else {
      return .result(value(), text: text(), exitCode: ExitCode.of(report))
    }
    return .result(
      Combined(value(), folders.foldersRead), text: text(), exitCode: ExitCode.of(report))
  }

  /// Writes one warning line on standard error per path the probe found but did not open (a link,
  /// a folder, a FIFO, a socket, a folder it may not search): the user should know it is there.
  static func printWarnings(_ report: MigrationReport, to context: ToolContext) {
    for skipped in report.skipped {
      context.diagnose("warning: not opened: \(ArgumentSpelling.described(skipped.error))")
    }
  }

  /// The first line of a preview: the seed's confirmation when something was read, otherwise why
  /// nothing would be imported (never "0 dittos will be imported" for a store that could not be read).
  static func previewLine(_ report: MigrationReport) -> String {
    if report.counts.dittosRead > 0 {
      guard report.outcome == .foundUnreadable, let failure = report.failure else {
        return report.previewMessage
      }
      return report.previewMessage
        + " Not everything could be read (\(failure.described(naming: ArgumentSpelling.shown(path:)))): these are the dittos that could."
    }
    switch report.outcome {
    case .foundUnreadable:
      return
        "Nothing would be imported: old data was found but could not be read\(report.transientReason == nil ? "" : " right now") (see the error below)."
    case .nothingOnDisk:
      return "Nothing would be imported: no old data was found here."
    case .emptyStore:
      return "Nothing would be imported: the old store was read in full and holds no ditto."
    case .libraryError:
      return "Nothing would be imported: the library could not be read (see the error below)."
    case .success, .noNewData:
      return report.previewMessage
    }
  }

  /// A few readable lines for standard output.
  ///
  /// - Parameters:
  ///   - container: the folder read, said right after the first line (the message, or the
  ///     preview); nil to leave it out.
  ///   - salvageWouldGive: what salvage would rebuild, said before the completion flag.
  static func text(
    _ report: MigrationReport, libraryPath: String, running: RunningCommand = .none,
    naming: @escaping FileNaming = { $0 }, container: String? = nil,
    salvageWouldGive: SalvageEstimate? = nil
  ) -> String {
    var lines: [String] = []
    /// Adds `line`; after the first one, the folder read.
    func add(_ line: String) {
      lines.append(line)
      if lines.count == 1, let container { lines.append("container: \(shown(naming)(container))") }
    }
    if report.isDryRun {
      add(previewLine(report))
      if let warning = report.libraryWarning {
        add(
          "warning: the library cannot be read (\(ArgumentSpelling.described(warning))): this preview is as against an empty library"
        )
      }
    } else if report.trigger == .manual {
      add(report.recoveryResult.message)
    }
    add(
      "outcome: \(report.outcome.rawValue)\(report.isDryRun ? " (dry run: nothing written)" : "")")
    if let store = report.store {
      add("legacy store: \(describe(store))")
    } else {
      add("legacy store: none found")
    }
    for other in report.otherStores {
      let missing =
        other.missing.map {
          "\($0) of them not in \(report.store?.relativePath ?? "the imported store")"
        } ?? "not compared"
      let fate =
        other.imported
        ? "imported after it"
        : report.isDryRun ? "would not be imported" : "not imported (Recover Old Dittos imports it)"
      add(
        "also holds dittos: \(describe(other.candidate)): \(plural(other.dittos, "ditto")) in \(plural(other.categories, "category", "categories")), \(missing); \(fate)"
      )
    }
    if let failure = report.failure {
      add("error: \(failure.described(naming: shown(naming)))")
    }
    let counts = report.counts
    if report.outcome == .foundUnreadable, counts.dittosRead == 0 {
      add("read: nothing (the old data could not be read)")
    }
    if report.outcome != .nothingOnDisk, report.errorDescription == nil || counts.dittosRead > 0 {
      add(
        "read: \(plural(counts.categoriesRead, "category", "categories")), \(plural(counts.dittosRead, "ditto"))"
      )
      let verb = report.isDryRun ? "would insert" : "inserted"
      add(
        "\(verb): \(plural(counts.insertedCategories, "new category", "new categories")), \(plural(counts.inserted, "new ditto")) (skipped \(plural(counts.skipped, "duplicate")))"
      )
      add("library: \(shown(naming)(libraryPath))")
      if report.libraryFacts?.hasCloudKitTables == true, counts.inserted > 0, !report.isDryRun {
        add(
          "iCloud: this library has iCloud sync tables; if sync is on, Ditto uploads the new dittos the next time it syncs (their persistent history was written)"
        )
      }
    }
    if let salvaged = report.salvaged {
      add("salvaged: \(plural(salvaged, "ditto")) from damaged data")
    }
    if report.neverCommittedLeft > 0 {
      add(
        "never committed: \(plural(report.neverCommittedLeft, "more ditto", "more dittos")) only in -wal frames no commit covers (SQLite would never have shown them): not imported; --include-never-committed imports them on purpose"
      )
    }
    for wal in report.orphanWALs where report.salvaged == nil && report.trigger == .auto {
      add(
        "-wal without its store: \(wal.relativePath) (\(wal.bytes) bytes): its dittos can be rebuilt with 'ditto-recover recover' (Recover Old Dittos)"
      )
    }
    if let salvageWouldGive { add(salvageWouldGive.line) }
    add("completion flag: \(report.settled ? "set" : "not set")")
    // The defaults file holds the flags too: its error is said once.
    if let flagError = report.flagError, flagError.store != report.defaultsError?.file {
      add("flag error: \(shown(naming)(flagError.store)): \(flagError.reason)")
    }
    if let reason = report.transientReason {
      let counted =
        report.trigger == .auto && !report.isDryRun
        ? "; the attempt counter and the completion flag were left as they were" : ""
      add(
        "not read now (\(reason.rawValue)): this says nothing about the dittos, and counts for nothing\(counted)"
      )
    }
    lines += advice(report, running: running, naming: naming).lines
    lines += otherStoreSteps(report, libraryPath: libraryPath, naming: naming).lines
    lines += leftBehindSteps(report, running: running).lines
    return lines.joined(separator: "\n") + "\n"
  }
}

/// `1 ditto`, `2 dittos`: a count with its noun, singular or plural.
func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
