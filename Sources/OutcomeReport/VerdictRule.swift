/// How the distribution of devices (or tags) becomes a ``Verdict``: two thresholds compared with
/// the lower ends of confidence intervals, a widest interval, and a minimum sample.
///
/// With `sample` the units (devices or tags) in the denominator, `recoverable` those with success
/// or no_new_data and `gone` those with nothing_on_disk, each share carries a Wilson score interval
/// at ``confidence`` (``WilsonInterval``):
/// 1. `sample < minimumSample` gives ``Verdict/tooFew``.
/// 2. The lower bound of the recoverable share `≥ recoverableThreshold` gives
///    ``Verdict/recoverable``; the lower bound of the gone share `≥ goneThreshold` gives
///    ``Verdict/gone``. If both hold (possible only when the thresholds add up to 1 or less), the
///    larger count wins and a tie is ``Verdict/mixed``.
/// 3. Otherwise, a recoverable interval wider than ``maximumWidth`` gives ``Verdict/tooFew``.
/// 4. Otherwise ``Verdict/mixed``.
///
/// Malformed tags and dropped duplicates are never weighed. Defaults (``standard``): both
/// thresholds 0.6, 95% confidence, widest interval 0.30, no floor (a minimum sample of 1),
/// denominator ``Denominator/allValid``.
package struct VerdictRule: Equatable, Sendable {
  /// Which valid units the shares are taken of.
  package enum Denominator: String, CaseIterable, Sendable {
    /// Every valid unit. empty_store, found_unreadable and library_error count against both
    /// readings: a file that survived but yields no dittos is not a reason for a hopeful tone.
    /// The default.
    case allValid = "all"
    /// Only success, no_new_data and nothing_on_disk, the outcomes that answer "did the cleanup
    /// delete the file?". empty_store, found_unreadable and library_error are left out.
    case decisive
  }

  /// The fewest weighed units that allow a verdict other than ``Verdict/tooFew``.
  package let minimumSample: Int
  /// The lower bound of the success + no_new_data share that gives ``Verdict/recoverable``.
  package let recoverableThreshold: Double
  /// The lower bound of the nothing_on_disk share that gives ``Verdict/gone``.
  package let goneThreshold: Double
  /// Which units the shares are taken of.
  package let denominator: Denominator
  /// The confidence of every interval, `0 < c < 1` (0.95 by default).
  package let confidence: Double
  /// The widest recoverable interval (upper − lower) that still allows ``Verdict/mixed``.
  package let maximumWidth: Double

  /// The defaults: no floor, 0.6, 0.6, all valid units, 95%, 0.30.
  package static let standard = VerdictRule(
    checked: 1, recoverableThreshold: 0.6, goneThreshold: 0.6, denominator: .allValid,
    confidence: 0.95, maximumWidth: 0.3)

  /// A rule with the given values.
  ///
  /// - Throws: ``OutcomeReportError/invalidRule(_:)`` when `minimumSample` is below 1, a
  ///   threshold or `maximumWidth` is not in `0 < t ≤ 1`, or `confidence` is not in `0 < c < 1`.
  package init(
    minimumSample: Int = 1, recoverableThreshold: Double = 0.6, goneThreshold: Double = 0.6,
    denominator: Denominator = .allValid, confidence: Double = 0.95, maximumWidth: Double = 0.3
  ) throws(OutcomeReportError) {
    guard minimumSample >= 1 else {
      throw .invalidRule("the minimum sample must be at least 1, not \(minimumSample)")
    }
    for (name, value) in [
      ("recoverable threshold", recoverableThreshold), ("gone threshold", goneThreshold),
      ("maximum width", maximumWidth),
    ] {
      guard value > 0, value <= 1 else {
        throw .invalidRule("the \(name) must be above 0 and at most 1, not \(value)")
      }
    }
    guard confidence > 0, confidence < 1 else {
      throw .invalidRule("the confidence must be above 0 and below 1, not \(confidence)")
    }
    self.init(
      checked: minimumSample, recoverableThreshold: recoverableThreshold,
      goneThreshold: goneThreshold, denominator: denominator, confidence: confidence,
      maximumWidth: maximumWidth)
  }

  private init(
    checked minimumSample: Int, recoverableThreshold: Double, goneThreshold: Double,
    denominator: Denominator, confidence: Double, maximumWidth: Double
  ) {
    self.minimumSample = minimumSample
    self.recoverableThreshold = recoverableThreshold
    self.goneThreshold = goneThreshold
    self.denominator = denominator
    self.confidence = confidence
    self.maximumWidth = maximumWidth
    self.z = WilsonInterval.zScore(confidence: confidence)
  }

  /// The normal quantile of ``confidence`` (1.959963984540054 at 0.95).
  package let z: Double

  /// The interval of `count` of `sample` at this rule's confidence.
  package func interval(_ count: Int, of sample: Int) -> WilsonInterval {
    WilsonInterval(count: count, of: sample, z: z)
  }

  /// The number of units in the denominator.
  package func sample(of counts: OutcomeCounts) -> Int {
    switch denominator {
    case .allValid: counts.total
    case .decisive: counts[.success] + counts[.noNewData] + counts[.nothingOnDisk]
    }
  }

  /// Applies the rule to the valid units (devices or tags) by outcome.
  package func assess(_ counts: OutcomeCounts) -> VerdictAssessment {
    let recoverable = counts[.success] + counts[.noNewData]
    let gone = counts[.nothingOnDisk]
    let sample = sample(of: counts)
    let recoverableInterval = interval(recoverable, of: sample)
    let goneInterval = interval(gone, of: sample)
    let isRecoverable = recoverableInterval.lower >= recoverableThreshold
    let isGone = goneInterval.lower >= goneThreshold
    let verdict: Verdict
    switch (sample >= minimumSample, isRecoverable, isGone) {
    case (false, _, _): verdict = .tooFew
    case (true, true, false): verdict = .recoverable
    case (true, false, true): verdict = .gone
    case (true, false, false):
      verdict = recoverableInterval.width > maximumWidth ? .tooFew : .mixed
    case (true, true, true):
      verdict = recoverable > gone ? .recoverable : gone > recoverable ? .gone : .mixed
    }
    return VerdictAssessment(
      verdict: verdict, rule: self, sample: sample, recoverableCount: recoverable, goneCount: gone,
      recoverableInterval: recoverableInterval, goneInterval: goneInterval)
  }

  /// The rule in one sentence, for the text report, naming the unit weighed.
  package func summary(unit: CountingUnit = .tag) -> String {
    let units = unit.plural
    let base: String
    switch denominator {
    case .allValid:
      base =
        "all valid \(units) (empty_store, found_unreadable and library_error count against both)"
    case .decisive: base = "success + no_new_data + nothing_on_disk \(units)"
    }
    let floor =
      minimumSample > 1 ? ", or when fewer than \(minimumSample) \(units) are weighed" : ""
    return """
      "recoverable" when the lower bound of the \(Self.percent(confidence, decimals: false)) \
      interval of success + no_new_data is at least \(Self.percent(recoverableThreshold)), "gone" \
      when that of nothing_on_disk is at least \(Self.percent(goneThreshold)); otherwise \
      "too_few" when the success + no_new_data interval is wider than \
      \(Self.points(maximumWidth)) points\(floor), and "mixed" if not. Shares are of \(base), with \
      Wilson score intervals; malformed and duplicate lines are not weighed.
      """
  }

  /// The rule in one sentence, weighing tags (``summary(unit:)``).
  package var summary: String { summary(unit: .tag) }

  /// `0.6` as `60.0%`, rounded to one decimal without locale; with `decimals: false`, a whole
  /// percentage drops its `.0` (`95%`).
  static func percent(_ share: Double, decimals: Bool = true) -> String {
    let tenths = Int((share * 1000).rounded())
    if !decimals && tenths % 10 == 0 { return "\(tenths / 10)%" }
    return "\(tenths / 10).\(tenths % 10)%"
  }

  /// `0.3` as `30.0`: a width in percentage points.
  static func points(_ width: Double) -> String {
    let tenths = Int((width * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}

/// What one weighed unit of the report is.
package enum CountingUnit: String, CaseIterable, Sendable {
  /// Each input is one device; its outcome is its first automatic attempt (else its first manual
  /// one). The default.
  case device
  /// Every valid tag weighs the same (for one file merged from many devices).
  case tag

  /// `devices`, `tags`.
  package var plural: String { rawValue + "s" }
}

// MARK: - The verdict

/// The cohort decision the 3.0.2 spec asks the `migration_outcome` distribution to settle.
///
/// Raw values are the `verdict` values of the `--json` report.
package enum Verdict: String, CaseIterable, Sendable {
  /// Success and no_new_data dominate: the 3.0.0 cleanup mostly failed, the data is recoverable.
  case recoverable
  /// nothing_on_disk dominates: the 3.0.0 cleanup mostly succeeded, the data is gone.
  case gone
  /// Sure enough, but neither reading reaches its threshold.
  case mixed
  /// Neither reading reaches its threshold and the interval is too wide to say more.
  case tooFew = "too_few"

  /// The reading in the spec's words.
  package var headline: String {
    switch self {
    case .recoverable: "cleanup mostly failed, data recoverable"
    case .gone: "cleanup mostly succeeded, data gone"
    case .mixed: "neither reading dominates"
    case .tooFew: "too few to tell"
    }
  }

  /// What to do about it, in plain words.
  package var recommendation: String {
    switch self {
    case .recoverable:
      """
      Ship 3.0.2 widely with a hopeful tone. On most devices the 3.0.0 cleanup silently failed and \
      the old Ditto.sqlite is still on disk, so updating to 3.0.2 is enough to bring the dittos back.
      """
    case .gone:
      """
      Ship 3.0.2 with backups as the headline recovery path. On most devices the 3.0.0 cleanup \
      deleted the old Ditto.sqlite; the dittos come back from a backup made before the 3.0.0 launch. \
      First a computer backup (Finder or iTunes), which needs no erase: support reads it with \
      'ditto-recover backup extract' and the user opens the recovery file in Ditto. Only without \
      one, an iCloud device backup, which means erasing the iPhone and restoring it, then \
      installing 3.0.2 directly.
      """
    case .mixed:
      """
      Do not pick one story yet. Ship 3.0.2 explaining both paths (updating recovers dittos where \
      the old file survived; otherwise a backup made before the 3.0.0 launch: a computer backup \
      first, read with 'ditto-recover backup extract' without erasing, then an iCloud restore), \
      and collect more sysdiagnoses before choosing the tone.
      """
    case .tooFew:
      """
      Collect more sysdiagnoses from TestFlight testers before choosing between the hopeful \
      message and the iCloud-restore message.
      """
    }
  }
}

/// The numbers behind one verdict: how many units were weighed, the shares and their intervals.
package struct VerdictAssessment: Equatable, Sendable {
  /// The decision.
  package let verdict: Verdict
  /// The rule that made it.
  package let rule: VerdictRule
  /// The units weighed: the denominator of both shares (see ``VerdictRule/Denominator``).
  package let sample: Int
  /// Units with outcome success or no_new_data.
  package let recoverableCount: Int
  /// Units with outcome nothing_on_disk.
  package let goneCount: Int
  /// The interval of the recoverable share.
  package let recoverableInterval: WilsonInterval
  /// The interval of the gone share.
  package let goneInterval: WilsonInterval

  /// `recoverableCount / sample`, or 0 when nothing was weighed.
  package var recoverableShare: Double { share(recoverableCount) }
  /// `goneCount / sample`, or 0 when nothing was weighed.
  package var goneShare: Double { share(goneCount) }

  private func share(_ count: Int) -> Double {
    sample == 0 ? 0 : Double(count) / Double(sample)
  }
}

extension VerdictAssessment {
  /// Why the verdict is what it is, in one sentence (`noun`: "device" or "tag").
  package func reason(noun: String) -> String {
    let weighed = "\(sample) \(noun)\(sample == 1 ? "" : "s") weighed"
    switch verdict {
    case .tooFew:
      if sample < rule.minimumSample {
        return "\(weighed); the rule needs at least \(rule.minimumSample)."
      }
      return
        "\(weighed); the success + no_new_data interval is \(VerdictRule.points(recoverableInterval.width)) points wide, more than \(VerdictRule.points(rule.maximumWidth)): more \(noun)s are needed."
    case .recoverable:
      return
        "\(weighed); the lower end of the success + no_new_data interval, \(VerdictRule.percent(recoverableInterval.lower)), reaches \(VerdictRule.percent(rule.recoverableThreshold))."
    case .gone:
      return
        "\(weighed); the lower end of the nothing_on_disk interval, \(VerdictRule.percent(goneInterval.lower)), reaches \(VerdictRule.percent(rule.goneThreshold))."
    case .mixed:
      return
        "\(weighed); neither lower end reaches its threshold (success + no_new_data from \(VerdictRule.percent(recoverableInterval.lower)), nothing_on_disk from \(VerdictRule.percent(goneInterval.lower))), and the interval is narrow enough to say so."
    }
  }

  /// For `too_few`: about how many more units make a verdict possible, at the share seen so far
  /// (one half when nothing is weighed yet): the rule's minimum, and enough for the success +
  /// no_new_data interval to be at most the widest allowed. Nil for any other verdict.
  package var unitsToCollect: Int? {
    guard verdict == .tooFew else { return nil }
    let share = sample == 0 ? 0.5 : recoverableShare
    var needed = max(rule.minimumSample, sample + 1)
    while needed < 1_000_000 {
      let count = Int((share * Double(needed)).rounded())
      if rule.interval(count, of: needed).width <= rule.maximumWidth { break }
      needed += max(1, needed / 20)
    }
    return max(needed - sample, 1)
  }

  /// What to collect next when the verdict is `too_few`, nil otherwise.
  package func collectNext(noun: String) -> String? {
    guard let more = unitsToCollect else { return nil }
    let what =
      noun == "device"
      ? "the logs of about \(more) more devices, one file per device"
      : "about \(more) more migration_outcome lines"
    return
      "Collect next: \(what) (from each TestFlight tester's sysdiagnose: log show --archive system_logs.logarchive --predicate 'subsystem == \"io.kern.ditto\"' --info > tester-name.log), then run outcomes again on all of them."
  }
}
