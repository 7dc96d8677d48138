import Telemetry
import Testing

@testable import OutcomeReport

/// The tag grammar: what is a tag, what is valid, what is malformed.
struct OutcomeTagTests {
  @Test func readsAllFiveFields() {
    let parse = TelemetryLine.parse(
      tag(.manual, .noNewData, categories: 4, dittos: 27, inserted: 0))
    #expect(
      parse
        == .line(
          TelemetryLine(
            source: .manual, outcome: .noNewData, categories: 4, dittos: 27, inserted: 0)))
  }

  @Test(arguments: MigrationOutcome.allCases)
  func acceptsEveryOutcomeCode(_ outcome: MigrationOutcome) {
    guard case .line(let parsed) = TelemetryLine.parse(tag(.auto, outcome)) else {
      Issue.record("not a valid tag")
      return
    }
    #expect(parsed.outcome == outcome)
  }

  @Test(arguments: [
    "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3 error=disk_io",
    "migration_outcome\tsource=auto  outcome=success   categories=1 dittos=2 inserted=3 ",
    "  migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3 (build 42)",
    "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3\nmore text",
  ])
  func acceptsExtraFieldsAnyOrderAndBlanks(_ line: String) {
    #expect(
      TelemetryLine.parse(line)
        == .line(
          TelemetryLine(source: .auto, outcome: .success, categories: 1, dittos: 2, inserted: 3)))
  }

  @Test(arguments: [
    "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3 salvaged=9",
    "migration_outcome salvaged=9 inserted=3 dittos=2 categories=1 outcome=success source=auto",
    "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3 salvaged=9 salvaged=4",
  ])
  func keepsTheFirstSalvagedCount(_ line: String) {
    #expect(
      TelemetryLine.parse(line)
        == .line(
          TelemetryLine(
            source: .auto, outcome: .success, categories: 1, dittos: 2, inserted: 3, salvaged: 9)))
  }

  @Test(arguments: [
    "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=file",
    "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 salvaged=0 from=file",
    "migration_outcome from=file source=manual outcome=success categories=2 dittos=5 inserted=5",
  ])
  func readsFromFile(_ line: String) throws {
    guard case .line(let parsed) = TelemetryLine.parse(line) else {
      Issue.record("not a valid tag")
      return
    }
    #expect(parsed.source == .manual)
    #expect(parsed.from == .file)
    #expect(parsed.inserted == 5)
  }

  @Test(arguments: [
    "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=cloud",
    "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=<private>",
    "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 salvaged=x",
  ])
  func unknownOptionalValuesAreIgnoredNotMalformed(_ line: String) {
    #expect(
      TelemetryLine.parse(line)
        == .line(
          TelemetryLine(source: .manual, outcome: .success, categories: 2, dittos: 5, inserted: 5)))
  }

  @Test func libraryErrorIsAValidOutcome() {
    let line =
      "migration_outcome source=auto outcome=library_error categories=0 dittos=0 inserted=0"
    guard case .line(let parsed) = TelemetryLine.parse(line) else {
      Issue.record("not a valid tag")
      return
    }
    #expect(parsed.outcome == .libraryError)
  }

  @Test(arguments: [
    ("migration_outcome", TelemetryLine.Defect.missingField("source")),
    (
      "migration_outcome source=auto outcome=success categories=1 dittos=2",
      .missingField("inserted")
    ),
    (
      "migration_outcome source= outcome=success categories=1 dittos=2 inserted=3",
      .missingField("source")
    ),
    (
      "migration_outcome source=cloud outcome=success categories=1 dittos=2 inserted=3",
      .unknownValue("source")
    ),
    (
      "migration_outcome source=auto outcome=Success categories=1 dittos=2 inserted=3",
      .unknownValue("outcome")
    ),
    (
      "migration_outcome source=auto outcome=partial categories=1 dittos=2 inserted=3",
      .unknownValue("outcome")
    ),
    (
      "migration_outcome source=<private> outcome=success categories=1 dittos=2 inserted=3",
      .redactedValue("source")
    ),
    (
      "migration_outcome source=auto outcome=success categories=<private> dittos=2 inserted=3",
      .redactedValue("categories")
    ),
    (
      "migration_outcome source=<mask.hash: 'g8r19902BUyMDhkDHupmCQ=='> outcome=success categories=1 dittos=2 inserted=3",
      .redactedValue("source")
    ),
    (
      "migration_outcome source=auto outcome=success categories=x dittos=2 inserted=3",
      .notACount("categories")
    ),
    (
      "migration_outcome source=auto outcome=success categories=1 dittos=-2 inserted=3",
      .notACount("dittos")
    ),
    (
      "migration_outcome source=auto outcome=success categories=1 dittos=2.0 inserted=3",
      .notACount("dittos")
    ),
    (
      "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=1234567890123456789",
      .notACount("inserted")
    ),
    (
      "migration_outcome source=auto source=manual outcome=success categories=1 dittos=2 inserted=3",
      .repeatedField("source")
    ),
  ])
  func reportsDefects(_ line: String, _ defect: TelemetryLine.Defect) {
    #expect(TelemetryLine.parse(line) == .malformed(defect))
  }

  @Test(arguments: [
    "",
    "migration_outcomes source=auto outcome=success categories=1 dittos=2 inserted=3",
    "xmigration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3",
    "runMigration: migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3",
    "migration_outcome=success",
    "Filtering the log data using \"composedMessage CONTAINS \"migration_outcome\"\"",
  ])
  func recognizesWhatIsNotATag(_ line: String) {
    #expect(TelemetryLine.parse(line) == .notALine)
  }

  @Test func largestCountIsEighteenDigits() {
    let line =
      "migration_outcome source=auto outcome=success categories=999999999999999999 dittos=0 inserted=0"
    guard case .line(let parsed) = TelemetryLine.parse(line) else {
      Issue.record("not a valid tag")
      return
    }
    #expect(parsed.categories == 999_999_999_999_999_999)
  }

  @Test func sumsSaturateInsteadOfTrapping() {
    let big =
      "migration_outcome source=auto outcome=success categories=999999999999999999 dittos=1 inserted=1"
    let summary = scan(Array(repeating: big, count: 12).joined(separator: "\n"))
    #expect(summary.tagSums.categories == Int.max)
    #expect(summary.tagSums.dittos == 12)
  }
}
