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

// MARK: - The --json report

extension OutcomeSummary {
  /// The machine-readable report: one JSON object on one line, keys sorted, no trailing newline.
  ///
  /// ```json
  /// {"byOutcome":{"empty_store":0,"found_unreadable":0,"no_new_data":0,"nothing_on_disk":0,
  /// "success":0},"bySource":{"auto":{…},"manual":{…}},"duplicates":0,"ignored":0,"malformed":0,
  /// "sums":{"categories":0,"dittos":0,"inserted":0},"total":0,"verdict":"too_few"}
  /// ```
  ///
  /// The keys and values of the contract are `total` (valid tags), `malformed`, `byOutcome`,
  /// `bySource`, `sums` and `verdict` (`recoverable`, `gone`, `mixed`, `too_few`); every outcome
  /// key is present, zeros included. `duplicates` and `ignored` are added. The text is exactly
  /// what `JSONSerialization` writes with `.sortedKeys`, built by hand so that it never fails.
  public func jsonText() -> String {
    let members: [(String, String)] = [
      ("byOutcome", Self.object(byOutcome)),
      (
        "bySource",
        Self.object(
          OutcomeSource.allCases.map { ($0.rawValue, Self.object(counts(for: $0))) })
      ),
      ("duplicates", String(duplicates)),
      ("ignored", String(ignored)),
      ("malformed", String(malformed)),
      (
        "sums",
        Self.object([
          ("categories", String(sums.categories)), ("dittos", String(sums.dittos)),
          ("inserted", String(sums.inserted)),
        ])
      ),
      ("total", String(total)),
      ("verdict", "\"\(verdict.rawValue)\""),
    ]
    return Self.object(members)
  }

  private static func object(_ counts: OutcomeCounts) -> String {
    object(OutcomeCode.allCases.map { ($0.rawValue, String(counts[$0])) })
  }

  /// `{"key":value,…}` with keys sorted by their UTF-8 bytes; keys are plain ASCII identifiers.
  private static func object(_ members: [(String, String)]) -> String {
    let sorted = members.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    return "{" + sorted.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
