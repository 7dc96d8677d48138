import Foundation
import JSONOutput
import Telemetry
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
    return scan(
      lines.joined(separator: "\n"), stamped + "\n" + stamped, options: .init(unit: .tag))
  }

  @Test func jsonSnapshot() {
    let expected =
      #"{"byOutcome":{"empty_store":2,"found_unreadable":1,"library_error":0,"no_new_data":6,"#
      + #""nothing_on_disk":6,"success":11},"bySource":{"auto":{"empty_store":2,"#
      + #""found_unreadable":0,"library_error":0,"no_new_data":6,"nothing_on_disk":6,"success":9},"#
      + #""manual":{"empty_store":0,"found_unreadable":1,"library_error":0,"no_new_data":0,"#
      + #""nothing_on_disk":0,"success":2}},"confidence":0.95,"duplicates":1,"ignored":0,"#
      + #""incomplete":true,"inputProblems":[{"input":"-","malformedLines":[26],"malformedTags":1,"#
      + #""unreadableMentions":0}],"inputs":2,"intervals":{"empty_store":[0.021355,0.241416],"#
      + #""found_unreadable":[0.006822,0.188928],"gone":[0.110338,0.420516],"#
      + #""library_error":[0.0,0.128729],"no_new_data":[0.110338,0.420516],"#
      + #""nothing_on_disk":[0.110338,0.420516],"recoverable":[0.462206,0.805878],"#
      + #""success":[0.255444,0.610514]},"malformed":1,"pending":0,"#
      + #""sums":{"categories":26,"dittos":126,"inserted":92},"#
      + #""tagSums":{"categories":26,"dittos":126,"inserted":92},"tags":26,"total":26,"unit":"tag","#
      + #""unreadable":0,"verdict":"too_few","weighed":26}"#
    #expect(Self.cohort().jsonText() == expected)
  }

  @Test func emptyReportListsEveryKeyWithZeros() throws {
    var scanner = OutcomeScanner()
    let text = scanner.finish().jsonText()
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let byOutcome = try #require(json["byOutcome"] as? [String: Int])
    #expect(Set(byOutcome.keys) == Set(MigrationOutcome.allCases.map(\.rawValue)))
    #expect(byOutcome.values.allSatisfy { $0 == 0 })
    #expect(json["total"] as? Int == 0)
    #expect(json["weighed"] as? Int == 0)
    #expect(json["unit"] as? String == "device")
    #expect(json["verdict"] as? String == "too_few")
    #expect((json["devices"] as? [Any])?.isEmpty == true)
    let intervals = try #require(json["intervals"] as? [String: [Double]])
    #expect(intervals["recoverable"] == [0, 1])
    #expect(intervals.count == MigrationOutcome.allCases.count + 2)
  }

  @Test func jsonParsesAndKeepsItsKeys() throws {
    for summary in [Self.cohort(), scan(tag(.auto, .success), tag(.manual, .nothingOnDisk))] {
      let text = summary.jsonText()
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      for key in [
        "total", "malformed", "byOutcome", "bySource", "sums", "verdict", "unit", "weighed",
        "confidence", "intervals",
      ] {
        #expect(object[key] != nil, "\(key)")
      }
      #expect(object["confidence"] as? Double == 0.95)
      let intervals = try #require(object["intervals"] as? [String: [Double]])
      for (key, pair) in intervals {
        #expect(pair.count == 2 && 0 <= pair[0] && pair[0] <= pair[1] && pair[1] <= 1, "\(key)")
      }
    }
  }

  @Test func deviceJsonListsEachDeviceAndCountsDevices() throws {
    let first = [
      tag(.auto, .foundUnreadable), tag(.auto, .foundUnreadable), tag(.auto, .foundUnreadable),
      "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 salvaged=5",
    ].joined(separator: "\n")
    let second =
      "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=file"
    let text = scan(first, second).jsonText()
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(json["unit"] as? String == "device")
    #expect(json["weighed"] as? Int == 2)
    #expect(json["total"] as? Int == 2)
    #expect(json["tags"] as? Int == 5)
    let byOutcome = try #require(json["byOutcome"] as? [String: Int])
    #expect(byOutcome["found_unreadable"] == 1)
    #expect(byOutcome["success"] == 1)
    let devices = try #require(json["devices"] as? [[String: Any]])
    #expect(devices.count == 2)
    #expect(devices[0]["outcome"] as? String == "found_unreadable")
    #expect(devices[0]["source"] as? String == "auto")
    #expect(devices[0]["tags"] as? Int == 4)
    #expect(devices[0]["input"] as? String == "-")
    let later = try #require(devices[0]["laterManual"] as? [String: Any])
    #expect(later["outcome"] as? String == "success")
    #expect(later["salvaged"] as? Int == 5)
    #expect(devices[1]["source"] as? String == "manual")
    #expect(devices[1]["from"] as? String == "file")
    #expect(devices[1]["laterManual"] == nil)
  }

  @Test func jsonStringsAreEscapedAsJSONSerializationWritesThem() {
    let value = JSONValue.array([.string("a\"b\\c/d\n\u{01}é")])
    #expect(value.rendered(OutcomeSummary.jsonStyle) == #"["a\"b\\c\/d\n\u0001é"]"#)
  }

  @Test(arguments: Verdict.allCases)
  func verdictRawValuesAreTheContract(_ verdict: Verdict) {
    #expect(["recoverable", "gone", "mixed", "too_few"].contains(verdict.rawValue))
  }

  @Test func textSnapshot() {
    let expected = """
      migration_outcome tags: 26 valid, 1 malformed, 1 repeated line dropped, 0 other mentions ignored
      (a repeated line is one entry already counted, seen again in an overlapping capture)
      Inputs: 2 (syslog 1, plain 1)
      Weighed: 26 tags (every valid tag weighs the same)
      Incomplete: the sample is incomplete: 1 tag in 1 input could not be read (malformed). Their devices
        may be missing or decided by fewer tags than they logged: look at these files (or capture them
        again as `log show` text) before relying on the verdict.

      OUTCOME               COUNT    SHARE     AUTO   MANUAL   95% INTERVAL
      success                  11    42.3%        9        2     25.5-61.1%
      no_new_data               6    23.1%        6        0     11.0-42.1%
      empty_store               2     7.7%        2        0      2.1-24.1%
      found_unreadable          1     3.8%        0        1      0.7-18.9%
      nothing_on_disk           6    23.1%        6        0     11.0-42.1%
      library_error             0     0.0%        0        0      0.0-12.9%
      all                      26   100.0%       23        3

      Sums over valid tags: categories 26, dittos 126, inserted 92

      Verdict: too_few (too few to tell), on an incomplete sample
        26 tags weighed; the success + no_new_data interval is 34.4 points wide, more than 30.0: more tags
          are needed.
        success + no_new_data: 17 of 26 = 65.4%, 95% interval 46.2% to 80.6% ("recoverable" from 60.0%)
        nothing_on_disk: 6 of 26 = 23.1%, 95% interval 11.0% to 42.1% ("gone" from 60.0%)
        Rule: "recoverable" when the lower bound of the 95% interval of success + no_new_data is at least
          60.0%, "gone" when that of nothing_on_disk is at least 60.0%; otherwise "too_few" when the
          success + no_new_data interval is wider than 30.0 points, and "mixed" if not. Shares are of all
          valid tags (empty_store, found_unreadable and library_error count against both), with Wilson
          score intervals; malformed and duplicate lines are not weighed.
        Recommendation: Collect more sysdiagnoses from TestFlight testers before choosing between the
          hopeful message and the iCloud-restore message.
        Collect next: about 10 more migration_outcome lines (from each TestFlight tester's sysdiagnose:
          log show --archive system_logs.logarchive --predicate 'subsystem == "io.kern.ditto"' --info >
          tester-name.log), then run outcomes again on all of them.

      """
    #expect(Self.cohort().textReport() == expected)
  }

  @Test func textStatesTheFloorWhenTooFewAreWeighed() throws {
    let rule = try VerdictRule(minimumSample: 20)
    let report = scan(tag(.auto, .nothingOnDisk), options: .init(rule: rule)).textReport()
    #expect(report.contains("Verdict: too_few (too few to tell)"))
    #expect(report.contains("1 device weighed; the rule needs at least 20."))
    #expect(report.contains("nothing_on_disk: 1 of 1 = 100.0%, 95% interval 20.7% to 100.0%"))
  }

  @Test func textListsEachDeviceAndALaterManualAttempt() {
    let first = [
      tag(.auto, .foundUnreadable), tag(.auto, .foundUnreadable),
      "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 salvaged=5",
    ].joined(separator: "\n")
    let report = scan(first, tag(.auto, .nothingOnDisk)).textReport()
    #expect(report.contains("Weighed: 2 devices (one per input"))
    #expect(report.contains("DEVICE OUTCOME     SOURCE   TAGS   LATER MANUAL ATTEMPT"))
    #expect(
      report.contains(
        "found_unreadable   auto        3   success inserted=5 salvaged=5     -"))
    #expect(report.contains("nothing_on_disk    auto        1   -"))
  }

  @Test func textStatesTheDecisiveDenominatorAndCustomThresholds() throws {
    let rule = try VerdictRule(
      minimumSample: 5, recoverableThreshold: 0.75, goneThreshold: 0.5, denominator: .decisive)
    let lines = (0..<5).map { _ in tag(.auto, .nothingOnDisk) } + [tag(.auto, .emptyStore)]
    let summary = scan(lines.joined(separator: "\n"), options: .init(rule: rule, unit: .tag))
    // Wrapped lines continue with a four-space indent; join them to search phrases.
    let report = summary.textReport().replacingOccurrences(of: "\n    ", with: " ")
    #expect(summary.verdict == .gone)
    #expect(report.contains("Verdict: gone (cleanup mostly succeeded, data gone)"))
    #expect(
      report.contains(
        "nothing_on_disk: 5 of 5 = 100.0%, 95% interval 56.6% to 100.0% (\"gone\" from 50.0%)"))
    #expect(report.contains("(\"recoverable\" from 75.0%)"))
    #expect(report.contains("Shares are of success + no_new_data + nothing_on_disk tags"))
    #expect(report.contains("fewer than 5 tags are weighed"))
    // The computer-backup route (no erase) comes before erasing and restoring from iCloud.
    let computer = try #require(report.range(of: "ditto-recover backup extract"))
    let iCloud = try #require(report.range(of: "an iCloud device backup"))
    #expect(computer.lowerBound < iCloud.lowerBound)
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
