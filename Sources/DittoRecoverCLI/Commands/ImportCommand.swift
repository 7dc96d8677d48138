import DittoLibrary
import Exchange
import LegacyStore

/// `ditto-recover import`: a CSV in Ditto 3.x's format into a library.
struct ImportCommand: Command {
  static let name = "import"
  static let abstract = "Import a CSV in Ditto 3.x's format (Category,Ditto) into a library."
  static let discussion: String? = """
    Categories merge by title; a ditto whose text its category already holds is skipped. One transaction:
    all of the file or nothing. Accepts a UTF-8 BOM and CRLF or LF line ends.
    """
  static let options: [OptionSpec] = [
    .option(
      "library", value: "file", help: "The library to import into (created if missing).",
      required: true),
    .option("csv", value: "file", help: "The CSV file to import.", required: true),
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
    let counts: ImportCounts
    do {
      let store = try LibraryStore(path: library)
      counts = try store.importItems { sink in try source.walk(sink) }
      try store.close()
    } catch let error as LibraryError {
      throw CommandFailure(error.description, exitCode: .ioError)
    } catch let error as CSVImportError {
      let missing: Bool
      if case .unreadable = error { missing = true } else { missing = false }
      throw CommandFailure(error.description, exitCode: missing ? .noInput : .dataError)
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
