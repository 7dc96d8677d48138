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
