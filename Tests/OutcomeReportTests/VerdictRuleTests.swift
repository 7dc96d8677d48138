import Testing

@testable import OutcomeReport

/// The verdict rule: minimum sample, thresholds (inclusive), denominators, validation.
struct VerdictRuleTests {
  @Test func standardRuleValues() {
    let rule = VerdictRule.standard
    #expect(rule.minimumSample == 20)
    #expect(rule.recoverableThreshold == 0.6)
    #expect(rule.goneThreshold == 0.6)
    #expect(rule.denominator == .allValid)
  }

  @Test func nineteenTagsAreTooFewTwentyAreEnough() {
    let nineteen = (0..<19).map { _ in tag(.auto, .success) }.joined(separator: "\n")
    let twenty = (0..<20).map { _ in tag(.auto, .success) }.joined(separator: "\n")
    #expect(scan(nineteen).verdict == .tooFew)
    #expect(scan(twenty).verdict == .recoverable)
  }

  @Test func malformedAndDuplicateLinesDoNotMakeTheSample() {
    let valid = (0..<19).map { _ in tag(.auto, .success) }
    let summary = scan((valid + ["migration_outcome source=auto"]).joined(separator: "\n"))
    #expect(summary.malformed == 1)
    #expect(summary.verdict == .tooFew)
  }

  @Test(arguments: [
    // success + no_new_data, nothing_on_disk, other → verdict (of 20 tags)
    (12, 0, 8, Verdict.recoverable),  // exactly 60%
    (11, 0, 9, .mixed),  // 55%
    (6, 6, 8, .mixed),
    (0, 12, 8, .gone),  // exactly 60%
    (2, 11, 7, .mixed),
    (20, 0, 0, .recoverable),
    (0, 20, 0, .gone),
  ])
  func thresholdsAreInclusive(recoverable: Int, gone: Int, other: Int, expected: Verdict) {
    let assessment = VerdictRule.standard.assess(
      counts([
        .success: recoverable / 2, .noNewData: recoverable - recoverable / 2,
        .nothingOnDisk: gone, .foundUnreadable: other,
      ]))
    #expect(assessment.verdict == expected)
    #expect(assessment.sample == 20)
    #expect(assessment.recoverableCount == recoverable)
    #expect(assessment.goneCount == gone)
  }

  @Test func decisiveDenominatorLeavesOutEmptyAndUnreadable() throws {
    let rule = try VerdictRule(denominator: .decisive)
    let tally = counts([.success: 10, .noNewData: 5, .nothingOnDisk: 5, .emptyStore: 30])
    let decisive = rule.assess(tally)
    #expect(decisive.sample == 20)
    #expect(decisive.recoverableShare == 0.75)
    #expect(decisive.verdict == .recoverable)
    let all = VerdictRule.standard.assess(tally)
    #expect(all.sample == 50)
    #expect(all.verdict == .mixed)
  }

  @Test func decisiveSampleCanBeTooFew() throws {
    let rule = try VerdictRule(denominator: .decisive)
    #expect(rule.assess(counts([.success: 10, .emptyStore: 30])).verdict == .tooFew)
  }

  @Test func lowThresholdsLetTheLargerShareWin() throws {
    let rule = try VerdictRule(minimumSample: 1, recoverableThreshold: 0.3, goneThreshold: 0.3)
    #expect(rule.assess(counts([.success: 4, .nothingOnDisk: 3])).verdict == .recoverable)
    #expect(rule.assess(counts([.success: 3, .nothingOnDisk: 4])).verdict == .gone)
    #expect(rule.assess(counts([.success: 4, .nothingOnDisk: 4])).verdict == .mixed)
  }

  @Test func customMinimumSample() throws {
    let rule = try VerdictRule(minimumSample: 3)
    #expect(rule.assess(counts([.nothingOnDisk: 2])).verdict == .tooFew)
    #expect(rule.assess(counts([.nothingOnDisk: 3])).verdict == .gone)
  }

  @Test func nothingWeighedIsTooFewWithZeroShares() {
    let assessment = VerdictRule.standard.assess(OutcomeCounts())
    #expect(assessment.verdict == .tooFew)
    #expect(assessment.recoverableShare == 0)
    #expect(assessment.goneShare == 0)
  }

  @Test(arguments: [(0, 0.6, 0.6), (20, 0, 0.6), (20, 0.6, 1.01), (20, -0.1, 0.6), (20, .nan, 0.6)])
  func rejectsSettingsOutOfRange(minimumSample: Int, recoverable: Double, gone: Double) {
    #expect(throws: OutcomeReportError.self) {
      try VerdictRule(
        minimumSample: minimumSample, recoverableThreshold: recoverable, goneThreshold: gone)
    }
  }

  @Test func thresholdOfOneIsAllowed() throws {
    let rule = try VerdictRule(recoverableThreshold: 1, goneThreshold: 1)
    #expect(rule.assess(counts([.success: 20])).verdict == .recoverable)
    #expect(rule.assess(counts([.success: 19, .nothingOnDisk: 1])).verdict == .mixed)
  }

  @Test func percentRoundsToOneDecimal() {
    #expect(VerdictRule.percent(0.6) == "60.0%")
    #expect(VerdictRule.percent(2.0 / 3.0) == "66.7%")
    #expect(VerdictRule.percent(1) == "100.0%")
    #expect(VerdictRule.percent(0) == "0.0%")
    #expect(VerdictRule.percent(0.0004) == "0.0%")
  }
}
