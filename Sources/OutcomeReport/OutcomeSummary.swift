import JSONEscaping

/// The result of a scan: the distribution of `migration_outcome` tags, the outcome of each device
/// (input), and the verdict the weighed unit gives.
///
/// Every line or object that mentions `migration_outcome` is in exactly one of ``total`` (valid
/// tags), ``malformed``, ``duplicates`` or ``ignored``.
package struct OutcomeSummary: Equatable, Sendable {
  /// Valid tags by outcome, both sources together.
  package let byOutcome: OutcomeCounts
  /// Valid tags with `source=auto`, by outcome.
  package let auto: OutcomeCounts
  /// Valid tags with `source=manual`, by outcome.
  package let manual: OutcomeCounts
  /// Sums of `categories=`, `dittos=` and `inserted=` over every valid tag.
  package let tagSums: OutcomeSums
  /// The same sums over what is weighed: each weighed device's deciding tag (unit device), or
  /// every valid tag (unit tag).
  package let sums: OutcomeSums
  /// Where malformed tags are, `FILE:LINE` (the first 1000; ``malformed`` counts them all).
  package let malformedLines: [String]
  /// Tags that are not valid: a missing, repeated, unknown, redacted or non-numeric field, or a
  /// JSON object that mentions the tag but cannot be decoded.
  package let malformed: Int
  /// Tags dropped because the same entry (timestamp, pid, thread, message) was already counted.
  package let duplicates: Int
  /// Other mentions of `migration_outcome`: lines of other subsystems or categories,
  /// continuation lines, the echoed `--predicate`, messages that only contain the word.
  package let ignored: Int
  /// Of ``ignored``, the mentions that could not be read at all (a layout not recognized, a
  /// continuation of an unknown entry): the sample may miss tags (``isIncomplete``).
  package let unreadable: Int
  /// Inputs read.
  package let inputs: Int
  /// Inputs by the first style recognized in each; inputs with none are missing here.
  package let styles: [LogStyle: Int]
  /// The rule the verdict is made with.
  package let rule: VerdictRule
  /// What the verdict, ``weighedCounts`` and the intervals weigh.
  package let unit: CountingUnit
  /// One per input, in the order read, those without a valid tag included.
  package let devices: [DeviceOutcome]
  /// Devices with an outcome, by outcome.
  package let deviceCounts: OutcomeCounts
  private let deviceAuto: OutcomeCounts
  private let deviceManual: OutcomeCounts

  init(tally: OutcomeTally, rule: VerdictRule, unit: CountingUnit) {
    self.byOutcome = tally.byOutcome
    self.auto = tally.auto
    self.manual = tally.manual
    self.tagSums = tally.sums
    self.malformed = tally.malformed
    self.duplicates = tally.duplicates
    self.ignored = tally.ignored
    self.unreadable = tally.unreadable
    self.inputs = tally.inputs
    self.styles = tally.styles
    self.rule = rule
    self.unit = unit
    let names = tally.devices.map(\.input)
    self.devices = tally.devices.map { $0.outcome(inputs: names) }
    var all = OutcomeCounts()
    var auto = OutcomeCounts()
    var manual = OutcomeCounts()
    for device in devices {
      guard let outcome = device.outcome else { continue }
      all[outcome] += 1
      if device.source == .manual { manual[outcome] += 1 } else { auto[outcome] += 1 }
    }
    self.deviceCounts = all
    self.deviceAuto = auto
    self.deviceManual = manual
    if unit == .device {
      var deciding = OutcomeSums()
      for sums in devices.compactMap(\.decidingSums) {
        deciding.add(categories: sums.categories, dittos: sums.dittos, inserted: sums.inserted)
      }
      self.sums = deciding
    } else {
      self.sums = tally.sums
    }
    self.malformedLines = tally.malformedLocations.map { location in
      "\(names.indices.contains(location.input) ? names[location.input] : "-"):\(location.line)"
    }
  }

  /// The number of valid tags (the sum of ``byOutcome``).
  package var total: Int { byOutcome.total }

  /// The valid tags from one source, by outcome.
  package func counts(for source: OutcomeSource) -> OutcomeCounts {
    switch source {
    case .auto: auto
    case .manual: manual
    }
  }

  /// The weighed units by outcome: ``deviceCounts`` or ``byOutcome``, as ``unit`` says.
  package var weighedCounts: OutcomeCounts { unit == .device ? deviceCounts : byOutcome }

  /// The weighed units from one source (a device's source is that of its deciding tag).
  package func weighedCounts(for source: OutcomeSource) -> OutcomeCounts {
    switch (unit, source) {
    case (.device, .auto): deviceAuto
    case (.device, .manual): deviceManual
    case (.tag, _): counts(for: source)
    }
  }

  /// The devices that have an outcome (at least one decisive tag).
  package var weighedDevices: [DeviceOutcome] { devices.filter(\.isWeighed) }

  /// Devices whose every tag said "not now" (``DeviceOutcome/isPending``): not weighed.
  package var pendingDevices: [DeviceOutcome] { devices.filter(\.isPending) }

  /// A note for the reports when devices are pending, nil otherwise: how many, and why that
  /// matters.
  package var pendingNote: String? {
    let pending = pendingDevices.count
    guard pending > 0 else { return nil }
    let noun = pending == 1 ? "device is" : "devices are"
    let share =
      devices.isEmpty
      ? "" : " (\(VerdictRule.percent(Double(pending) / Double(devices.count))) of inputs)"
    return
      "\(pending) \(noun) pending\(share): every tag said \"not now\" (found_unreadable with a "
      + "reason=, such as a locked iPhone, or library_error), so they are listed but not weighed. "
      + "A cohort with many pending devices is not yet measured: collect their logs again after "
      + "their next launch."
  }

  /// Inputs that may hold tags that were not counted: mentions that could not be read, binary
  /// data, damaged gzip.
  package var incompleteDevices: [DeviceOutcome] { devices.filter(\.isIncomplete) }

  /// True when some input could not be read whole: the verdict stands on an incomplete sample.
  package var isIncomplete: Bool { devices.contains(where: \.isIncomplete) }

  /// What makes the sample incomplete, for the reports; nil when it is complete.
  package var incompleteNote: String? {
    let inputs = incompleteDevices
    guard !inputs.isEmpty else { return nil }
    var parts: [String] = []
    if unreadable > 0 {
      let holding = inputs.filter { $0.unreadableMentions > 0 }.count
      parts.append(
        "\(unreadable) \(unreadable == 1 ? "mention" : "mentions") of migration_outcome in "
          + "\(holding) \(holding == 1 ? "input" : "inputs") could not be read")
    }
    let binary = inputs.filter { $0.problem == .binary }.count
    if binary > 0 {
      parts.append("\(binary) \(binary == 1 ? "input is" : "inputs are") not text")
    }
    let cut = inputs.filter { $0.problem != nil && $0.problem != .binary }.count
    if cut > 0 {
      parts.append("\(cut) \(cut == 1 ? "input was" : "inputs were") read only in part")
    }
    return "the sample is incomplete: " + parts.joined(separator: ", ")
      + ". Their devices may be missing or decided by fewer tags than they logged: look at these "
      + "files (or capture them again as `log show` text) before relying on the verdict."
  }

  /// The interval of one outcome's share of all weighed units (``weighedCounts``).
  package func interval(_ outcome: OutcomeCode) -> WilsonInterval {
    rule.interval(weighedCounts[outcome], of: weighedCounts.total)
  }

  /// The verdict with the numbers it was made from.
  package var assessment: VerdictAssessment { rule.assess(weighedCounts) }

  /// The verdict alone.
  package var verdict: Verdict { assessment.verdict }
}

// MARK: - The --json report

extension OutcomeSummary {
  /// The machine-readable report: one JSON object on one line, keys sorted, no trailing newline.
  ///
  /// ```json
  /// {"byOutcome":{"empty_store":0,…,"success":0},"bySource":{"auto":{…},"manual":{…}},
  /// "confidence":0.95,"devices":[],"duplicates":0,"ignored":0,"inputs":0,"intervals":{…},
  /// "malformed":0,"sums":{"categories":0,"dittos":0,"inserted":0},"tags":0,"total":0,
  /// "unit":"device","unweighedInputs":[],"verdict":"too_few","weighed":0}
  /// ```
  ///
  /// The keys and values of the contract are `total` (the sum of `byOutcome`), `malformed`,
  /// `byOutcome` and `bySource` (devices with unit device, tags with unit tag), `sums` (over the
  /// devices' deciding tags with unit device, over every valid tag with unit tag; `tagSums` is
  /// always over every valid tag), `verdict` (`recoverable`, `gone`, `mixed`, `too_few`), `unit`, `weighed` (the units in
  /// the verdict's denominator), `confidence`, `intervals` (`[lower, upper]` of each outcome's
  /// share of all weighed units and of the `recoverable` and `gone` readings' shares of the
  /// denominator, 0…1, six decimals) and, with unit device, `devices` (`input`, `outcome`,
  /// `source`, `tags`, and when present `from`, `laterManual` and `sameCaptureAs`; a device whose
  /// every tag said "not now" has `outcome` `pending` and `pendingReason`), and `pending` (those
  /// devices, never weighed). Every outcome key is present, zeros included. `duplicates`,
  /// `ignored`, `inputs`, `tags` (valid tags) and `unweighedInputs` (inputs without a valid tag)
  /// are added, and `unreadable` (mentions that could not be read), `incomplete` (true when an
  /// input could not be read whole) and `inputProblems` (`input`, `unreadableMentions`, and
  /// `problem`, `problemCode`, `encoding` when they apply, for each such input). The text is what `JSONSerialization` writes with `.sortedKeys`
  /// (numbers aside), built by hand so that it never fails.
  package func jsonText() -> String {
    let assessment = assessment
    var intervals = OutcomeCode.allCases.map { ($0.rawValue, Self.pair(interval($0))) }
    intervals.append(("recoverable", Self.pair(assessment.recoverableInterval)))
    intervals.append(("gone", Self.pair(assessment.goneInterval)))
    var members: [(String, String)] = [
      ("byOutcome", Self.object(weighedCounts)),
      (
        "bySource",
        Self.object(
          OutcomeSource.allCases.map { ($0.rawValue, Self.object(weighedCounts(for: $0))) })
      ),
      ("confidence", Self.number(rule.confidence)),
      ("duplicates", String(duplicates)),
      ("ignored", String(ignored)),
      ("inputs", String(inputs)),
      ("intervals", Self.object(intervals)),
      ("malformed", String(malformed)),
      (
        "sums",
        Self.object([
          ("categories", String(sums.categories)), ("dittos", String(sums.dittos)),
          ("inserted", String(sums.inserted)),
        ])
      ),
      (
        "tagSums",
        Self.object([
          ("categories", String(tagSums.categories)), ("dittos", String(tagSums.dittos)),
          ("inserted", String(tagSums.inserted)),
        ])
      ),
      ("tags", String(total)),
      ("total", String(weighedCounts.total)),
      ("unit", Self.string(unit.rawValue)),
      ("verdict", Self.string(verdict.rawValue)),
      ("weighed", String(assessment.sample)),
    ]
    members.append(("pending", String(pendingDevices.count)))
    members.append(("unreadable", String(unreadable)))
    members.append(("incomplete", isIncomplete ? "true" : "false"))
    members.append(
      ("inputProblems", "[" + incompleteDevices.map(Self.inputProblem).joined(separator: ",") + "]")
    )
    if unit == .device {
      let listed = devices.filter { $0.isWeighed || $0.isPending }
      members.append(("devices", "[" + listed.map(Self.device).joined(separator: ",") + "]"))
      let silent = devices.filter { !$0.isWeighed && !$0.isPending }.map {
        Self.string($0.input)
      }
      members.append(("unweighedInputs", "[" + silent.joined(separator: ",") + "]"))
    }
    return Self.object(members)
  }

  /// `{"input", "unreadableMentions", "unreadableLines"?, "problem"?, "problemCode"?,
  /// "encoding"?}`.
  private static func inputProblem(_ device: DeviceOutcome) -> String {
    var members = [
      ("input", string(device.input)), ("unreadableMentions", String(device.unreadableMentions)),
    ]
    if !device.unreadableLines.isEmpty {
      members.append(
        (
          "unreadableLines",
          "[" + device.unreadableLines.map(String.init).joined(separator: ",") + "]"
        ))
    }
    if let problem = device.problem {
      members.append(("problem", string(problem.description)))
      members.append(("problemCode", string(problem.code)))
    }
    if let encoding = device.encoding { members.append(("encoding", string(encoding))) }
    return object(members)
  }

  private static func device(_ device: DeviceOutcome) -> String {
    var members = [
      ("input", string(device.input)),
      ("outcome", string(device.outcome?.rawValue ?? (device.isPending ? "pending" : ""))),
      ("source", string(device.source?.rawValue ?? "")),
      ("tags", String(device.tags)),
    ]
    if let from = device.from { members.append(("from", string(from.rawValue))) }
    if let reason = device.pendingReason { members.append(("pendingReason", string(reason))) }
    if let later = device.laterManual {
      var fields = [
        ("outcome", string(later.outcome.rawValue)), ("inserted", String(later.inserted)),
      ]
      if let salvaged = later.salvaged { fields.append(("salvaged", String(salvaged))) }
      if let from = later.from { fields.append(("from", string(from.rawValue))) }
      members.append(("laterManual", object(fields)))
    }
    if let other = device.sameCaptureAs { members.append(("sameCaptureAs", string(other))) }
    if device.unreadableMentions > 0 {
      members.append(("unreadableMentions", String(device.unreadableMentions)))
    }
    if let encoding = device.encoding { members.append(("encoding", string(encoding))) }
    return object(members)
  }

  private static func object(_ counts: OutcomeCounts) -> String {
    object(OutcomeCode.allCases.map { ($0.rawValue, String(counts[$0])) })
  }

  private static func pair(_ interval: WilsonInterval) -> String {
    "[" + number(interval.lower) + "," + number(interval.upper) + "]"
  }

  /// A share or confidence rounded to six decimals, in Swift's shortest form (`0.277533`, `1.0`).
  static func number(_ value: Double) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    return "\(rounded == 0 ? 0 : rounded)"
  }

  /// A JSON string as `JSONSerialization` writes it (`/` as `\/`): the package's one escaper,
  /// `JSONEscaping`, in its Foundation style.
  static func string(_ text: String) -> String {
    JSONEscaping.quoted(text, style: .foundation)
  }

  /// `{"key":value,…}` with keys sorted by their UTF-8 bytes; keys are plain ASCII identifiers.
  private static func object(_ members: [(String, String)]) -> String {
    let sorted = members.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    return "{" + sorted.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
