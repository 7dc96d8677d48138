import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import SafeFiles
import Salvage

/// `ditto-recover export`: the library or a legacy store, as JSON or as Ditto 3.x's CSV.
struct ExportCommand: Command {
  static let name = "export"
  static let abstract = "Print the library or a legacy store as JSON or as CSV the app imports."
  static let discussion: String? = """
    Exactly one of --library or --legacy. JSON: {"categories": [{"title", "dittos": [{"text", "useCount"}]}]}
    in order. CSV: header Category,Ditto, one row per ditto, RFC 4180 quoting, CRLF line ends.
    --json is --format json.
    """
  /// The command's options, declared once.
  @Argument(
    .path(
      "library", value: "file",
      help: "A Ditto 3.x library (Ditto.store) to export: what the app shows."))
  var library: String?
  @Argument(
    .path("legacy", value: "file", help: "A legacy 2.x store to export (read on a private copy)."))
  var legacy: String?
  @Argument(FormatOption.make(help: "Output format (default: json).")) var namedFormat:
    ExportFormat?

  func run(_ context: ToolContext) throws -> CommandOutput {
    // `--json` as the tool decided it for the run: it means `--format json`.
    try FormatOption.check(namedFormat, json: context.isJSON)
    if (library == nil) == (legacy == nil) {
      throw UsageError("Specify exactly one of '--library <file>' or '--legacy <file>'")
    }
    let format = context.isJSON ? .json : namedFormat ?? .json
    // The export is the output, streamed as it is read.
    return .stream { output in try export(to: output, format: format, context: context) }
  }

  private func export(to output: any TextOutput, format: ExportFormat, context: ToolContext)
    throws -> ExitCode
  {
    let writer = ExportWriter(format: format) { output.write(bytes: $0) }
    if let legacy, try LegacyFileKind.of(legacy) == .propertyList {
      try exportDefaults(legacy, writer: writer)
    } else if let legacy {
      try CoreDataStore.withSnapshot(
        of: legacy, mapError: { Self.damaged($0, legacy: legacy, format: format) as any Error }
      ) { store throws in
        let reader: LegacyStoreReader
        do {
          reader = try LegacyStoreReader(store: store)
        } catch {
          throw WrongKind.forLegacy(legacy, format: format.rawValue) ?? error
        }
        try reader.walkUTF8(
          category: { title, _ in writer.beginCategory(title: title) },
          ditto: { text, useCount in writer.ditto(utf8: text, useCount: useCount) })
      }
    } else if let library {
      try InputError.requireExisting(library, option: $library.spec)
      let content: DittoStoreContent
      do {
        content = try DittoStoreFile.content(at: library)
      } catch {
        if error.kind == .refused,
          let wrongKind = WrongKind.forLibrary(library, format: format.rawValue)
        {
          throw wrongKind
        }
        throw LibraryFailure(error)
      }
      for category in content.categories {
        writer.beginCategory(title: category.title)
        for ditto in category.dittos { writer.ditto(text: ditto.text, useCount: ditto.useCount) }
      }
    }
    writer.finish()
    if let legacy, try LegacyFileKind.of(legacy) != .propertyList {
      // SQLite reads what was committed; rows only in -wal frames no commit covers are named.
      let more = Salvager.neverCommittedDittos(path: legacy)
      if more > 0 {
        context.diagnose(
          "note: \(plural(more, "more ditto", "more dittos")) only in -wal frames never committed are not in this export (SQLite would never have shown them)\n"
            + [
              NextStep.command(
                Invocation.salvage(legacy, format: format.rawValue)
                  .with(\SalvageCommand.$includesNeverCommitted, if: format == .csv),
                label: "lists them apart")
            ].lines.joined(separator: "\n"))
      }
    }
    return .success
  }

  /// A store that is not one SQLite can read (damaged, not a database): its error, with the
  /// salvage command that rebuilds what its bytes still hold; any other error as it is.
  static func damaged(_ error: LegacyStoreError, legacy: String, format: ExportFormat) -> any Error
  {
    switch error {
    case .notADatabase, .damaged:
      let salvage = Invocation.salvage(legacy, format: format == .csv ? "csv" : nil)
      return DataError(
        ArgumentSpelling.described(error),
        next: [.command(salvage, label: "what the damaged store's bytes still hold")])
    default:
      return error
    }
  }

  /// Exports the legacy keys of an App Group defaults file: keyboard additions, then 1.x content.
  private func exportDefaults(_ path: String, writer: ExportWriter) throws {
    let values = try AppGroupDefaults(path: path).load()
    let content = DefaultsLegacyContent(values: values?.merged ?? [:])
    for category in content.pending + content.version1 {
      writer.beginCategory(title: category.title)
      for ditto in category.dittos { writer.ditto(text: ditto.text, useCount: ditto.useCount) }
    }
  }
}

/// What a legacy file looks like from its first bytes.
enum LegacyFileKind: Equatable {
  case propertyList, other

  static func of(_ path: String) throws -> LegacyFileKind {
    let head: [UInt8]
    do {
      head = try ReadOnlyFile(path: path).read(count: 64, at: 0)
    } catch {
      return .other  // the store reader reports the problem with the right wording
    }
    let text = String(decoding: head, as: UTF8.self)
    if text.hasPrefix("bplist") { return .propertyList }
    let trimmed = text.drop {
      $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}"
    }
    return trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") ? .propertyList : .other
  }
}
