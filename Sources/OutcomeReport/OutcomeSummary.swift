/// The result of a scan: the distribution of `migration_outcome` tags and the verdict it gives.
///
/// Every line or object that mentions `migration_outcome` is in exactly one of ``total`` (valid
/// tags), ``malformed``, ``duplicates`` or ``ignored``.
public struct OutcomeSummary: Equatable, Sendable {
  /// Valid tags by outcome, both sources together.
  public let byOutcome: OutcomeCounts
  /// Valid tags with `source=auto`, by outcome.
  public let auto: OutcomeCounts
  /// Valid tags with `source=manual`, by outcome.
  public let manual: OutcomeCounts
  /// Sums of `categories=`, `dittos=` and `inserted=` over the valid tags.
  public let sums: OutcomeSums
  /// Tags that are not valid: a missing, repeated, unknown, redacted or non-numeric field, or a
  /// JSON object that mentions the tag but cannot be decoded.
  public let malformed: Int
  /// Tags dropped because the same entry (timestamp, pid, thread, message) was already counted.
  public let duplicates: Int
  /// Other mentions of `migration_outcome`: lines of other subsystems or categories,
  /// continuation lines, the echoed `--predicate`, messages that only contain the word.
  public let ignored: Int
  /// Inputs read.
  public let inputs: Int
  /// Inputs by the first style recognized in each; inputs with none are missing here.
  public let styles: [LogStyle: Int]
  /// The rule the verdict is made with.
  public let rule: VerdictRule

  init(tally: OutcomeTally, rule: VerdictRule) {
    self.byOutcome = tally.byOutcome
    self.auto = tally.auto
    self.manual = tally.manual
    self.sums = tally.sums
    self.malformed = tally.malformed
    self.duplicates = tally.duplicates
    self.ignored = tally.ignored
    self.inputs = tally.inputs
    self.styles = tally.styles
    self.rule = rule
  }

  /// The number of valid tags (the sum of ``byOutcome``).
  public var total: Int { byOutcome.total }

  /// The valid tags from one source, by outcome.
  public func counts(for source: OutcomeSource) -> OutcomeCounts {
    switch source {
    case .auto: auto
    case .manual: manual
    }
  }

  /// The verdict with the numbers it was made from.
  public var assessment: VerdictAssessment { rule.assess(byOutcome) }

  /// The verdict alone.
  public var verdict: Verdict { assessment.verdict }
}
