// MARK: - The human report

extension OutcomeSummary {
  /// The report for people: counts, a table of outcomes with shares and sources, the sums, and
  /// the verdict with the shares it used, the rule and the recommendation. Ends with a newline.
  ///
  /// ```text
  /// migration_outcome tags: 23 valid, 1 malformed, 2 duplicates dropped, 1 other mention ignored
  /// Inputs: 3 (default 1, ndjson 1, plain 1)
  ///
  /// OUTCOME              COUNT    SHARE     AUTO   MANUAL
  /// success                 12    52.2%       10        2
  /// …
  /// ```
  public func textReport() -> String {
    var lines: [String] = []
    lines.append(
      "migration_outcome tags: \(total) valid, \(malformed) malformed, "
        + "\(Self.plural(duplicates, "duplicate")) dropped, "
        + "\(Self.plural(ignored, "other mention")) ignored")
    lines.append("Inputs: \(inputs)" + stylesNote())
    lines.append("")
    lines += table()
    lines.append("")
    lines.append(
      "Sums over valid tags: categories \(sums.categories), dittos \(sums.dittos), "
        + "inserted \(sums.inserted)")
    lines.append("")
    lines += verdictParagraph()
    return lines.joined(separator: "\n") + "\n"
  }

  private func stylesNote() -> String {
    var parts = LogStyle.allCases.compactMap { style in
      styles[style].map { "\(style.rawValue) \($0)" }
    }
    let unrecognized = inputs - styles.values.reduce(0, +)
    if unrecognized > 0 { parts.append("unrecognized \(unrecognized)") }
    return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
  }

  private func table() -> [String] {
    func row(_ name: String, _ count: Int, _ auto: Int, _ manual: Int) -> String {
      let share = total == 0 ? "-" : VerdictRule.percent(Double(count) / Double(total))
      return Self.pad(name, 18, left: true) + Self.pad(String(count), 9) + Self.pad(share, 9)
        + Self.pad(String(auto), 9) + Self.pad(String(manual), 9)
    }
    var rows = [
      Self.pad("OUTCOME", 18, left: true) + Self.pad("COUNT", 9) + Self.pad("SHARE", 9)
        + Self.pad("AUTO", 9) + Self.pad("MANUAL", 9)
    ]
    for outcome in OutcomeCode.allCases {
      rows.append(row(outcome.rawValue, byOutcome[outcome], auto[outcome], manual[outcome]))
    }
    rows.append(row("all", total, auto.total, manual.total))
    return rows
  }

  private func verdictParagraph() -> [String] {
    let assessment = assessment
    let rule = assessment.rule
    var lines = ["Verdict: \(assessment.verdict.rawValue) (\(assessment.verdict.headline))"]
    if assessment.verdict == .tooFew {
      lines.append(
        "  \(Self.plural(assessment.sample, "tag")) weighed; the rule needs at least "
          + "\(rule.minimumSample).")
    }
    if assessment.sample > 0 {
      lines.append(
        "  success + no_new_data: \(assessment.recoverableCount) of \(assessment.sample) = "
          + "\(VerdictRule.percent(assessment.recoverableShare)) "
          + "(\"recoverable\" at \(VerdictRule.percent(rule.recoverableThreshold)) or more)")
      lines.append(
        "  nothing_on_disk: \(assessment.goneCount) of \(assessment.sample) = "
          + "\(VerdictRule.percent(assessment.goneShare)) "
          + "(\"gone\" at \(VerdictRule.percent(rule.goneThreshold)) or more)")
    }
    lines += Self.wrap("Rule: " + rule.summary, indent: "  ")
    lines += Self.wrap("Recommendation: " + assessment.verdict.recommendation, indent: "  ")
    return lines
  }

  // MARK: - Layout helpers

  private static func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(width - text.count, 0))
    return left ? text + fill : fill + text
  }

  /// Breaks `text` at spaces into lines of at most 100 columns, each starting with `indent`.
  static func wrap(_ text: String, indent: String, width: Int = 100) -> [String] {
    var lines: [String] = []
    var current = indent
    for word in text.split(separator: " ") {
      if current.count > indent.count && current.count + 1 + word.count > width {
        lines.append(current)
        current = indent + "  " + word
      } else {
        current += (current.count > indent.count ? " " : "") + word
      }
    }
    if current.count > indent.count { lines.append(current) }
    return lines
  }
}
