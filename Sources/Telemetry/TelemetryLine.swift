// THE migration_outcome LINE: ONE VALUE, RENDERED AND PARSED HERE (3.0.2 spec, "Field telemetry")
//
//   migration_outcome source=<auto|manual> outcome=<code> categories=N dittos=N inserted=N
//                     [salvaged=N] [from=file] [reason=<transient reason>]
//
//   FIELD        VALUE
//   source       auto | manual
//   outcome      success | no_new_data | empty_store | found_unreadable | nothing_on_disk
//                | library_error
//   categories   decimal digits only, at most 18 of them (so sums cannot overflow on one line)
//   dittos       same
//   inserted     same
//   salvaged     optional; same; dittos rebuilt by the salvage decoder
//   from         optional; `file` when the user picked the file to recover from
//   reason       optional; on found_unreadable, why the failure said nothing about the data
//                (permission, busy, locked, no_space, changing, defaults, not_a_file, cancelled, or
//                a value a newer build adds): the attempt counted for nothing
//
// Parsing: a message (first line only) is a line if and only if its first word is
// `migration_outcome`. Fields are split on runs of spaces and tabs; each `key=value` splits at its
// first `=`. A line is valid if and only if (1) each of the five required fields appears exactly
// once, (2) no value is `<private>` (or another `<…>` redaction), and (3) every value is in its
// column above. Other keys and words without `=` are accepted and ignored (newer builds may add
// fields). The optional fields never make a line malformed: the first one whose value is in its
// column is kept. A `<mask.hash: '…'>` value splits into two words; its first half is not a known
// value, so the line is malformed, as a redacted value should be.

/// Which path started a migration attempt (`source=`).
package enum MigrationSource: String, CaseIterable, Sendable {
  /// `migrateIfNeeded` at launch: honours the completion flag.
  case auto
  /// "Recover Old Dittos" (`recoverNow`): ignores the flag.
  case manual
}

/// How an attempt ended (`outcome=`). `allCases` is in the order the spec lists them
/// (``libraryError``, added later, last).
public enum MigrationOutcome: String, Sendable, Equatable, CaseIterable {
  /// Dittos were inserted.
  case success
  /// The store was read and held dittos, all already in the library.
  case noNewData = "no_new_data"
  /// The store was read in full and held no ditto.
  case emptyStore = "empty_store"
  /// A store file exists but could not be read.
  case foundUnreadable = "found_unreadable"
  /// No store file exists in any probed place.
  case nothingOnDisk = "nothing_on_disk"
  /// The legacy data was read, but the current library could not be read or written: nothing was
  /// changed. Never a legacy-read error.
  case libraryError = "library_error"
}

/// Where a manual recovery read its data from (`from=`).
package enum MigrationOrigin: String, CaseIterable, Sendable {
  /// A file the user picked (`from=file`).
  case file
}

/// One `migration_outcome` line: what the engine logs at the end of every attempt, and what
/// `OutcomeReport` reads back, through this one type.
package struct TelemetryLine: Equatable, Sendable {
  /// The word that starts every line.
  package static let word = "migration_outcome"

  package var source: MigrationSource
  package var outcome: MigrationOutcome
  /// Categories and dittos read, and dittos inserted.
  package var categories: Int
  package var dittos: Int
  package var inserted: Int
  /// `salvaged=N`: dittos rebuilt by the salvage decoder, when any were imported.
  package var salvaged: Int?
  /// `from=…`: where a manual recovery read from.
  package var from: MigrationOrigin?
  /// `reason=…`: on `found_unreadable`, why the failure said nothing about the data.
  package var reason: String?

  package init(
    source: MigrationSource, outcome: MigrationOutcome, categories: Int, dittos: Int,
    inserted: Int, salvaged: Int? = nil, from: MigrationOrigin? = nil, reason: String? = nil
  ) {
    self.source = source
    self.outcome = outcome
    self.categories = categories
    self.dittos = dittos
    self.inserted = inserted
    self.salvaged = salvaged
    self.from = from
    self.reason = reason
  }

  /// The line as logged: `migration_outcome source=auto outcome=success categories=4 dittos=27
  /// inserted=27`, then ` salvaged=N`, ` from=file` and, on `found_unreadable`, ` reason=…`.
  package var rendered: String {
    var line =
      "\(Self.word) source=\(source.rawValue) outcome=\(outcome.rawValue) categories=\(categories) dittos=\(dittos) inserted=\(inserted)"
    if let salvaged { line += " salvaged=\(salvaged)" }
    if let from { line += " from=\(from.rawValue)" }
    if outcome == .foundUnreadable, let reason { line += " reason=\(reason)" }
    return line
  }

  /// Why a message that starts with `migration_outcome` is not a valid line.
  package enum Defect: Equatable, Sendable {
    /// A required field is absent or has an empty value.
    case missingField(String)
    /// A required field appears more than once.
    case repeatedField(String)
    /// A value was redacted (`<private>`, `<mask.hash: …>`).
    case redactedValue(String)
    /// `source` or `outcome` holds a value outside the contract.
    case unknownValue(String)
    /// A count is not 1–18 decimal digits.
    case notACount(String)
  }

  /// The three answers for one message.
  package enum Parse: Equatable, Sendable {
    /// The message does not start with the `migration_outcome` word.
    case notALine
    /// The message is a line, but not a valid one.
    case malformed(Defect)
    /// A valid line.
    case line(TelemetryLine)
  }

  private static let requiredKeys = ["source", "outcome", "categories", "dittos", "inserted"]
  private static let requiredKeyBytes = requiredKeys.map { Array($0.utf8) }

  /// Reads the first line of `message`.
  package static func parse(_ message: some StringProtocol) -> Parse {
    let firstLine = Substring(message).utf8.prefix(while: { $0 != 0x0A && $0 != 0x0D })
    let words = firstLine.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    guard let head = words.first, head.elementsEqual(word.utf8) else { return .notALine }
    // One slot per required key, in `requiredKeys` order.
    var values: [Substring.UTF8View?] = Array(repeating: nil, count: requiredKeys.count)
    var repeated: Int?
    var salvaged: Int?
    var from: MigrationOrigin?
    var reason: String?
    for word in words.dropFirst() {
      guard let equals = word.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let key = word[word.startIndex..<equals]
      guard let slot = requiredKeyBytes.firstIndex(where: { key.elementsEqual($0) }) else {
        let value = String(Substring(word[word.index(after: equals)...]))
        if salvaged == nil, key.elementsEqual("salvaged".utf8) { salvaged = count(from: value) }
        if from == nil, key.elementsEqual("from".utf8) { from = MigrationOrigin(rawValue: value) }
        if reason == nil, key.elementsEqual("reason".utf8), !value.isEmpty, value.first != "<" {
          reason = value
        }
        continue
      }
      if values[slot] != nil, repeated == nil { repeated = slot }
      values[slot] = word[word.index(after: equals)...]
    }
    if let repeated { return .malformed(.repeatedField(requiredKeys[repeated])) }
    var text: [String] = []
    for (slot, key) in requiredKeys.enumerated() {
      guard let value = values[slot], !value.isEmpty else { return .malformed(.missingField(key)) }
      if value.first == UInt8(ascii: "<") { return .malformed(.redactedValue(key)) }
      text.append(String(Substring(value)))
    }
    guard let source = MigrationSource(rawValue: text[0]) else {
      return .malformed(.unknownValue("source"))
    }
    guard let outcome = MigrationOutcome(rawValue: text[1]) else {
      return .malformed(.unknownValue("outcome"))
    }
    var counts: [Int] = []
    for slot in 2..<5 {
      guard let value = count(from: text[slot]) else {
        return .malformed(.notACount(requiredKeys[slot]))
      }
      counts.append(value)
    }
    return .line(
      TelemetryLine(
        source: source, outcome: outcome, categories: counts[0], dittos: counts[1],
        inserted: counts[2], salvaged: salvaged, from: from,
        reason: outcome == .foundUnreadable ? reason : nil))
  }

  /// A count: 1–18 ASCII digits, nothing else (no sign, no spaces, no `_`).
  private static func count(from text: String) -> Int? {
    let utf8 = text.utf8
    guard (1...18).contains(utf8.count),
      utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(text)
  }
}
