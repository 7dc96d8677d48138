import Exchange
import JSONOutput
import LegacyStore
import Salvage

/// `ditto-recover salvage PATH`: what the bytes of a damaged store or a lone `-wal` still hold.
struct SalvageCommand: Command {
  static let name = "salvage"
  static let abstract = "Rebuild dittos from a store SQLite cannot open, or from a -wal left alone."
  static let discussion: String? = """
    PATH is a store file (its -wal and -shm beside it are used) or a lone -wal file. Reads raw pages
    (main file, WAL frames valid by salt and checksum, free space) on a private copy and reports what
    each source gave; nothing is imported. Rows SQLite can still read are taken as SQLite reads them.
    Deleted rows are never part of the result; --include-deleted lists them apart.
    To import what salvage finds, use 'recover' (the manual path salvages unreadable stores).
    """
  /// The command's options, declared once.
  @Argument(.positionalPath("path", value: "path", help: "A store file, or a lone -wal file."))
  var path: String = ""
  @Argument(
    Flag(
      "include-deleted", help: "Also list dittos found in free space (deleted by the user)."))
  var includeDeleted: Bool
  @Argument(
    Flag(
      "include-never-committed",
      help:
        "In CSV, also write dittos found only in -wal frames no commit covers, in categories of their own."
    ))
  var includesNeverCommitted: Bool
  @Argument(FormatOption.make(help: "Print the rebuilt dittos as JSON or as CSV the app imports."))
  var namedFormat: ExportFormat?

  func run(_ context: ToolContext) throws -> CommandOutput {
    // `--json` as the tool decided it for the run: it means `--format json`.
    try FormatOption.check(namedFormat, json: context.isJSON)
    let format = context.isJSON ? .json : namedFormat
    var options = SalvageOptions(includeDeleted: includeDeleted)
    if context.showsProgress {
      let progress = ProgressLine("salvage", totalBytes: 0, context: context)
      options.onPages = { done, total in
        progress.update(count: done, of: "pages", detail: "of \(total)")
      }
    }
    let result = try Salvager.salvage(path: path, options: options)
    switch format {
    case .json:
      // `--format json` asks for the JSON whether or not `--json` was given.
      let value = SalvageOutput(result, includeDeleted: includeDeleted)
      return .result(value, text: CommandOutput.json(JSONValue(encoding: value)))
    case .csv:
      return .stream { output in
        writeCSV(result, to: output, context: context)
        return .success
      }
    case nil:
      return .result(SalvageOutput(result, includeDeleted: includeDeleted), text: text(result))
    }
  }

  /// The CSV the app imports holds what was committed; rows of frames never committed only when
  /// asked for, in categories of their own ("<title> (never committed)"), never mixed in.
  private func writeCSV(_ result: SalvageResult, to output: any TextOutput, context: ToolContext) {
    let writer = ExportWriter(format: .csv) { output.write(bytes: $0) }
    for category in result.committedLibrary.categories {
      writer.beginCategory(title: category.title)
      for ditto in category.dittos { writer.ditto(text: ditto.text, useCount: ditto.useCount) }
    }
    if includesNeverCommitted {
      for category in result.neverCommittedLibrary.categories {
        writer.beginCategory(title: SalvageResult.neverCommittedTitle(category.title))
        for ditto in category.dittos { writer.ditto(text: ditto.text, useCount: ditto.useCount) }
      }
    }
    writer.finish()
    if result.neverCommitted > 0, !includesNeverCommitted {
      context.diagnose(
        "note: \(plural(result.neverCommitted, "more ditto", "more dittos")) only in -wal frames never committed are not in this CSV (SQLite would never have shown them)"
      )
      let step = NextStep.command(
        context.invocation + ["--include-never-committed"],
        label: "adds them, in categories of their own")
      context.diagnose([step].lines.joined(separator: "\n"))
    }
  }

  private func text(_ result: SalvageResult) -> String {
    var lines = ["salvaged \(ArgumentSpelling.shown(path: path)):"]
    for source in result.sources {
      lines.append("  \(source.kind.rawValue): \(source.pages) pages, \(source.rows) rows")
    }
    lines.append(
      "  \(plural(result.library.dittoCount, "ditto")) in \(plural(result.library.categories.count, "category", "categories"))\(result.usedSQLite ? " (SQLite could read part of the store)" : "")"
    )
    for category in result.library.categories {
      lines.append("    \(category.title): \(plural(category.dittos.count, "ditto"))")
    }
    if result.neverCommitted > 0 {
      lines.append(
        "  of which \(plural(result.neverCommitted, "ditto")) in frames never committed (a -wal cut short or with a broken checksum chain: SQLite never reads them; listed after the committed ones, never imported unless asked for with --include-never-committed)"
      )
      lines.append(
        "  committed: \(plural(result.committedLibrary.dittoCount, "ditto")) in \(plural(result.committedLibrary.categories.count, "category", "categories"))"
      )
    }
    if includeDeleted {
      lines.append("  \(result.deleted.count) deleted dittos found in free space (not imported)")
    }
    for note in result.notes { lines.append("  note: \(note)") }
    lines.append(
      "Use --format csv for a file the app imports, or 'recover' to import into a library.")
    return lines.joined(separator: "\n") + "\n"
  }
}
