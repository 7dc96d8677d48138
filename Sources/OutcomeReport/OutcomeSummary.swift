import JSONOutput
import Telemetry

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
  package func counts(for source: MigrationSource) -> OutcomeCounts {
    switch source {
    case .auto: auto
    case .manual: manual
    }
  }

  /// The weighed units by outcome: ``deviceCounts`` or ``byOutcome``, as ``unit`` says.
  package var weighedCounts: OutcomeCounts { unit == .device ? deviceCounts : byOutcome }

  /// The weighed units from one source (a device's source is that of its deciding tag).
  package func weighedCounts(for source: MigrationSource) -> OutcomeCounts {
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
    let malformedTags = inputs.reduce(0) { $0 + $1.malformedTags }
    if malformedTags > 0 {
      let holding = inputs.filter { $0.malformedTags > 0 }.count
      parts.append(
        "\(malformedTags) \(malformedTags == 1 ? "tag" : "tags") in \(holding) "
          + "\(holding == 1 ? "input" : "inputs") could not be read (malformed)")
    }
    let binary = inputs.filter { $0.problem == .binary }.count
    if binary > 0 {
      parts.append("\(binary) \(binary == 1 ? "input is" : "inputs are") not text")
    }
    let unread = inputs.filter {
      if case .notRead = $0.problem { return true }
      return false
    }.count
    if unread > 0 {
      parts.append("\(unread) \(unread == 1 ? "input was" : "inputs were") not read at all")
    }
    let cut =
      inputs.filter {
        guard let problem = $0.problem, problem != .binary else { return false }
        if case .notRead = problem { return false }
        return true
      }.count
    if cut > 0 {
      parts.append("\(cut) \(cut == 1 ? "input was" : "inputs were") read only in part")
    }
    return "the sample is incomplete: " + parts.joined(separator: ", ")
      + ". Their devices may be missing or decided by fewer tags than they logged: look at these "
      + "files (or capture them again as `log show` text) before relying on the verdict."
  }

  /// The interval of one outcome's share of all weighed units (``weighedCounts``).
  package func interval(_ outcome: MigrationOutcome) -> WilsonInterval {
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
  /// `problem`, `problemCode`, `encoding` when they apply, for each such input). The text is what
  /// `JSONSerialization` writes with `.sortedKeys` (numbers aside), from ``jsonValue`` through the
  /// package's one encoder.
  package func jsonText() -> String {
    JSONValue(encoding: jsonValue).rendered(Self.jsonStyle)
  }

  /// How `outcomes --json` is written: on one line, as `JSONSerialization` writes with
  /// `.sortedKeys` (numbers aside).
  package static let jsonStyle = JSONValue.Style.compactFoundation

  /// The value ``jsonText()`` writes, through the package's one encoder.
  package var jsonValue: OutcomeSummaryOutput { OutcomeSummaryOutput(self) }
}

/// `outcomes --json` as a value (see ``OutcomeSummary/jsonText()`` for its keys).
package struct OutcomeSummaryOutput: Encodable {
  let byOutcome: [String: Int]
  let bySource: [String: [String: Int]]
  let confidence: Double
  let duplicates: Int
  let ignored: Int
  let inputs: Int
  let intervals: [String: [Double]]
  let malformed: Int
  let sums: Sums
  let tagSums: Sums
  let tags: Int
  let total: Int
  let unit: String
  let verdict: String
  let weighed: Int
  let pending: Int
  let unreadable: Int
  let incomplete: Bool
  let inputProblems: [InputProblem]
  @OmittedWhenNil var devices: [Device]? = nil
  @OmittedWhenNil var unweighedInputs: [String]? = nil

  struct Sums: Encodable {
    let categories: Int
    let dittos: Int
    let inserted: Int

    init(_ sums: OutcomeSums) {
      categories = sums.categories
      dittos = sums.dittos
      inserted = sums.inserted
    }
  }

  /// An input that could not be read whole.
  struct InputProblem: Encodable {
    let input: String
    let unreadableMentions: Int
    @OmittedWhenNil var unreadableLines: [Int]? = nil
    /// Tags of the input whose fields could not be read, and the lines of the first ones.
    @OmittedWhenNil var malformedTags: Int? = nil
    @OmittedWhenNil var malformedLines: [Int]? = nil
    @OmittedWhenNil var problem: String? = nil
    @OmittedWhenNil var problemCode: String? = nil
    @OmittedWhenNil var encoding: String? = nil

    init(_ device: DeviceOutcome) {
      input = device.input
      unreadableMentions = device.unreadableMentions
      if !device.unreadableLines.isEmpty { unreadableLines = device.unreadableLines }
      if device.malformedTags > 0 {
        malformedTags = device.malformedTags
        malformedLines = device.malformedLines
      }
      problem = device.problem?.description
      problemCode = device.problem?.code
      encoding = device.encoding
    }
  }

  /// A device weighed or pending.
  struct Device: Encodable {
    let input: String
    let outcome: String
    let source: String
    let tags: Int
    @OmittedWhenNil var from: String? = nil
    @OmittedWhenNil var pendingReason: String? = nil
    @OmittedWhenNil var laterManual: Later? = nil
    @OmittedWhenNil var sameCaptureAs: String? = nil
    @OmittedWhenNil var unreadableMentions: Int? = nil
    @OmittedWhenNil var encoding: String? = nil

    struct Later: Encodable {
      let outcome: String
      let inserted: Int
      @OmittedWhenNil var salvaged: Int? = nil
      @OmittedWhenNil var from: String? = nil
    }

    init(_ device: DeviceOutcome) {
      input = device.input
      outcome = device.outcome?.rawValue ?? (device.isPending ? "pending" : "")
      source = device.source?.rawValue ?? ""
      tags = device.tags
      from = device.from?.rawValue
      pendingReason = device.pendingReason
      laterManual = device.laterManual.map {
        Later(
          outcome: $0.outcome.rawValue, inserted: $0.inserted, salvaged: $0.salvaged,
          from: $0.from?.rawValue)
      }
      sameCaptureAs = device.sameCaptureAs
      if device.unreadableMentions > 0 { unreadableMentions = device.unreadableMentions }
      encoding = device.encoding
    }
  }

  init(_ summary: OutcomeSummary) {
    func counts(_ counts: OutcomeCounts) -> [String: Int] {
      Dictionary(uniqueKeysWithValues: MigrationOutcome.allCases.map { ($0.rawValue, counts[$0]) })
    }
    func pair(_ interval: WilsonInterval) -> [Double] {
      [Self.share(interval.lower), Self.share(interval.upper)]
    }
    let assessment = summary.assessment
    byOutcome = counts(summary.weighedCounts)
    bySource = Dictionary(
      uniqueKeysWithValues: MigrationSource.allCases.map {
        ($0.rawValue, counts(summary.weighedCounts(for: $0)))
      })
    confidence = Self.share(summary.rule.confidence)
    duplicates = summary.duplicates
    ignored = summary.ignored
    inputs = summary.inputs
    var intervals = Dictionary(
      uniqueKeysWithValues: MigrationOutcome.allCases.map {
        ($0.rawValue, pair(summary.interval($0)))
      })
    intervals["recoverable"] = pair(assessment.recoverableInterval)
    intervals["gone"] = pair(assessment.goneInterval)
    self.intervals = intervals
    malformed = summary.malformed
    sums = Sums(summary.sums)
    tagSums = Sums(summary.tagSums)
    tags = summary.total
    total = summary.weighedCounts.total
    unit = summary.unit.rawValue
    verdict = summary.verdict.rawValue
    weighed = assessment.sample
    pending = summary.pendingDevices.count
    unreadable = summary.unreadable
    incomplete = summary.isIncomplete
    inputProblems = summary.incompleteDevices.map(InputProblem.init)
    if summary.unit == .device {
      devices = summary.devices.filter { $0.isWeighed || $0.isPending }.map(Device.init)
      unweighedInputs = summary.devices.filter { !$0.isWeighed && !$0.isPending }.map(\.input)
    }
  }

  /// A share or confidence rounded to six decimals (written in Swift's shortest form: `0.277533`,
  /// `1.0`; never `-0.0`).
  static func share(_ value: Double) -> Double {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    return rounded == 0 ? 0 : rounded
  }
}

extension OutcomeSummary {
  /// A share or confidence rounded to six decimals, in Swift's shortest form (`0.277533`, `1.0`),
  /// as the JSON report writes it.
  static func number(_ value: Double) -> String {
    "\(OutcomeSummaryOutput.share(value))"
  }
}
