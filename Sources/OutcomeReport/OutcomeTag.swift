// THE migration_outcome TAG (3.0.2 spec, "Field telemetry"; each rule is pinned by a test)
//
//   migration_outcome source=<auto|manual> outcome=<code> categories=N dittos=N inserted=N
//                     [salvaged=N] [from=file] [reason=<transient reason>]
//
//   FIELD        VALUE
//   source       auto | manual
//   outcome      success | no_new_data | empty_store | found_unreadable | nothing_on_disk
//                | library_error
//   categories   decimal digits only, at most 18 of them (so sums cannot overflow on one tag)
//   dittos       same
//   inserted     same
//   salvaged     optional; same; dittos rebuilt by the salvage decoder
//   from         optional; `file` when the user picked the file to recover from
//   reason       optional; on found_unreadable, why the failure said nothing about the data
//                (permission, busy, locked, no_space, changing, defaults, not_a_file, or a value a
//                newer build adds): the attempt counted for nothing, the device is not decided
//
// The message (first line only, leading blanks skipped) is a tag if and only if it starts with the
// word `migration_outcome` followed by a blank or the end. Fields are split on runs of spaces and
// tabs; each `key=value` splits at its first `=`. A tag is valid if and only if (1) each of the five
// fields appears exactly once, (2) no value is `<private>` (or another `<…>` redaction), and (3) every
// value is in its column above. Fields with other keys (`error=…`) and words without `=` are
// accepted and ignored, so newer builds can add fields. The optional `salvaged`, `from` and
// `reason` never make a tag malformed: the first one whose value is in its column is kept, others are ignored. Anything else is malformed: it is
// counted, never fatal. A `<mask.hash: '…'>` value splits into two words; its first half is not a
// known value, so the tag is malformed, as a redacted value should be.

/// One valid `migration_outcome` tag.
struct OutcomeTag: Equatable, Sendable {
  var source: OutcomeSource
  var outcome: OutcomeCode
  var categories: Int
  var dittos: Int
  var inserted: Int
  /// `salvaged=N`, when present and a count.
  var salvaged: Int? = nil
  /// `from=…`, when present and a known value.
  var from: TagOrigin? = nil
  /// `reason=…`, when present and not empty (any value: newer builds may add reasons).
  var reason: String? = nil

  /// True when the tag says something about the legacy data: every tag but `library_error` and a
  /// `found_unreadable` with a `reason` (a failure that said nothing about the bytes).
  var isDecisive: Bool {
    switch outcome {
    case .libraryError: false
    case .foundUnreadable: reason == nil
    default: true
    }
  }

  /// Why an undecisive tag did not decide: its `reason`, or `library_error`.
  var pendingReason: String? {
    guard !isDecisive else { return nil }
    return reason ?? outcome.rawValue
  }
}

/// Where a manual recovery read its data from (`from=` in the tag).
public enum TagOrigin: String, CaseIterable, Sendable {
  /// A file the user picked (`from=file`).
  case file
}

/// Why a message that starts with `migration_outcome` is not a valid tag.
enum TagDefect: Equatable, Sendable {
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
enum TagParse: Equatable, Sendable {
  /// The message does not start with the `migration_outcome` word.
  case notATag
  /// The message is a tag, but not a valid one.
  case malformed(TagDefect)
  /// A valid tag.
  case tag(OutcomeTag)
}

extension OutcomeTag {
  /// The word that starts every tag.
  static let word = "migration_outcome"

  private static let requiredKeys = ["source", "outcome", "categories", "dittos", "inserted"]
  private static let requiredKeyBytes = requiredKeys.map { Array($0.utf8) }

  /// Reads the first line of `message` as a tag.
  static func parse(_ message: some StringProtocol) -> TagParse {
    let firstLine = Substring(message).utf8.prefix(while: { $0 != 0x0A && $0 != 0x0D })
    let words = firstLine.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    guard let head = words.first, head.elementsEqual(word.utf8) else { return .notATag }
    // One slot per required key, in `requiredKeys` order.
    var values: [Substring.UTF8View?] = Array(repeating: nil, count: requiredKeys.count)
    var repeated: Int?
    var salvaged: Int?
    var from: TagOrigin?
    var reason: String?
    for word in words.dropFirst() {
      guard let equals = word.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let key = word[word.startIndex..<equals]
      guard let slot = requiredKeyBytes.firstIndex(where: { key.elementsEqual($0) }) else {
        let value = String(Substring(word[word.index(after: equals)...]))
        if salvaged == nil, key.elementsEqual("salvaged".utf8) { salvaged = count(from: value) }
        if from == nil, key.elementsEqual("from".utf8) { from = TagOrigin(rawValue: value) }
        if reason == nil, key.elementsEqual("reason".utf8), !value.isEmpty,
          value.first != "<"
        {
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
    let parsed = make(from: text)
    guard case .tag(var tag) = parsed else { return parsed }
    tag.salvaged = salvaged
    tag.from = from
    tag.reason = tag.outcome == .foundUnreadable ? reason : nil
    return .tag(tag)
  }

  /// Builds the tag from the five present, unredacted values, in `requiredKeys` order.
  private static func make(from text: [String]) -> TagParse {
    guard let source = OutcomeSource(rawValue: text[0]) else {
      return .malformed(.unknownValue("source"))
    }
    guard let outcome = OutcomeCode(rawValue: text[1]) else {
      return .malformed(.unknownValue("outcome"))
    }
    var counts: [Int] = []
    for slot in 2..<5 {
      guard let value = count(from: text[slot]) else {
        return .malformed(.notACount(requiredKeys[slot]))
      }
      counts.append(value)
    }
    return .tag(
      OutcomeTag(
        source: source, outcome: outcome, categories: counts[0], dittos: counts[1],
        inserted: counts[2]))
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
