import Foundation
import Testing

@testable import OutcomeReport

/// The `--json` object and the text report.
struct ReportRenderingTests {
  /// 25 tags: 10 success, 6 no_new_data, 2 empty_store, 1 found_unreadable, 6 nothing_on_disk.
  private static func cohort() -> OutcomeSummary {
    var lines: [String] = []
    for _ in 0..<8 { lines.append(tag(.auto, .success, categories: 2, dittos: 10, inserted: 10)) }
    for _ in 0..<2 { lines.append(tag(.manual, .success, categories: 1, dittos: 3, inserted: 1)) }
    for _ in 0..<6 { lines.append(tag(.auto, .noNewData, categories: 1, dittos: 5)) }
    for _ in 0..<2 { lines.append(tag(.auto, .emptyStore)) }
    lines.append(tag(.manual, .foundUnreadable))
    for _ in 0..<6 { lines.append(tag(.auto, .nothingOnDisk)) }
    lines.append("migration_outcome source=auto outcome=success")
    let stamped =
      "2025-03-14 09:12:03.512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] "
      + tag(.auto, .success, categories: 2, dittos: 10, inserted: 10)
    return scan(lines.joined(separator: "\n"), stamped + "\n" + stamped)
  }

  @Test func jsonSnapshot() {
    let expected =
      #"{"byOutcome":{"empty_store":2,"found_unreadable":1,"no_new_data":6,"nothing_on_disk":6,"#
      + #""success":11},"bySource":{"auto":{"empty_store":2,"found_unreadable":0,"no_new_data":6,"#
      + #""nothing_on_disk":6,"success":9},"manual":{"empty_store":0,"found_unreadable":1,"#
      + #""no_new_data":0,"nothing_on_disk":0,"success":2}},"duplicates":1,"ignored":0,"#
      + #""malformed":1,"sums":{"categories":26,"dittos":126,"inserted":92},"total":26,"#
      + #""verdict":"recoverable"}"#
    #expect(Self.cohort().jsonText() == expected)
  }

  @Test func emptyReportListsEveryKeyWithZeros() {
    let expected =
      #"{"byOutcome":{"empty_store":0,"found_unreadable":0,"no_new_data":0,"nothing_on_disk":0,"#
      + #""success":0},"bySource":{"auto":{"empty_store":0,"found_unreadable":0,"no_new_data":0,"#
      + #""nothing_on_disk":0,"success":0},"manual":{"empty_store":0,"found_unreadable":0,"#
      + #""no_new_data":0,"nothing_on_disk":0,"success":0}},"duplicates":0,"ignored":0,"#
      + #""malformed":0,"sums":{"categories":0,"dittos":0,"inserted":0},"total":0,"#
      + #""verdict":"too_few"}"#
    var scanner = OutcomeScanner()
    #expect(scanner.finish().jsonText() == expected)
  }

  @Test func jsonMatchesJSONSerializationWithSortedKeys() throws {
    let text = Self.cohort().jsonText()
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let again = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    #expect(String(decoding: again, as: UTF8.self) == text)
  }

  @Test(arguments: Verdict.allCases)
  func verdictRawValuesAreTheContract(_ verdict: Verdict) {
    #expect(["recoverable", "gone", "mixed", "too_few"].contains(verdict.rawValue))
  }

  @Test func textSnapshot() {
    let expected = """
      migration_outcome tags: 26 valid, 1 malformed, 1 duplicate dropped, 0 other mentions ignored
      Inputs: 2 (syslog 1, plain 1)

      OUTCOME               COUNT    SHARE     AUTO   MANUAL
      success                  11    42.3%        9        2
      no_new_data               6    23.1%        6        0
      empty_store               2     7.7%        2        0
      found_unreadable          1     3.8%        0        1
      nothing_on_disk           6    23.1%        6        0
      all                      26   100.0%       23        3

      Sums over valid tags: categories 26, dittos 126, inserted 92

      Verdict: recoverable (cleanup mostly failed, data recoverable)
        success + no_new_data: 17 of 26 = 65.4% ("recoverable" at 60.0% or more)
        nothing_on_disk: 6 of 26 = 23.1% ("gone" at 60.0% or more)
        Rule: at least 20 tags weighed; "recoverable" when success + no_new_data is at least 60.0% of
          them, "gone" when nothing_on_disk is at least 60.0%, "mixed" otherwise. Shares are of all valid
          tags; malformed and duplicate lines are not weighed.
        Recommendation: Ship 3.0.2 widely with a hopeful tone. On most devices the 3.0.0 cleanup silently
          failed and the old Ditto.sqlite is still on disk, so updating to 3.0.2 is enough to bring the
          dittos back.

      """
    #expect(Self.cohort().textReport() == expected)
  }

  @Test func textStatesTooFewAndTheNumberNeeded() {
    let report = scan(tag(.auto, .nothingOnDisk)).textReport()
    #expect(report.contains("Verdict: too_few (too few tags to say)"))
    #expect(report.contains("1 tag weighed; the rule needs at least 20."))
    #expect(report.contains("nothing_on_disk: 1 of 1 = 100.0%"))
  }

  @Test func textStatesTheDecisiveDenominatorAndCustomThresholds() throws {
    let rule = try VerdictRule(
      minimumSample: 5, recoverableThreshold: 0.75, goneThreshold: 0.5, denominator: .decisive)
    let lines = (0..<5).map { _ in tag(.auto, .nothingOnDisk) } + [tag(.auto, .emptyStore)]
    let summary = scan(lines.joined(separator: "\n"), options: .init(rule: rule))
    // Wrapped lines continue with a four-space indent; join them to search phrases.
    let report = summary.textReport().replacingOccurrences(of: "\n    ", with: " ")
    #expect(summary.verdict == .gone)
    #expect(report.contains("Verdict: gone (cleanup mostly succeeded, data gone)"))
    #expect(report.contains("nothing_on_disk: 5 of 5 = 100.0% (\"gone\" at 50.0% or more)"))
    #expect(report.contains("(\"recoverable\" at 75.0% or more)"))
    #expect(report.contains("Shares are of success + no_new_data + nothing_on_disk tags"))
    #expect(report.contains("iCloud restore as the headline recovery path"))
  }

  @Test func textLinesFitInOneHundredColumns() {
    for line in Self.cohort().textReport().split(separator: "\n") {
      #expect(line.count <= 100)
    }
  }

  @Test func unrecognizedInputsAreNamedInTheInputsLine() {
    let summary = scan("nothing to see here", tag(.auto, .success))
    #expect(summary.textReport().contains("Inputs: 2 (plain 1, unrecognized 1)"))
  }
}
