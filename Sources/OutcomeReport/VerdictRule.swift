/// How the distribution of valid tags becomes a ``Verdict``: a minimum sample and two thresholds.
///
/// With `sample` the tags in the denominator, `recoverable` the success + no_new_data tags and
/// `gone` the nothing_on_disk tags:
/// 1. `sample < minimumSample` gives ``Verdict/tooFew``.
/// 2. Otherwise `recoverable / sample ≥ recoverableThreshold` gives ``Verdict/recoverable`` and
///    `gone / sample ≥ goneThreshold` gives ``Verdict/gone``. If both hold (possible only when the
///    thresholds add up to 1 or less), the larger share wins and a tie is ``Verdict/mixed``.
/// 3. Otherwise ``Verdict/mixed``.
///
/// Malformed tags and dropped duplicates are never weighed. Defaults (``standard``): at least 20
/// tags, both thresholds 0.6, denominator ``Denominator/allValid``.
public struct VerdictRule: Equatable, Sendable {
  /// Which valid tags the shares are taken of.
  public enum Denominator: String, CaseIterable, Sendable {
    /// Every valid tag. empty_store and found_unreadable count against both readings: a file
    /// that survived but yields no dittos is not a reason for a hopeful tone. The default.
    case allValid = "all"
    /// Only success, no_new_data and nothing_on_disk, the outcomes that answer "did the cleanup
    /// delete the file?". empty_store and found_unreadable are left out of the sample too.
    case decisive
  }

  /// The fewest weighed tags that allow a verdict other than ``Verdict/tooFew``.
  public let minimumSample: Int
  /// The share of success + no_new_data that gives ``Verdict/recoverable``.
  public let recoverableThreshold: Double
  /// The share of nothing_on_disk that gives ``Verdict/gone``.
  public let goneThreshold: Double
  /// Which tags the shares are taken of.
  public let denominator: Denominator

  /// The defaults: 20 tags, 0.6, 0.6, all valid tags.
  public static let standard = VerdictRule(
    checked: 20, recoverableThreshold: 0.6, goneThreshold: 0.6, denominator: .allValid)

  /// A rule with the given values.
  ///
  /// - Throws: ``OutcomeReportError/invalidRule(_:)`` when `minimumSample` is below 1 or a
  ///   threshold is not in `0 < t ≤ 1`.
  public init(
    minimumSample: Int = 20, recoverableThreshold: Double = 0.6, goneThreshold: Double = 0.6,
    denominator: Denominator = .allValid
  ) throws(OutcomeReportError) {
    guard minimumSample >= 1 else {
      throw .invalidRule("the minimum sample must be at least 1, not \(minimumSample)")
    }
    for (name, value) in [("recoverable", recoverableThreshold), ("gone", goneThreshold)] {
      guard value > 0, value <= 1 else {
        throw .invalidRule("the \(name) threshold must be above 0 and at most 1, not \(value)")
      }
    }
    self.init(
      checked: minimumSample, recoverableThreshold: recoverableThreshold,
      goneThreshold: goneThreshold, denominator: denominator)
  }

  private init(
    checked minimumSample: Int, recoverableThreshold: Double, goneThreshold: Double,
    denominator: Denominator
  ) {
    self.minimumSample = minimumSample
    self.recoverableThreshold = recoverableThreshold
    self.goneThreshold = goneThreshold
    self.denominator = denominator
  }

  /// Applies the rule to the valid tags.
  public func assess(_ counts: OutcomeCounts) -> VerdictAssessment {
    let recoverable = counts[.success] + counts[.noNewData]
    let gone = counts[.nothingOnDisk]
    let sample: Int
    switch denominator {
    case .allValid: sample = counts.total
    case .decisive: sample = recoverable + gone
    }
    let share = { (count: Int) in sample == 0 ? 0 : Double(count) / Double(sample) }
    let isRecoverable = share(recoverable) >= recoverableThreshold
    let isGone = share(gone) >= goneThreshold
    let verdict: Verdict
    switch (sample >= minimumSample, isRecoverable, isGone) {
    case (false, _, _): verdict = .tooFew
    case (true, true, false): verdict = .recoverable
    case (true, false, true): verdict = .gone
    case (true, false, false): verdict = .mixed
    case (true, true, true):
      verdict = recoverable > gone ? .recoverable : gone > recoverable ? .gone : .mixed
    }
    return VerdictAssessment(
      verdict: verdict, rule: self, sample: sample, recoverableCount: recoverable, goneCount: gone)
  }

  /// The rule in one sentence, for the text report.
  public var summary: String {
    let base: String
    switch denominator {
    case .allValid: base = "all valid tags"
    case .decisive: base = "success + no_new_data + nothing_on_disk tags"
    }
    return """
      at least \(minimumSample) tags weighed; "recoverable" when success + no_new_data is at least \
      \(Self.percent(recoverableThreshold)) of them, "gone" when nothing_on_disk is at least \
      \(Self.percent(goneThreshold)), "mixed" otherwise. Shares are of \(base); malformed and \
      duplicate lines are not weighed.
      """
  }

  /// `0.6` as `60.0%`, rounded to one decimal without locale.
  static func percent(_ share: Double) -> String {
    let tenths = Int((share * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

// MARK: - The verdict

/// The cohort decision the 3.0.2 spec asks the `migration_outcome` distribution to settle.
///
/// Raw values are the `verdict` values of the `--json` report.
public enum Verdict: String, CaseIterable, Sendable {
  /// Success and no_new_data dominate: the 3.0.0 cleanup mostly failed, the data is recoverable.
  case recoverable
  /// nothing_on_disk dominates: the 3.0.0 cleanup mostly succeeded, the data is gone.
  case gone
  /// Enough tags, but neither reading reaches its threshold.
  case mixed
  /// Too few tags to say.
  case tooFew = "too_few"

  /// The reading in the spec's words.
  public var headline: String {
    switch self {
    case .recoverable: "cleanup mostly failed, data recoverable"
    case .gone: "cleanup mostly succeeded, data gone"
    case .mixed: "neither reading dominates"
    case .tooFew: "too few tags to say"
    }
  }

  /// What to do about it, in plain words.
  public var recommendation: String {
    switch self {
    case .recoverable:
      """
      Ship 3.0.2 widely with a hopeful tone. On most devices the 3.0.0 cleanup silently failed and \
      the old Ditto.sqlite is still on disk, so updating to 3.0.2 is enough to bring the dittos back.
      """
    case .gone:
      """
      Ship 3.0.2 with iCloud restore as the headline recovery path. On most devices the 3.0.0 \
      cleanup deleted the old Ditto.sqlite; the dittos come back only by restoring an iCloud device \
      backup made before the 3.0.0 launch, then installing 3.0.2 directly.
      """
    case .mixed:
      """
      Do not pick one story yet. Ship 3.0.2 explaining both paths (updating recovers dittos where \
      the old file survived; otherwise restore an iCloud backup made before the 3.0.0 launch), and \
      collect more sysdiagnoses before choosing the tone.
      """
    case .tooFew:
      """
      Collect more sysdiagnoses from TestFlight testers before choosing between the hopeful \
      message and the iCloud-restore message.
      """
    }
  }
}

/// The numbers behind one verdict: which tags were weighed, and the shares compared.
public struct VerdictAssessment: Equatable, Sendable {
  /// The decision.
  public let verdict: Verdict
  /// The rule that made it.
  public let rule: VerdictRule
  /// The tags weighed: the denominator of both shares (see ``VerdictRule/Denominator``).
  public let sample: Int
  /// Tags with outcome success or no_new_data.
  public let recoverableCount: Int
  /// Tags with outcome nothing_on_disk.
  public let goneCount: Int

  /// `recoverableCount / sample`, or 0 when nothing was weighed.
  public var recoverableShare: Double { share(recoverableCount) }
  /// `goneCount / sample`, or 0 when nothing was weighed.
  public var goneShare: Double { share(goneCount) }

  private func share(_ count: Int) -> Double {
    sample == 0 ? 0 : Double(count) / Double(sample)
  }
}
