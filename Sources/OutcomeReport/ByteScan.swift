import Telemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only view of bytes: a chunk of input, one line, or one JSON object.
typealias Bytes = UnsafeBufferPointer<UInt8>

/// Byte-level tests that run on every line, so they never build a `String`.
///
/// Everything here is on the hot path of a multi-gigabyte scan: the scanner decodes text only for
/// the rare lines and objects that mention `migration_outcome`.
enum ByteScan {
  private static let needle: [UInt8] = Array(TelemetryLine.word.utf8)

  /// Boyer–Moore–Horspool shifts for ``needle``: for each byte, how far the window may move
  /// when that byte is under the window's last position.
  private static let shifts: [Int] = {
    var table = Array(repeating: needle.count, count: 256)
    for (offset, byte) in needle.dropLast().enumerated() {
      table[Int(byte)] = needle.count - 1 - offset
    }
    return table
  }()

  /// The index of the first `\n` at or after `start`, or nil.
  static func newline(in bytes: Bytes, from start: Int) -> Int? {
    guard start < bytes.count, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// The first line break of `bytes` from `start` other than LF: VT, FF, NEL (`C2 85`), U+2028 or
  /// U+2029 (`E2 80 A8`/`A9`), or an HTML `<br>` (`<br/>`, `<br />`, any letter case): where it
  /// is and how many bytes it takes.
  static func otherLineBreak(in bytes: Bytes, from start: Int) -> (at: Int, width: Int)? {
    var index = start
    let count = bytes.count
    while index < count {
      switch bytes[index] {
      case 0x0B, 0x0C:
        return (index, 1)
      case 0xC2 where index + 1 < count && bytes[index + 1] == 0x85:
        return (index, 2)
      case 0xE2
      where index + 2 < count && bytes[index + 1] == 0x80
        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
        return (index, 3)
      case UInt8(ascii: "<"):
        if let width = htmlBreakWidth(bytes, at: index) { return (index, width) }
      default:
        break
      }
      index += 1
    }
    return nil
  }

  /// The width of `<br>`, `<br/>` or `<br />` (any letter case) at `index`, if one is there.
  private static func htmlBreakWidth(_ bytes: Bytes, at index: Int) -> Int? {
    let count = bytes.count
    guard index + 3 < count, bytes[index + 1] | 0x20 == UInt8(ascii: "b"),
      bytes[index + 2] | 0x20 == UInt8(ascii: "r")
    else { return nil }
    var at = index + 3
    while at < count, bytes[at] == UInt8(ascii: " ") { at += 1 }
    if at < count, bytes[at] == UInt8(ascii: "/") { at += 1 }
    guard at < count, bytes[at] == UInt8(ascii: ">") else { return nil }
    return at + 1 - index
  }

  /// True when `bytes` contains `migration_outcome` anywhere.
  /// ``mentionsTag(_:)-(Bytes)`` of `text`'s UTF-8.
  static func mentionsTag(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { mentionsTag($0) }
  }

  static func mentionsTag(_ bytes: Bytes) -> Bool {
    let length = needle.count
    guard bytes.count >= length else { return false }
    return needle.withUnsafeBufferPointer { pattern in
      shifts.withUnsafeBufferPointer { shift in
        let last = pattern[length - 1]
        var window = 0
        while window + length <= bytes.count {
          let tail = bytes[window + length - 1]
          if tail == last {
            var offset = length - 2
            while offset >= 0, bytes[window + offset] == pattern[offset] { offset -= 1 }
            if offset < 0 { return true }
          }
          window += shift[Int(tail)]
        }
        return false
      }
    }
  }

  /// True when `bytes` starts with `YYYY-MM-DD HH:MM:SS.` and a digit: the start of an entry in
  /// the default, compact and syslog styles.
  static func startsWithTimestamp(_ bytes: Bytes) -> Bool {
    guard bytes.count >= timestampPattern.count, isDigit(bytes[0]) else { return false }
    for (index, expected) in timestampPattern.enumerated() {
      let byte = bytes[index]
      if expected == UInt8(ascii: "d") {
        guard isDigit(byte) else { return false }
      } else if byte != expected {
        return false
      }
    }
    return true
  }

  private static let timestampPattern = Array("dddd-dd-dd dd:dd:dd.d".utf8)

  /// True when `bytes` starts like a row that Console.app copies: a type word in the language of
  /// the Mac that copied it (`default`, `Fehler`, `默认`, `Par défaut`: up to 48 bytes, no tab,
  /// not starting with a digit or a blank), a TAB, then a time (`HH:MM:SS` or `YYYY-MM-DD
  /// HH:MM:SS`). The layout is what is recognized, never the words.
  static func startsWithConsoleType(_ bytes: Bytes) -> Bool {
    guard let tab = firstIndex(of: 0x09, in: bytes, limit: 49), tab >= 1 else { return false }
    let first = bytes[0]
    guard !isDigit(first), !isBlank(first), first >= 0x20 else { return false }
    for index in 0..<tab where bytes[index] < 0x20 { return false }
    let time = tab + 1
    func matches(_ pattern: [UInt8], at start: Int) -> Bool {
      guard bytes.count >= start + pattern.count else { return false }
      for (offset, expected) in pattern.enumerated() {
        let byte = bytes[start + offset]
        if expected == UInt8(ascii: "d") {
          guard isDigit(byte) else { return false }
        } else if byte != expected {
          return false
        }
      }
      return true
    }
    return matches(clockPattern, at: time) || matches(datePattern, at: time)
  }

  private static let clockPattern = Array("dd:dd:dd".utf8)
  private static let datePattern = Array("dddd-dd-dd dd:dd:dd".utf8)

  /// True when `bytes` contains `itto` (Ditto's process, `io.kern.ditto`): an entry start that
  /// may be Ditto's, kept in case its message wraps onto the next line.
  static func mayBeDittos(_ bytes: Bytes) -> Bool {
    guard bytes.count >= 4 else { return false }
    var index = 0
    while index + 3 < bytes.count {
      if bytes[index + 1] == 0x74, bytes[index + 2] == 0x74, bytes[index] == 0x69,
        bytes[index + 3] == 0x6F
      {
        return true
      }
      index += 1
    }
    return false
  }

  /// True when `bytes` starts with a `log show` text entry or a Console row.
  static func startsEntry(_ bytes: Bytes) -> Bool {
    startsWithTimestamp(bytes) || startsWithConsoleType(bytes)
  }

  /// `bytes` without trailing `\r`, spaces and tabs.
  static func trimmingTrailingBlanks(_ bytes: Bytes) -> Bytes {
    var end = bytes.count
    while end > 0, isBlank(bytes[end - 1]) || bytes[end - 1] == 0x0D { end -= 1 }
    return Bytes(rebasing: bytes[0..<end])
  }

  /// The index of the first byte that is not a space or tab, or `bytes.count`.
  static func firstNonBlank(_ bytes: Bytes) -> Int {
    var index = 0
    while index < bytes.count, isBlank(bytes[index]) { index += 1 }
    return index
  }

  /// True when `bytes`, from `start`, begin with the word `migration_outcome` followed by a
  /// blank or the end.
  static func startsWithTagWord(_ bytes: Bytes, at start: Int) -> Bool {
    let end = start + needle.count
    guard end <= bytes.count else { return false }
    for (offset, byte) in needle.enumerated() where bytes[start + offset] != byte { return false }
    return end == bytes.count || isBlank(bytes[end])
  }

  /// True when `bytes` start with `prefix`.
  static func hasPrefix(_ bytes: Bytes, _ prefix: String) -> Bool {
    let utf8 = Array(prefix.utf8)
    guard bytes.count >= utf8.count else { return false }
    for (index, byte) in utf8.enumerated() where bytes[index] != byte { return false }
    return true
  }

  /// The index of the first `byte` in the first `limit` bytes, or nil.
  static func firstIndex(of byte: UInt8, in bytes: Bytes, limit: Int) -> Int? {
    for index in 0..<min(limit, bytes.count) where bytes[index] == byte { return index }
    return nil
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// The line breaks in `range` of `bytes`.
  static func newlines(in bytes: Bytes, _ range: Range<Int>) -> Int {
    var count = 0
    for index in range where bytes[index] == 0x0A { count += 1 }
    return count
  }
}
