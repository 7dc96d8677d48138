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
  static let options: [OptionSpec] = [
    .path(
      "library", value: "file", help: "The Ditto 3.x library (Ditto.store) to import into.",
      required: true),
    .path("csv", value: "file", help: "The CSV file to import.", required: true),
    .json, .verbose,
  ]

  let library: String
  let csv: String
  let json: Bool

  init(arguments: ParsedArguments) {
    library = arguments.value("library") ?? ""
    csv = arguments.value("csv") ?? ""
    json = arguments.flag("json")
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    var source = CSVImportSource(path: csv)
    var categories: [LegacyCategory] = []
    do {
      try source.walk { item in
        switch item {
        case .category(let title, let origin):
          categories.append(LegacyCategory(title: title, origin: origin))
        case .ditto(let ditto):
          if categories.isEmpty { categories.append(LegacyCategory(title: "Recovered")) }
          categories[categories.count - 1].dittos.append(ditto)
        }
      }
    } catch let error as CSVImportError {
      let missing: Bool
      if case .unreadable = error { missing = true } else { missing = false }
      throw CommandFailure(error.description, exitCode: missing ? .noInput : .dataError)
    }
    try LibraryFile.requireExisting(library)
    let merge = MergeSource(
      kind: "csv",
      categories: categories.map {
        MergeCategory(
          title: $0.title, dittos: $0.dittos.map { MergeDitto(text: $0.text, useCount: 0) })
      })
    let counts: ImportCounts
    do throws(ImportFailure) {
      counts = try DittoStoreDestination(path: library).applyImport {
        (session) throws(ImportFailure) in try LibraryMerger.merge([merge], into: session).counts
      }
    } catch {
      switch error {
      case .library(let problem): throw LibraryFile.failure(problem)
      case .source(let failure): throw CommandFailure(failure.description, exitCode: .dataError)
      }
    }
    if json {
      let object: JSONValue = .object([
        "categories": .number(counts.categoriesRead), "dittos": .number(counts.dittosRead),
        "insertedCategories": .number(counts.insertedCategories),
        "inserted": .number(counts.inserted), "skipped": .number(counts.skipped),
        "skippedEmptyTexts": .number(source.skippedEmptyTexts), "library": .string(library),
      ])
      context.standardOutput.write(object.rendered() + "\n")
    } else {
      context.standardOutput.write(
        "imported \(csv): \(counts.dittosRead) dittos in \(counts.categoriesRead) category runs; inserted \(counts.insertedCategories) new categories, \(counts.inserted) new dittos (skipped \(counts.skipped) duplicates, \(source.skippedEmptyTexts) empty)\n"
      )
    }
    return .success
  }
}
