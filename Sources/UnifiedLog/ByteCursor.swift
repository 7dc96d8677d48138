/// Why a unified-log file could not be read (further): named with the file and, where it helps, the
/// offset.
package struct UnifiedLogProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of problem, as a stable word (`truncated`, `unknown_compression`, …).
  package var code: String
  /// The file (relative to the archive) it is about.
  package var file: String
  /// What was wrong, in words.
  package var reason: String

  package init(code: String, file: String, reason: String) {
    self.code = code
    self.file = file
    self.reason = reason
  }

  package var description: String { "\(file): \(reason)" }

  /// False for what happens in whole, undamaged archives (an oversize chunk that was in a file
  /// rotated out, strings files left out to bound memory): named, but not damage.
  package var isDamage: Bool { !["missing_oversize", "strings_not_loaded"].contains(code) }
}

/// A failure inside one structure; the caller names the file.
struct FormatError: Error {
  var code: String
  var reason: String

  static func truncated(_ what: String) -> FormatError {
    FormatError(code: "truncated", reason: "\(what) is cut short")
  }
}

/// Little-endian reads over bytes, every read bounds-checked.
struct ByteCursor {
  let bytes: [UInt8]
  let end: Int
  var offset: Int

  init(_ bytes: [UInt8], from start: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.offset = start
    self.end = min(end ?? bytes.count, bytes.count)
  }

  var remaining: Int { max(0, end - offset) }

  mutating func need(_ count: Int, _ what: String) throws(FormatError) {
    guard count >= 0, offset <= end, count <= end - offset else { throw .truncated(what) }
  }

  mutating func u8(_ what: String = "a value") throws(FormatError) -> UInt8 {
    try need(1, what)
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func u16(_ what: String = "a value") throws(FormatError) -> UInt16 {
    try need(2, what)
    defer { offset += 2 }
    return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  mutating func u32(_ what: String = "a value") throws(FormatError) -> UInt32 {
    try need(4, what)
    defer { offset += 4 }
    return Self.u32(bytes, offset)
  }

  mutating func u64(_ what: String = "a value") throws(FormatError) -> UInt64 {
    try need(8, what)
    defer { offset += 8 }
    return UInt64(Self.u32(bytes, offset)) | UInt64(Self.u32(bytes, offset + 4)) << 32
  }

  mutating func take(_ count: Int, _ what: String = "a value") throws(FormatError) -> ArraySlice<
    UInt8
  > {
    try need(count, what)
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  mutating func skip(_ count: Int, _ what: String = "a value") throws(FormatError) {
    try need(count, what)
    offset += count
  }

  mutating func uuid(_ what: String = "a UUID") throws(FormatError) -> LogUUID {
    LogUUID(try take(16, what))
  }

  /// Moves to the next multiple of 8 (or the end).
  mutating func alignTo8() { offset = min(end, (offset + 7) & ~7) }

  static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
      | UInt32(bytes[at + 3]) << 24
  }

  /// The UTF-8 string up to the first NUL (or the end) of `slice`; invalid bytes are replaced.
  static func cString(_ slice: ArraySlice<UInt8>) -> String {
    let stop = slice.firstIndex(of: 0) ?? slice.endIndex
    return slice[slice.startIndex..<stop].withUnsafeBufferPointer {
      String(decoding: $0, as: UTF8.self)
    }
  }
}

/// A UUID as the log files store it (big-endian bytes), printed as `log` prints it.
package struct LogUUID: Hashable, Sendable, CustomStringConvertible {
  /// The first and last 8 bytes, big-endian.
  package var high: UInt64
  package var low: UInt64

  package init(_ bytes: some Collection<UInt8>) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    for (index, byte) in bytes.prefix(16).enumerated() {
      if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
    }
    self.high = high
    self.low = low
  }

  /// The 16 bytes, in order.
  package var bytes: [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
  }

  private static let digits: [UInt8] = Array("0123456789ABCDEF".utf8)

  private func hexDigits(dashes: Bool) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(36)
    appendHex(to: &text, dashes: dashes)
    return String(decoding: text, as: UTF8.self)
  }

  /// The 32 upper-case hex digits (with `log`'s dashes when `dashes`) appended to `text`, no
  /// `String` made (the hot path of `logs --json`).
  package func appendHex(to text: inout [UInt8], dashes: Bool = true) {
    var run = InlineRun()
    run.write(36) { writeHex(into: $0, dashes: dashes) }
    run.move(to: &text)
  }

  /// The hex digits (see ``appendHex(to:dashes:)``) at the start of `buffer` (at least 36
  /// bytes); returns how many bytes were written.
  func writeHex(into buffer: UnsafeMutableRawBufferPointer, dashes: Bool = true) -> Int {
    Self.digits.withUnsafeBufferPointer { digits in
      var at = 0
      for index in 0..<16 {
        if dashes, index == 4 || index == 6 || index == 8 || index == 10 {
          buffer[at] = UInt8(ascii: "-")
          at += 1
        }
        let word = index < 8 ? high : low
        let byte = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(index % 8)))
        buffer[at] = digits[Int(byte >> 4)]
        buffer[at + 1] = digits[Int(byte & 15)]
        at += 2
      }
      return at
    }
  }

  /// `A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19`.
  package var description: String { hexDigits(dashes: true) }

  /// 32 upper-case hex digits, as the uuidtext and dsc files are named.
  package var fileName: String { hexDigits(dashes: false) }

  package var isZero: Bool { high == 0 && low == 0 }

  static func hex(_ byte: UInt8) -> String {
    String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
  }
}
