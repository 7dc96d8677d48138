import Telemetry

// ONE DEVICE'S OUTCOME (each input is one device's capture; pinned by DeviceReductionTests)
//
//   WHAT                 RULE
//   order                by timestamp where the style has a full date, else by position in the input
//   decisive             every tag but library_error and found_unreadable with reason= (a failure
//                        that said nothing about the data: "not now")
//   outcome              the first decisive automatic tag's; with none, the first decisive manual one
//   pending              a device whose tags are all undecisive: listed, never weighed
//   later manual         the last decisive manual tag after that one, kept when it changed the picture: a
//                        different reading (success and no_new_data are one reading) or salvaged > 0
//   same capture as      an entry of this input was already counted from an earlier input: the
//                        same device captured twice (the tag still counts for this device, once)
//
// Only valid tags take part. A device keeps three tags, whatever the size of its capture.

/// Where a tag falls in its device's capture: its time when the style has a date, else its place.
struct TagOrder: Equatable, Sendable {
  /// Microseconds (``LogTimestamp``), or nil.
  var time: Int64?
  /// How many valid tags of the input came before it.
  var position: Int

  /// True when `self` comes before `other`: by time when both have one and they differ, else by
  /// position.
  func precedes(_ other: TagOrder) -> Bool {
    if let time, let otherTime = other.time, time != otherTime { return time < otherTime }
    return position < other.position
  }
}

/// The running reduction of one input's valid tags.
struct DeviceTally: Sendable {
  /// The input's name (a path, or `-` for standard input).
  let input: String
  /// Valid tags counted for this device.
  var tags = 0
  var firstAuto: (tag: TelemetryLine, order: TagOrder)?
  var firstManual: (tag: TelemetryLine, order: TagOrder)?
  var lastManual: (tag: TelemetryLine, order: TagOrder)?
  /// The first tag that decided nothing (library_error, found_unreadable with a reason).
  var firstUndecided: (tag: TelemetryLine, order: TagOrder)?
  /// The index of an earlier input holding one of this input's entries.
  var sameCaptureAs: Int?
  /// Mentions of the tag that could not be read.
  var unreadable = 0
  /// The lines of the first unreadable mentions (at most ``DeviceOutcome/unreadableLineLimit``).
  var unreadableLines: [Int] = []
  /// Tags whose fields could not be read (malformed), and the lines of the first ones.
  var malformed = 0
  var malformedLines: [Int] = []
  /// How the input was encoded, when not plain UTF-8 (`gzip`, `UTF-16LE`).
  var encoding: String?
  /// What stopped the input from being read whole.
  var problem: InputProblem?

  init(input: String) {
    self.input = input
  }

  /// Adds one valid tag logged at `time` (nil: unknown).
  mutating func record(_ tag: TelemetryLine, time: Int64?) {
    let order = TagOrder(time: time, position: tags)
    tags += 1
    guard tag.isDecisive else {
      if firstUndecided.map({ order.precedes($0.order) }) ?? true { firstUndecided = (tag, order) }
      return
    }
    switch tag.source {
    case .auto:
      if firstAuto.map({ order.precedes($0.order) }) ?? true { firstAuto = (tag, order) }
    case .manual:
      if firstManual.map({ order.precedes($0.order) }) ?? true { firstManual = (tag, order) }
      if lastManual.map({ !order.precedes($0.order) }) ?? true { lastManual = (tag, order) }
    }
  }

  /// The device's outcome, once all its tags are in.
  func outcome(inputs: [String]) -> DeviceOutcome {
    let decisive = firstAuto ?? firstManual
    var later: LaterAttempt?
    if let decisive, let last = lastManual, decisive.order.precedes(last.order),
      Self.reading(of: last.tag.outcome) != Self.reading(of: decisive.tag.outcome)
        || (last.tag.salvaged ?? 0) > 0
    {
      later = LaterAttempt(
        outcome: last.tag.outcome, inserted: last.tag.inserted, salvaged: last.tag.salvaged,
        from: last.tag.from)
    }
    let undecided = decisive == nil ? firstUndecided : nil
    return DeviceOutcome(
      input: input, tags: tags, outcome: decisive?.tag.outcome,
      source: decisive?.tag.source ?? undecided?.tag.source, from: decisive?.tag.from,
      laterManual: later, sameCaptureAs: sameCaptureAs.map { inputs[$0] },
      pendingReason: undecided?.tag.pendingReason, unreadableMentions: unreadable,
      unreadableLines: unreadableLines, malformedTags: malformed, malformedLines: malformedLines,
      encoding: encoding, problem: problem,
      decidingSums: decisive.map {
        OutcomeSums(
          categories: $0.tag.categories, dittos: $0.tag.dittos, inserted: $0.tag.inserted)
      })
  }

  /// success and no_new_data are one reading ("the file was there and was read").
  private static func reading(of outcome: MigrationOutcome) -> MigrationOutcome {
    outcome == .noNewData ? .success : outcome
  }
}

/// One device (one input) of the report.
package struct DeviceOutcome: Equatable, Sendable {
  /// The input it was read from: the path as given, or `-` for standard input.
  package let input: String
  /// Valid tags counted for it.
  package let tags: Int
  /// Its outcome: its first decisive automatic tag's, else its first decisive manual tag's; nil
  /// with no decisive tag (no valid tag, or ``isPending``).
  package let outcome: MigrationOutcome?
  /// The source of the tag that gave ``outcome`` (of its first tag, when pending).
  package let source: MigrationSource?
  /// The `from=` of the tag that gave ``outcome``.
  package let from: MigrationOrigin?
  /// The last manual attempt after it, when it changed the picture; nil otherwise.
  package let laterManual: LaterAttempt?
  /// An earlier input that holds one of this input's entries (the same device captured twice).
  package let sameCaptureAs: String?
  /// Why a pending device is not decided: the `reason=` of its first tag (`permission`, …), or
  /// `library_error`; nil when the device is not pending.
  package let pendingReason: String?
  /// The `categories=`, `dittos=` and `inserted=` of the tag that gave ``outcome``.
  package let decidingSums: OutcomeSums?
  /// Mentions of `migration_outcome` in this input that could not be read (a layout not
  /// recognized): the device may have tags that were not counted.
  package let unreadableMentions: Int
  /// The 1-based lines of the first unreadable mentions (at most ``unreadableLineLimit``), so each
  /// can be found in the file.
  package let unreadableLines: [Int]
  /// Tags of this input whose fields could not be read (malformed): each may have been the
  /// device's deciding tag, so the device's reading is not whole.
  package let malformedTags: Int
  /// The 1-based lines of the first malformed tags (at most ``unreadableLineLimit``).
  package let malformedLines: [Int]
  /// How many lines of unreadable mentions a device keeps.
  package static let unreadableLineLimit = 10
  /// How the input was encoded when it was not plain UTF-8: `gzip`, `UTF-16LE`, `UTF-16BE`, or
  /// both (`gzip, UTF-16LE`).
  package let encoding: String?
  /// What kept the input from being read whole (binary data, damaged gzip), or nil.
  package let problem: InputProblem?

  init(
    input: String, tags: Int, outcome: MigrationOutcome?, source: MigrationSource?,
    from: MigrationOrigin?,
    laterManual: LaterAttempt?, sameCaptureAs: String?, pendingReason: String? = nil,
    unreadableMentions: Int = 0, unreadableLines: [Int] = [], malformedTags: Int = 0,
    malformedLines: [Int] = [], encoding: String? = nil, problem: InputProblem? = nil,
    decidingSums: OutcomeSums? = nil
  ) {
    self.malformedTags = malformedTags
    self.malformedLines = malformedLines
    self.unreadableLines = unreadableLines
    self.decidingSums = decidingSums
    self.unreadableMentions = unreadableMentions
    self.encoding = encoding
    self.problem = problem
    self.input = input
    self.tags = tags
    self.outcome = outcome
    self.source = source
    self.from = from
    self.laterManual = laterManual
    self.sameCaptureAs = sameCaptureAs
    self.pendingReason = pendingReason
  }

  /// True when the device has an outcome (at least one decisive tag).
  package var isWeighed: Bool { outcome != nil }

  /// True when every tag of the device said "not now" (transient `found_unreadable`,
  /// `library_error`): listed as `pending`, never weighed.
  package var isPending: Bool { pendingReason != nil }

  /// True when the input may hold tags that were not counted: mentions that could not be read,
  /// tags whose fields could not be read, or a problem that kept it from being read whole.
  package var isIncomplete: Bool { unreadableMentions > 0 || malformedTags > 0 || problem != nil }
}

/// A manual attempt that came after a device's deciding tag and changed what it says.
package struct LaterAttempt: Equatable, Sendable {
  /// Its outcome.
  package let outcome: MigrationOutcome
  /// Its `inserted=`.
  package let inserted: Int
  /// Its `salvaged=`, when present.
  package let salvaged: Int?
  /// Its `from=`, when present.
  package let from: MigrationOrigin?

  /// `success inserted=5 salvaged=12 from=file`: the outcome and the fields that tell the story.
  package var description: String {
    var parts = [outcome.rawValue]
    if inserted > 0 { parts.append("inserted=\(inserted)") }
    if let salvaged { parts.append("salvaged=\(salvaged)") }
    if let from { parts.append("from=\(from.rawValue)") }
    return parts.joined(separator: " ")
  }
}
