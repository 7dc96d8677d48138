import Testing

@testable import OutcomeReport

/// The verdict rule: lower bounds against thresholds (inclusive), the widest interval, the floor,
/// denominators, validation.
struct VerdictRuleTests {
  @Test func standardRuleValues() {
    let rule = VerdictRule.standard
    #expect(rule.minimumSample == 1)
    #expect(rule.recoverableThreshold == 0.6)
    #expect(rule.goneThreshold == 0.6)
    #expect(rule.denominator == .allValid)
    #expect(rule.confidence == 0.95)
    #expect(rule.maximumWidth == 0.3)
    #expect(abs(rule.z - 1.959963984540054) < 1e-12)
  }

  @Test(arguments: [
    // success + no_new_data, nothing_on_disk, other → verdict
    (80, 0, 20, Verdict.recoverable),  // 80 of 100: lower bound 71.1%
    (0, 80, 20, .gone),
    (50, 50, 0, .mixed),  // both lower bounds 40.4%, interval 19.2 points wide
    (60, 20, 20, .mixed),  // 60% share, but the lower bound is 50.2%
    (7, 0, 5, .tooFew),  // 7 of 12: 32.0% to 80.7%
    (12, 0, 0, .recoverable),  // 12 of 12: lower bound 75.8%
    (5, 0, 0, .tooFew),  // 5 of 5: lower bound 56.6%, 43.4 points wide
    (6, 0, 0, .recoverable),  // 6 of 6: lower bound 61.0%
    (0, 0, 0, .tooFew),
  ])
  func lowerBoundsDecide(recoverable: Int, gone: Int, other: Int, expected: Verdict) {
    let assessment = VerdictRule.standard.assess(
      counts([
        .success: recoverable / 2, .noNewData: recoverable - recoverable / 2,
        .nothingOnDisk: gone, .foundUnreadable: other,
      ]))
    #expect(assessment.verdict == expected)
    #expect(assessment.sample == recoverable + gone + other)
    #expect(assessment.recoverableCount == recoverable)
    #expect(assessment.goneCount == gone)
  }

  @Test func thresholdIsInclusiveOfTheLowerBound() throws {
    let tally = counts([.success: 17, .emptyStore: 3])
    let lower = VerdictRule.standard.interval(17, of: 20).lower
    #expect(try VerdictRule(recoverableThreshold: lower).assess(tally).verdict == .recoverable)
    #expect(
      try VerdictRule(recoverableThreshold: lower + 1e-9).assess(tally).verdict != .recoverable)
  }

  @Test func maximumWidthSeparatesTooFewFromMixed() throws {
    // 16 of 20: 58.4% to 91.9%, 33.5 points wide, below the 60% threshold.
    let tally = counts([.success: 16, .foundUnreadable: 4])
    #expect(VerdictRule.standard.assess(tally).verdict == .tooFew)
    #expect(try VerdictRule(maximumWidth: 0.34).assess(tally).verdict == .mixed)
  }

  @Test func minimumSampleIsAnExtraFloor() throws {
    let tally = counts([.nothingOnDisk: 12])
    #expect(VerdictRule.standard.assess(tally).verdict == .gone)
    #expect(try VerdictRule(minimumSample: 13).assess(tally).verdict == .tooFew)
    #expect(try VerdictRule(minimumSample: 12).assess(tally).verdict == .gone)
  }

  @Test func lowerConfidenceNarrowsTheInterval() throws {
    // 5 of 5: lower bound 56.6% at 95%, 64.9% at 80%.
    let tally = counts([.success: 5])
    #expect(VerdictRule.standard.assess(tally).verdict == .tooFew)
    #expect(try VerdictRule(confidence: 0.8).assess(tally).verdict == .recoverable)
  }

  @Test func malformedAndDuplicateLinesDoNotMakeTheSample() {
    let valid = (0..<5).map { _ in tag(.auto, .success) }
    let summary = scan(
      (valid + ["migration_outcome source=auto"]).joined(separator: "\n"),
      options: .init(unit: .tag))
    #expect(summary.malformed == 1)
    #expect(summary.assessment.sample == 5)
    #expect(summary.verdict == .tooFew)
  }

  @Test func decisiveDenominatorLeavesOutEmptyUnreadableAndLibraryErrors() throws {
    let rule = try VerdictRule(denominator: .decisive)
    let tally = counts([
      .success: 30, .noNewData: 10, .nothingOnDisk: 5, .emptyStore: 30, .foundUnreadable: 20,
      .libraryError: 10,
    ])
    let decisive = rule.assess(tally)
    #expect(decisive.sample == 45)
    #expect(decisive.verdict == .recoverable)
    let all = VerdictRule.standard.assess(tally)
    #expect(all.sample == 105)
    #expect(all.verdict == .mixed)
  }

  @Test func libraryErrorIsNeitherReading() {
    let assessment = VerdictRule.standard.assess(counts([.libraryError: 30]))
    #expect(assessment.sample == 30)
    #expect(assessment.recoverableCount == 0)
    #expect(assessment.goneCount == 0)
    #expect(assessment.verdict == .mixed)
  }

  @Test func decisiveSampleCanBeTooFew() throws {
    let rule = try VerdictRule(denominator: .decisive)
    #expect(rule.assess(counts([.success: 3, .emptyStore: 30])).verdict == .tooFew)
  }

  @Test func lowThresholdsLetTheLargerCountWin() throws {
    let rule = try VerdictRule(recoverableThreshold: 0.3, goneThreshold: 0.3)
    #expect(rule.assess(counts([.success: 55, .nothingOnDisk: 45])).verdict == .recoverable)
    #expect(rule.assess(counts([.success: 45, .nothingOnDisk: 55])).verdict == .gone)
    #expect(rule.assess(counts([.success: 50, .nothingOnDisk: 50])).verdict == .mixed)
  }

  @Test func nothingWeighedIsTooFewWithZeroSharesAndAFullInterval() {
    let assessment = VerdictRule.standard.assess(OutcomeCounts())
    #expect(assessment.verdict == .tooFew)
    #expect(assessment.recoverableShare == 0)
    #expect(assessment.goneShare == 0)
    #expect(assessment.recoverableInterval == WilsonInterval(lower: 0, upper: 1))
  }

  @Test(arguments: [
    (0, 0.6, 0.6, 0.95, 0.3), (1, 0, 0.6, 0.95, 0.3), (1, 0.6, 1.01, 0.95, 0.3),
    (1, -0.1, 0.6, 0.95, 0.3), (1, .nan, 0.6, 0.95, 0.3), (1, 0.6, 0.6, 1, 0.3),
    (1, 0.6, 0.6, 0, 0.3), (1, 0.6, 0.6, .nan, 0.3), (1, 0.6, 0.6, 0.95, 0),
    (1, 0.6, 0.6, 0.95, 1.5),
  ])
  func rejectsSettingsOutOfRange(
    minimumSample: Int, recoverable: Double, gone: Double, confidence: Double, width: Double
  ) {
    #expect(throws: OutcomeReportError.self) {
      try VerdictRule(
        minimumSample: minimumSample, recoverableThreshold: recoverable, goneThreshold: gone,
        confidence: confidence, maximumWidth: width)
    }
  }

  @Test func thresholdOfOneNeedsALowerBoundOfOne() throws {
    let rule = try VerdictRule(recoverableThreshold: 1, goneThreshold: 1, maximumWidth: 1)
    // The lower bound reaches 1 only in the limit: a threshold of 1 never gives a reading.
    #expect(rule.assess(counts([.success: 10_000])).verdict == .mixed)
  }

  @Test func percentRoundsToOneDecimal() {
    #expect(VerdictRule.percent(0.6) == "60.0%")
    #expect(VerdictRule.percent(2.0 / 3.0) == "66.7%")
    #expect(VerdictRule.percent(1) == "100.0%")
    #expect(VerdictRule.percent(0) == "0.0%")
    #expect(VerdictRule.percent(0.0004) == "0.0%")
    #expect(VerdictRule.percent(0.95, decimals: false) == "95%")
    #expect(VerdictRule.percent(0.975, decimals: false) == "97.5%")
  }
}
