import Exchange
import Foundation
import JSONOutput
import LegacyMigration
import RecoveryFile

/// What `extract` and `backup extract` share: the `--out` and `--salvage` options, the checks that keep
/// the output out of the input, writing the file and reporting it.
enum RecoveryFileOutput {
  static let out = Option<String>.path(
    "out", value: "file",
    help:
      "The recovery file to write (default: Ditto-recovered-<date>.dittorecovery here, -2, -3, … when taken); never overwritten."
  )
  static let salvage = Flag(
    "salvage",
    help: "Also put in dittos rebuilt from damaged stores or a lone -wal (as 'salvage' finds them)."
  )
  static let includeNeverCommitted = Flag(
    "include-never-committed",
    help:
      "With --salvage, also put in dittos found only in -wal frames no commit covers (in categories of their own)."
  )

  /// Refuses an output inside any of `inputs` (a backup, a container): they are only ever read.
  static func requireOutside(_ out: String, inputs: [String]) throws {
    for input in inputs where OutputFolder.isInside(out, input) {
      throw UsageError(
        "'\(Self.out.spec.synopsis)' must not be inside \(input): it is only ever read")
    }
  }

  /// Why no file is written, and the one next step: `--salvage` when salvage rebuilds dittos (and
  /// how many), what to do about a failure that said nothing about the data; never `--salvage`
  /// when it was given.
  static func nothingToWrite(
    _ extraction: RecoveryExtraction, context: ToolContext,
    naming: @escaping ReportRendering.FileNaming = { $0 },
    surveyed: LegacySurvey? = nil
  ) -> DataError {
    let read = extraction.readReport
    var message = "nothing readable to put in a recovery file (\(read.outcome.rawValue))"
    if let failure = read.failure {
      message += ": \(failure.described(naming: ReportRendering.shown(naming)))"
    }
    if read.outcome == .nothingOnDisk, !read.orphanWALs.isEmpty {
      message +=
        ": the store is gone, a -wal without its store is left (\(read.orphanWALs.map(\.relativePath).joined(separator: ", ")))"
    }
    var next = ReportRendering.advice(read, running: context.running)
    let (more, neverCommitted) = extraction.salvageWouldAdd(given: surveyed)
    if neverCommitted > 0 {
      message +=
        "; \(plural(neverCommitted, "ditto")) only in -wal frames never committed (SQLite would never have shown them)"
      next.append(
        .command(
          context.invocation + [includeNeverCommitted.spec.synopsisName],
          label: "with them, in categories of their own"))
    }
    if extraction.trigger == .auto {
      if more > 0 {
        message +=
          "; salvage rebuilds \(more) \(more == 1 ? "ditto" : "dittos") from the bytes SQLite cannot read"
        next.append(
          .command(
            context.invocation + [salvage.spec.synopsisName],
            label: "with the dittos salvage rebuilds"))
      }
    } else if read.outcome == .foundUnreadable, neverCommitted == 0 {
      message += "; salvage found nothing it could decode either"
    }
    return DataError(message + "; no file written", next: next)
  }

  /// Writes the file (unless there is nothing to put in it) and returns what to print: under
  /// `--json` the file's object with `source`'s members (where it was read from) beside its own.
  ///
  /// - Returns: exit 0, or 65 when part of the data could not be read (the readable part is
  ///   written).
  /// - Throws: ``DataError`` when nothing readable was found (no file, exit 65);
  ///   ``RecoveryFileError`` when `out` exists (73) or cannot be written (74).
  ///
  /// `naming` names a file the way the user knows it (a backup's file rebuilt in a private folder,
  /// by the backup and its domain path: the private folder is gone when the run ends).
  static func finish(
    _ extraction: RecoveryExtraction, info: RecoveryFileInfo, out: String,
    source: some Encodable, context: ToolContext,
    naming: @escaping ReportRendering.FileNaming = { $0 },
    surveyed: LegacySurvey? = nil
  ) throws -> CommandOutput {
    let read = extraction.readReport
    // Each error once: the one that decided the outcome is in the final message.
    for source in read.sources {
      if let failure = source.failure, failure != read.failure {
        context.printError(failure.described(naming: ReportRendering.shown(naming)))
      }
    }
    guard extraction.offeredDittos > 0 else {
      throw nothingToWrite(extraction, context: context, naming: naming, surveyed: surveyed)
    }
    let written: (info: RecoveryFileInfo, report: MigrationReport)
    // On a terminal: the dittos read of those offered, how fast, how long is left.
    let progress =
      context.showsProgress
      ? ProgressLine("writing the recovery file", totalBytes: 0, context: context) : nil
    defer { progress?.finish() }
    do {
      written = try extraction.write(info: info, to: out) { merged in
        progress?.update(count: Int64(merged.read), of: Int64(merged.offered), "dittos")
      }
      progress?.finish()
    } catch {
      guard error.kind == .alreadyExists else { throw error }
      // The same command, writing to a name nothing has yet.
      let free = RecoveryRendering.freeName(like: out)
      var again = context.invocation
      if let index = again.firstIndex(of: Self.out.spec.synopsisName), index + 1 < again.count {
        again[index + 1] = free
      } else {
        again += [Self.out.spec.synopsisName, free]
      }
      throw OutputError.exists(
        ArgumentSpelling.described(error),
        next: [.command(again, label: "to a new file; nothing is replaced")])
    }
    let (info, report) = written
    var exitCode = ExitCode.success
    /// Dittos left out of the file, said with the option that puts them in.
    func leftOut(_ note: String, adding option: String, label: String) {
      context.diagnose(
        "note: \(note)\n"
          + [NextStep.command(context.invocation + [option], label: label)].lines.joined(
            separator: "\n"))
    }
    let left = extraction.readReport.neverCommittedLeft
    if left > 0 {
      leftOut(
        "\(plural(left, "more ditto", "more dittos")) only in -wal frames never committed are not in the file (SQLite would never have shown them)",
        adding: includeNeverCommitted.spec.synopsisName,
        label: "a file with them too, in categories of their own")
    }
    // What only salvage reads (a lone -wal, a store SQLite cannot open) is never left silently.
    let more = extraction.trigger == .auto ? extraction.dittosSalvageWouldAdd() : 0
    if more > 0 {
      leftOut(
        "salvage rebuilds \(plural(more, "more ditto", "more dittos")) from a lone -wal or a store SQLite cannot read; they are not in the file",
        adding: salvage.spec.synopsisName,
        label: "a file with the dittos salvage rebuilds too (to a new name)")
    }
    if report.outcome == .foundUnreadable {
      context.printError(
        "\(report.failure?.described(naming: ReportRendering.shown(naming)) ?? "a source could not be read"): the file holds only what could be read"
      )
      exitCode = .dataError
    }
    // Only the form printed is built.
    let value = {
      WrittenRecoveryOutput(
        out: out, outcome: report.outcome.rawValue, categories: info.categories,
        dittos: info.dittos, salvaged: info.salvaged,
        sources: report.sources.map { SourceOutput($0, naming: naming) },
        recovery: RecoveryOutput(info),
        error: report.failure?.described(naming: ReportRendering.shown(naming)),
        neverCommittedLeft: left > 0 ? left : nil)
    }
    let lines = {
      [
        "wrote \(ArgumentSpelling.shown(path: out)): \(plural(info.dittos, "ditto")) in \(plural(info.categories, "category", "categories"))"
      ]
        + RecoveryRendering.lines(info)
        + [
          NextStep.note(
            "AirDrop the file to the iPhone (or save it to Files) and open it with Ditto 3.0.2"),
          .command(.status(from: out), label: "or check it here"),
        ].lines
    }
    // The file's own members win over where it was read from.
    return .result(
      Combined(source, value()), text: lines().joined(separator: "\n") + "\n", exitCode: exitCode)
  }
}

/// `{"container": …}`: where `extract` read from, beside the file's members.
struct ContainerMember: Encodable {
  let container: String
}

/// `extract --json` and `backup extract --json`: the file written and what it holds (the command
/// adds where it read from: `container` or `backup`).
struct WrittenRecoveryOutput: Encodable {
  let out: String
  let outcome: String
  let categories: Int
  let dittos: Int
  let salvaged: Int?
  let sources: [SourceOutput]
  let recovery: RecoveryOutput
  @OmittedWhenNil var error: String? = nil
  /// Dittos only in `-wal` frames never committed left out of the file (omitted when none).
  @OmittedWhenNil var neverCommittedLeft: Int? = nil
}
