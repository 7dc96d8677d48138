import Telemetry

/// The counters a scan keeps: the only state that grows with the input.
///
/// Every line or object that mentions `migration_outcome` lands in exactly one bucket: a valid
/// tag (``byOutcome``), ``malformed``, ``duplicates`` or ``ignored``. Memory grows only with the
/// number of inputs (one ``DeviceTally`` each) and of counted tags that carry an identity (a
/// 16-byte digest and two input numbers, for de-duplication), never with the size of a log.
struct OutcomeTally {
  /// Valid tags by outcome, all sources together.
  var byOutcome = OutcomeCounts()
  /// Valid tags by source, then outcome.
  var auto = OutcomeCounts()
  var manual = OutcomeCounts()
  /// Sums over the valid tags.
  var sums = OutcomeSums()
  /// Tags that are not valid (missing or unknown fields, redacted or non-numeric values).
  var malformed = 0
  /// The line of the input being read (set by the reader before it hands an entry over).
  var line = 0
  /// Where the first ``malformedLocationLimit`` malformed tags are: input number and line.
  private(set) var malformedLocations: [(input: Int, line: Int)] = []
  /// How many malformed tags are located at most (the rest are only counted).
  static let malformedLocationLimit = 1000
  /// Entries dropped because an entry with the same identity was already counted.
  var duplicates = 0
  /// Mentions of `migration_outcome` that were not counted: other subsystems or categories,
  /// the echoed predicate, messages that only contain the word, and ``unreadable``.
  var ignored = 0
  /// Of ``ignored``, the mentions that could not be read at all (a layout not recognized, a
  /// continuation whose entry is unknown): the sample may miss tags.
  var unreadable = 0
  /// How many inputs were read in each style (an input counts once, in its first style).
  var styles: [LogStyle: Int] = [:]
  /// Inputs read.
  var inputs = 0
  /// One per input begun, in order.
  private(set) var devices: [DeviceTally] = []

  /// Digests of the identities of the tag entries counted so far (valid or malformed), with the
  /// first input that held each and the last input that counted it for its device.
  private var seen: [IdentityDigest: (first: Int32, last: Int32)] = [:]

  /// Starts the device of a new input.
  mutating func beginDevice(_ input: String) {
    devices.append(DeviceTally(input: input))
  }

  /// Counts one entry that mentions the tag.
  mutating func record(_ entry: LogEntry) {
    let parse = TelemetryLine.parse(entry.message)
    if case .notALine = parse {
      ignored += 1
      return
    }
    guard entry.scope != .other else {
      ignored += 1
      return
    }
    if devices.isEmpty { beginDevice("-") }
    let current = devices.count - 1
    if let identity = entry.identity {
      let digest = IdentityDigest(identity)
      let input = Int32(truncatingIfNeeded: current)
      if let known = seen[digest] {
        duplicates += 1
        // The same entry in an earlier input: the same device captured twice. The tag is counted
        // once among tags, and once for this input's device too.
        guard known.last != input, case .line(let tag) = parse else { return }
        seen[digest] = (known.first, input)
        devices[current].record(tag, time: entry.time)
        if devices[current].sameCaptureAs == nil {
          devices[current].sameCaptureAs = Int(known.first)
        }
        return
      }
      seen[digest] = (input, input)
    }
    switch parse {
    case .notALine: ignored += 1
    case .malformed: noteMalformed()
    case .line(let tag):
      count(tag)
      devices[current].record(tag, time: entry.time)
    }
  }

  /// Counts a mention that was read and is not Ditto's tag (another subsystem's line, a JSON
  /// object that is not an entry).
  mutating func ignore() {
    ignored += 1
  }

  /// Counts a mention that could not be read: a line whose layout is not recognized, a
  /// continuation whose entry is unknown.
  mutating func cannotRead() {
    ignored += 1
    unreadable += 1
    if devices.isEmpty { beginDevice("-") }
    devices[devices.count - 1].unreadable += 1
    if devices[devices.count - 1].unreadableLines.count < DeviceOutcome.unreadableLineLimit {
      devices[devices.count - 1].unreadableLines.append(line)
    }
  }

  /// Notes how the current input was encoded and what stopped it from being read whole.
  mutating func noteInput(encoding: String?, problem: InputProblem?) {
    guard !devices.isEmpty else { return }
    devices[devices.count - 1].encoding = encoding
    devices[devices.count - 1].problem = problem
  }

  /// Counts an object that mentions the tag but could not be decoded.
  mutating func countBroken() {
    noteMalformed()
  }

  private mutating func noteMalformed() {
    malformed += 1
    if devices.isEmpty { beginDevice("-") }
    devices[devices.count - 1].malformed += 1
    if devices[devices.count - 1].malformedLines.count < DeviceOutcome.unreadableLineLimit {
      devices[devices.count - 1].malformedLines.append(line)
    }
    if malformedLocations.count < Self.malformedLocationLimit {
      malformedLocations.append((max(devices.count - 1, 0), line))
    }
  }

  private mutating func count(_ tag: TelemetryLine) {
    byOutcome[tag.outcome] += 1
    switch tag.source {
    case .auto: auto[tag.outcome] += 1
    case .manual: manual[tag.outcome] += 1
    }
    sums.add(categories: tag.categories, dittos: tag.dittos, inserted: tag.inserted)
  }
}

/// 128 bits standing for one entry identity: 16 bytes per counted tag instead of the whole text.
///
/// Two SipHash values of the identity (Swift's `Hasher`, seeded once per process), each keyed by
/// a different prefix. Two different identities share a digest with a probability of about
/// 2⁻¹²⁸ per pair: for a million tags, far below one in 10²⁵.
private struct IdentityDigest: Hashable {
  let high: Int
  let low: Int

  init(_ identity: String) {
    var first = Hasher()
    first.combine(UInt8(1))
    first.combine(identity)
    var second = Hasher()
    second.combine(UInt8(2))
    second.combine(identity)
    high = first.finalize()
    low = second.finalize()
  }
}
