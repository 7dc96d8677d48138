import Telemetry

// MARK: - The human report

extension OutcomeSummary {
  /// The report for people: counts, what is weighed, a table of outcomes with shares, sources
  /// and intervals, the sums, the per-device table (unit device), and the verdict with the shares
  /// and intervals it used, the rule and the recommendation. Ends with a newline.
  ///
  /// ```text
  /// migration_outcome tags: 23 valid, 1 malformed, 2 duplicates dropped, 1 other mention ignored
  /// Inputs: 3 (default 1, ndjson 1, plain 1)
  /// Weighed: 3 devices (each input is one device: its first automatic outcome, else its first …)
  ///
  /// OUTCOME               COUNT    SHARE     AUTO   MANUAL   95% INTERVAL
  /// success                   2    66.7%        2        0     20.8-93.9%
  /// …
  /// ```
  package func textReport() -> String {
    var lines: [String] = []
    lines.append(
      "migration_outcome tags: \(total) valid, \(malformed) malformed, "
        + "\(Self.plural(duplicates, "repeated line")) dropped, "
        + "\(Self.plural(ignored - unreadable, "other mention")) ignored"
        + (unreadable > 0 ? ", \(unreadable) could not be read" : ""))
    if duplicates > 0 {
      lines.append(
        "(a repeated line is one entry already counted, seen again in an overlapping capture)")
    }
    lines.append("Inputs: \(inputs)" + stylesNote())
    lines += Self.wrap(weighedNote(), indent: "")
    if let note = pendingNote { lines += Self.wrap("Pending: " + note, indent: "") }
    if let note = incompleteNote { lines += Self.wrap("Incomplete: " + note, indent: "") }
    lines.append("")
    lines += table()
    lines.append("")
    let over =
      unit == .device ? "the weighed devices' deciding attempts" : "valid tags"
    lines.append(
      "Sums over \(over): categories \(sums.categories), dittos \(sums.dittos), "
        + "inserted \(sums.inserted)")
    lines.append("")
    if unit == .device, !devices.isEmpty {
      lines += deviceTable()
      lines.append("")
    }
    lines += verdictParagraph()
    return lines.joined(separator: "\n") + "\n"
  }

  private func stylesNote() -> String {
    var parts = LogStyle.allCases.compactMap { style in
      styles[style].map { "\(style.rawValue) \($0)" }
    }
    let binary = devices.filter { $0.problem == .binary }.count
    let unrecognized = inputs - styles.values.reduce(0, +) - binary
    if unrecognized > 0 { parts.append("unrecognized \(unrecognized)") }
    if binary > 0 { parts.append("not text \(binary)") }
    return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
  }

  private func weighedNote() -> String {
    let weighed = assessment.sample
    switch unit {
    case .device:
      return "Weighed: \(Self.plural(weighed, "device")) (one per input: its first automatic "
        + "outcome that says something about the old data, else its first such manual one)"
    case .tag:
      return "Weighed: \(Self.plural(weighed, "tag")) (every valid tag weighs the same)"
    }
  }

  private func table() -> [String] {
    let counts = weighedCounts
    let auto = weighedCounts(for: .auto)
    let manual = weighedCounts(for: .manual)
    let all = counts.total
    func row(_ name: String, _ count: Int, _ auto: Int, _ manual: Int, _ range: String) -> String {
      let share = all == 0 ? "-" : VerdictRule.percent(Double(count) / Double(all))
      return Self.pad(name, 18, left: true) + Self.pad(String(count), 9) + Self.pad(share, 9)
        + Self.pad(String(auto), 9) + Self.pad(String(manual), 9) + Self.pad(range, 15)
    }
    let confidence = VerdictRule.percent(rule.confidence, decimals: false)
    var rows = [
      Self.pad("OUTCOME", 18, left: true) + Self.pad("COUNT", 9) + Self.pad("SHARE", 9)
        + Self.pad("AUTO", 9) + Self.pad("MANUAL", 9) + Self.pad("\(confidence) INTERVAL", 15)
    ]
    for outcome in MigrationOutcome.allCases {
      rows.append(
        row(
          outcome.rawValue, counts[outcome], auto[outcome], manual[outcome],
          all == 0 ? "-" : Self.range(interval(outcome))))
    }
    rows.append(row("all", all, auto.total, manual.total, ""))
    return rows.map { $0.trimmingBlanks() }
  }

  /// One row per input: its outcome, source, tags, and a later manual attempt that changed it.
  private func deviceTable() -> [String] {
    var rows = [
      Self.pad("DEVICE OUTCOME", 19, left: true) + Self.pad("SOURCE", 8, left: true)
        + Self.pad("TAGS", 5) + "   " + Self.pad("LATER MANUAL ATTEMPT", 34, left: true) + "INPUT"
    ]
    var notes: [String] = []
    for device in devices {
      let outcome =
        device.outcome?.rawValue ?? device.pendingReason.map { "pending (\($0))" } ?? "-"
      var source = device.source?.rawValue ?? "-"
      if device.from != nil { source += "*" }
      let later =
        device.laterManual?.description
        ?? (device.isWeighed || device.isPending ? "-" : "(no valid tag)")
      rows.append(
        Self.pad(outcome, 19, left: true) + Self.pad(source, 8, left: true)
          + Self.pad(String(device.tags), 5) + "   " + Self.pad(later, 34, left: true)
          + device.input)
      if device.isIncomplete {
        var what: [String] = []
        if device.unreadableMentions > 0 {
          what.append(
            "\(Self.plural(device.unreadableMentions, "mention")) of migration_outcome could not be read"
          )
        }
        if let problem = device.problem { what.append(problem.description) }
        notes.append("\(device.input): " + what.joined(separator: "; ") + ".")
      }
      if let other = device.sameCaptureAs {
        notes.append(
          "\(device.input) repeats entries of \(other): the same device captured twice? "
            + "It is weighed as its own device.")
      }
    }
    if devices.contains(where: { $0.from != nil }) {
      notes.append("* the deciding tag recovered from a file the user picked (from=file).")
    }
    return rows.map { $0.trimmingBlanks() } + notes.flatMap { Self.wrap($0, indent: "") }
  }

  private func verdictParagraph() -> [String] {
    let assessment = assessment
    let rule = assessment.rule
    var lines = ["Verdict: \(assessment.verdict.rawValue) (\(assessment.verdict.headline))"]
    if isIncomplete {
      lines[0] += ", on an incomplete sample"
    }
    let noun = unit == .device ? "device" : "tag"
    let confidence = VerdictRule.percent(rule.confidence, decimals: false)
    lines += Self.wrap(assessment.reason(noun: noun), indent: "  ")
    if assessment.sample > 0 {
      lines += Self.wrap(
        "success + no_new_data: \(assessment.recoverableCount) of \(assessment.sample) = "
          + "\(VerdictRule.percent(assessment.recoverableShare)), \(confidence) interval "
          + Self.range(assessment.recoverableInterval, separator: " to ")
          + " (\"recoverable\" from \(VerdictRule.percent(rule.recoverableThreshold)))",
        indent: "  ")
      lines += Self.wrap(
        "nothing_on_disk: \(assessment.goneCount) of \(assessment.sample) = "
          + "\(VerdictRule.percent(assessment.goneShare)), \(confidence) interval "
          + Self.range(assessment.goneInterval, separator: " to ")
          + " (\"gone\" from \(VerdictRule.percent(rule.goneThreshold)))",
        indent: "  ")
    }
    lines += Self.wrap("Rule: " + rule.summary(unit: unit), indent: "  ")
    lines += Self.wrap("Recommendation: " + assessment.verdict.recommendation, indent: "  ")
    if let next = assessment.collectNext(noun: noun) { lines += Self.wrap(next, indent: "  ") }
    return lines
  }

  // MARK: - Layout helpers

  /// `25.5-61.1%`, or with a separator `25.5% to 61.1%`.
  static func range(_ interval: WilsonInterval, separator: String? = nil) -> String {
    let lower = VerdictRule.percent(interval.lower)
    let upper = VerdictRule.percent(interval.upper)
    guard let separator else { return lower.dropLast() + "-" + upper }
    return lower + separator + upper
  }

  /// `1 file`, `3 files`; `plural` when the noun does not take an `s`.
  package static func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
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

extension OutcomeSummary {
  /// What to tell the user about every device whose verdict is on an incomplete sample (mentions
  /// or tags that could not be read, with their lines; a problem of the input), and, when
  /// `verbose`, every malformed line: `warning: …` lines, in device order.
  package func incompleteWarnings(verbose: Bool) -> [String] {
    var lines: [String] = []
    for device in incompleteDevices {
      if device.unreadableMentions > 0 {
        lines.append(
          "warning: \(device.input): \(Self.plural(device.unreadableMentions, "mention")) of migration_outcome could not be read (a layout this tool does not recognize) at \(Self.lineWords(device.unreadableLines, total: device.unreadableMentions)); the verdict is on an incomplete sample"
        )
      }
      if device.malformedTags > 0 {
        lines.append(
          "warning: \(device.input): \(Self.plural(device.malformedTags, "migration_outcome tag")) could not be read (malformed fields) at \(Self.lineWords(device.malformedLines, total: device.malformedTags)); the verdict is on an incomplete sample"
        )
      }
      if let problem = device.problem {
        lines.append("warning: \(device.input): \(problem)")
      }
    }
    guard verbose else { return lines }
    lines += malformedLines.map { "malformed migration_outcome line: \($0)" }
    let unlisted = malformed - malformedLines.count
    if unlisted > 0 { lines.append("(\(unlisted) more malformed lines not listed)") }
    return lines
  }

  /// `line 3`, `lines 3, 17 and 40`, `lines 3, 17, … (the first 10)`.
  package static func lineWords(_ numbers: [Int], total: Int) -> String {
    let lines = numbers.map(String.init)
    guard lines.count > 1 else { return "line " + (lines.first ?? "?") }
    if total > lines.count {
      return "lines " + lines.joined(separator: ", ") + ", … (the first \(lines.count))"
    }
    return "lines " + lines.dropLast().joined(separator: ", ") + " and " + lines[lines.count - 1]
  }
}
