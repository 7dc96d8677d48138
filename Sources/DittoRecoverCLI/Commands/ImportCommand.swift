import DittoStore
import Exchange
import LegacyStore
import LibraryMerge

/// `ditto-recover import`: a CSV in Ditto 3.x's format into a library.
struct ImportCommand: Command {
  static let name = "import"
  static let abstract = "Import a CSV in Ditto 3.x's format (Category,Ditto) into a library."
  static let discussion: String? = """
    Categories merge by title; a ditto whose text its category already holds is skipped. One transaction:
    all of the file or nothing. Accepts a UTF-8 BOM and CRLF or LF line ends. The library must exist (a
    Ditto.store the app created); it is never created here.
    """
  /// The command's options, declared once.
  @Argument(
    .path(
      "library", value: "file", help: "The Ditto 3.x library (Ditto.store) to import into.",
      required: true))
  var library: String = ""
  @Argument(.path("csv", value: "file", help: "The CSV file to import.", required: true))
  var csv: String = ""

  func run(_ context: ToolContext) throws -> CommandOutput {
    var source = CSVImportSource(path: csv)
    var categories: [LegacyCategory] = []
    try source.walk { item in
      switch item {
      case .category(let title, let origin):
        categories.append(LegacyCategory(title: title, origin: origin))
      case .ditto(let ditto):
        if categories.isEmpty { categories.append(LegacyCategory(title: "Recovered")) }
        categories[categories.count - 1].dittos.append(ditto)
      }
    }
    try LibraryFailure.requireExisting(library)
    let merge = MergeSource(
      kind: "csv",
      categories: categories.map {
        MergeCategory(
          title: $0.title, dittos: $0.dittos.map { MergeDitto(text: $0.text, useCount: 0) })
      })
    // The app's own CSV import: a new category only while the library holds fewer than 8.
    let merged: LibraryMerger.Result
    do throws(ImportFailure) {
      merged = try EngineFactory.destination(library, context: context).applyImport {
        (session) throws(ImportFailure) in
        try LibraryMerger.merge([merge], into: session, rules: .csvImport)
      }
    } catch {
      switch error.reason {
      case .library(let problem): throw LibraryFailure(problem)
      case .source(let failure): throw DataError(ArgumentSpelling.described(failure))
      case .cancelled:
        throw LibraryFailure(
          DestinationError(.writeFailed, file: library, reason: "cancelled; nothing was written"))
      }
    }
    let counts = merged.counts
    if !merged.refusedCategoryTitles.isEmpty {
      // User text: on standard error only, never in a log line.
      context.diagnose(
        "not imported: \(plural(counts.dittosOverLimit, "ditto")) of \(plural(counts.categoriesOverLimit, "new category", "new categories")) (the library may hold at most 8, as the app's import allows): \(merged.refusedCategoryTitles.joined(separator: ", "))"
      )
    }
    return .result(
      ImportOutput(
        categories: counts.categoriesRead, dittos: counts.dittosRead,
        insertedCategories: counts.insertedCategories, inserted: counts.inserted,
        skipped: counts.skipped, skippedEmptyTexts: source.skippedEmptyTexts,
        skippedCategories: counts.categoriesOverLimit, skippedDittos: counts.dittosOverLimit,
        library: library),
      text:
        "imported \(ArgumentSpelling.shown(path: csv)): \(plural(counts.dittosRead, "ditto")) in \(plural(counts.categoriesRead, "category run")); inserted \(plural(counts.insertedCategories, "new category", "new categories")), \(plural(counts.inserted, "new ditto")) (skipped \(plural(counts.skipped, "duplicate")), \(source.skippedEmptyTexts) empty)\n"
    )
  }
}
