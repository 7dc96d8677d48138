import LibraryMerge
import SQLiteDB

/// SQLite's own checks of a library this tool is about to write, each at the point where it is
/// cheapest and still in time.
///
/// - Before the import's first insert, ``beforeFirstWrite(_:file:)``: `PRAGMA integrity_check` of
///   the library as it is. The import finds a library's categories and texts through its indexes,
///   and a damaged index (one changed byte in an index page, found by the `ditto-store` fuzz target)
///   passes `quick_check`, which does not compare indexes with their tables: the import would then
///   commit a duplicate, or a ditto the app cannot find. Run only when something is about to be
///   written (a `recover` that finds everything already there pays nothing), and on the library
///   before the import's own rows (migrating into a new library checks a few rows, not a million).
/// - After the inserts, inside the transaction, ``afterInserts(_:file:)``: `PRAGMA quick_check`,
///   which sees this import's pages too.
///
/// Anything but `ok` throws, and the transaction is rolled back: the file stays as it was.
enum LibraryChecks {
  /// - Throws: `.readFailed` ("the library is damaged") for anything but `ok`.
  static func beforeFirstWrite(_ database: Database, file: String) throws(DestinationError) {
    try require("integrity_check", of: database, file: file, else: .readFailed) {
      "the library is damaged: SQLite's integrity_check found \($0); nothing was written"
    }
  }

  /// - Throws: `.writeFailed` for anything but `ok`.
  static func afterInserts(_ database: Database, file: String) throws(DestinationError) {
    try require("quick_check", of: database, file: file, else: .writeFailed) {
      "the library did not pass SQLite's quick_check after the import (\($0)); nothing was written"
    }
  }

  /// Runs `pragma`; anything but `ok` throws `kind` with `reason` of its first two lines.
  private static func require(
    _ pragma: String, of database: Database, file: String, else kind: DestinationError.Kind,
    reason: (String) -> String
  ) throws(DestinationError) {
    let problems = run(pragma, on: database)
    guard problems != ["ok"] else { return }
    throw DestinationError(
      kind, file: file, reason: reason(problems.prefix(2).joined(separator: "; ")))
  }

  /// The check's answer, at most five lines; a page too damaged for the check to go on
  /// (`SQLITE_CORRUPT` while stepping) is an answer too.
  private static func run(_ pragma: String, on database: Database) -> [String] {
    var problems: [String] = []
    do throws(SQLiteError) {
      let check = try database.makeStatement(sql: "PRAGMA \(pragma)(5)")
      defer { check.reset() }
      while try check.step() { problems.append(check.text(at: 0) ?? "") }
    } catch {
      problems = ["SQLite error \(error.extendedCode): \(error.codeText)"]
    }
    return problems
  }
}
