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
