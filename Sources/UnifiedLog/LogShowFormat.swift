import CivilCalendar
import JSONOutput

/// Entries printed as `log show` prints them: the default style and `--style ndjson`.
package enum LogShowFormat {
  /// The default style's column header (with its two trailing spaces).
  package static let header =
    "Timestamp                       Thread     Type        Activity             PID    TTL  "

  /// `2022-05-30 00:38:21.053672+0000`: the wall clock in the zone `offsetMinutes` east of UTC,
  /// microseconds truncated (as `log show` prints them).
  package static func timestamp(_ nanoseconds: Int64, offsetMinutes: Int = 0) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    appendTimestamp(nanoseconds, offsetMinutes: offsetMinutes, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``timestamp(_:offsetMinutes:)`` appended to `bytes` digit by digit (no `String` made).
  static func appendTimestamp(_ nanoseconds: Int64, offsetMinutes: Int = 0, to bytes: inout [UInt8])
  {
    var run = InlineRun()
    run.write(InlineRun.capacity) {
      writeTimestamp(nanoseconds, offsetMinutes: offsetMinutes, into: $0)
    }
    run.move(to: &bytes)
  }

  /// ``timestamp(_:offsetMinutes:)`` written at the start of `buffer` (at least 48 bytes);
  /// returns how many bytes were written.
  static func writeTimestamp(
    _ nanoseconds: Int64, offsetMinutes: Int = 0, into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    let local = nanoseconds + Int64(offsetMinutes) * 60_000_000_000
    let seconds = local >= 0 ? local / 1_000_000_000 : (local - 999_999_999) / 1_000_000_000
    let micro = (local - seconds * 1_000_000_000) / 1000
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = CivilDate.date(fromDays: days)
    var at = 0
    func byte(_ value: UInt8) {
      buffer[at] = value
      at += 1
    }
    /// `value` in at least `width` digits.
    func digits(_ value: Int64, _ width: Int) {
      if value < 0 { byte(UInt8(ascii: "-")) }
      at += JSONBytes.writeDecimal(
        value.magnitude, minimumDigits: width,
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[at...]))
    }
    digits(Int64(year), 1)
    byte(UInt8(ascii: "-"))
    digits(Int64(month), 2)
    byte(UInt8(ascii: "-"))
    digits(Int64(day), 2)
    byte(UInt8(ascii: " "))
    digits(secondOfDay / 3600, 2)
    byte(UInt8(ascii: ":"))
    digits(secondOfDay / 60 % 60, 2)
    byte(UInt8(ascii: ":"))
    digits(secondOfDay % 60, 2)
    byte(UInt8(ascii: "."))
    digits(micro, 6)
    byte(UInt8(ascii: offsetMinutes < 0 ? "-" : "+"))
    let offset = Int64(abs(offsetMinutes))
    digits(offset / 60, 2)
    digits(offset % 60, 2)
    return at
  }

  /// The message, or, when the format string is not in the archive, what the entry carries.
  package static func message(_ entry: UnifiedLogEntry) -> String {
    if let message = entry.eventMessage { return message }
    let parts = entry.arguments.map { argument -> String in
      switch argument {
      case .string(let text, _): return text
      case .scalar(let value, _, _), .precision(let value, _): return String(value)
      case .privateValue: return "<private>"
      case .bytes(let bytes, _): return bytes.map { LogUUID.hex($0) }.joined()
      case .unknown(let type, _): return "<value type 0x\(String(type, radix: 16))>"
      case .outOfRange: return "<decode: data out of range>"
      }
    }
    return parts.joined(separator: " ")
  }

  /// One line of the default style.
  package static func line(_ entry: UnifiedLogEntry) -> String {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    let type: String =
      switch entry.eventType {
      case "logEvent": entry.messageType ?? "Default"
      case "activityCreateEvent": "Activity"
      case "signpostEvent": "Signpost"
      case "stateEvent": "State"
      case "lossEvent": "Loss"
      default: entry.messageType ?? entry.eventType
      }
    var text = timestamp(entry.timestampNanoseconds) + " "
    text += pad("0x" + String(entry.threadID, radix: 16), 10) + " "
    text += pad(type, 11) + " "
    text += pad("0x" + String(entry.activityIdentifier, radix: 16), 20) + " "
    text += pad(String(entry.processID), 6) + " "
    text += pad(String(entry.ttl), 4) + " "
    let process = entry.processName ?? "<unknown>"
    text += process + ": "
    if let sender = entry.senderImagePath?.split(separator: "/").last.map(String.init),
      sender != process
    {
      text += "(\(sender)) "
    }
    if let subsystem = entry.subsystem {
      text += "[\(subsystem):\(entry.category ?? "")] "
    }
    return text + message(entry)
  }

  /// One `--style ndjson` object (Apple's key names), plus `args` when the message could not be
  /// composed, and `file` (where the entry came from).
  package static func ndjson(_ entry: UnifiedLogEntry) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(768)
    appendNDJSON(entry, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``ndjson(_:)``'s object appended to `bytes` as UTF-8 (no line break), no `String` made.
  package static func appendNDJSON(_ entry: UnifiedLogEntry, to bytes: inout [UInt8]) {
    var out = JSONBytes()
    swap(&out.bytes, &bytes)
    defer { swap(&out.bytes, &bytes) }
    out.raw("{\"timestamp\":\"")
    out.timestamp(entry.timestampNanoseconds)
    out.raw("\",\"timestampNs\":")
    out.number(entry.timestampNanoseconds)
    out.raw(",\"machTimestamp\":")
    out.number(entry.machTimestamp)
    out.raw(",\"eventType\":")
    out.string(entry.eventType)
    out.raw(",\"messageType\":")
    out.string(entry.messageType)
    out.raw(",\"processID\":")
    out.number(entry.processID)
    out.raw(",\"threadID\":")
    out.number(entry.threadID)
    out.raw(",\"activityIdentifier\":")
    out.number(entry.activityIdentifier)
    out.raw(",\"subsystem\":")
    out.string(entry.subsystem)
    out.raw(",\"category\":")
    out.string(entry.category)
    out.raw(",\"formatString\":")
    out.string(entry.formatString)
    out.raw(",\"eventMessage\":")
    out.string(entry.eventMessage)
    if entry.eventMessage == nil {
      out.raw(",\"args\":[")
      for (index, argument) in entry.arguments.enumerated() {
        if index > 0 { out.raw(",") }
        switch argument {
        case .string(let text, let type):
          out.raw("{\"type\":\"string\",\"vt\":")
          out.number(UInt64(type))
          out.raw(",\"value\":")
          out.string(text)
        case .scalar(let value, let size, let type):
          out.raw("{\"type\":\"scalar\",\"vt\":")
          out.number(UInt64(type))
          out.raw(",\"size\":")
          out.number(UInt64(size))
          out.raw(",\"value\":")
          out.number(value)
        case .precision(let value, let type):
          out.raw("{\"type\":\"precision\",\"vt\":")
          out.number(UInt64(type))
          out.raw(",\"value\":")
          out.number(value)
        case .privateValue(let type):
          out.raw("{\"type\":\"private\",\"vt\":")
          out.number(UInt64(type))
        case .bytes(let bytes, let type):
          out.raw("{\"type\":\"bytes\",\"vt\":")
          out.number(UInt64(type))
          out.raw(",\"value\":\"")
          out.hex(bytes)
          out.raw("\"")
        case .unknown(let type, let size):
          out.raw("{\"type\":\"unknown\",\"vt\":")
          out.number(UInt64(type))
          out.raw(",\"size\":")
          out.number(UInt64(size))
        case .outOfRange(let type):
          out.raw("{\"type\":\"unreadable\",\"vt\":")
          out.number(UInt64(type))
        }
        out.raw("}")
      }
      out.raw("]")
    }
    out.raw(",\"processImagePath\":")
    out.string(entry.processImagePath)
    out.raw(",\"processImageUUID\":")
    out.uuid(entry.processImageUUID)
    out.raw(",\"senderImagePath\":")
    out.string(entry.senderImagePath)
    out.raw(",\"senderImageUUID\":")
    out.uuid(entry.senderImageUUID)
    out.raw(",\"senderProgramCounter\":")
    out.number(entry.senderProgramCounter)
    out.raw(",\"traceID\":")
    out.number(entry.traceID)
    out.raw(",\"ttl\":")
    out.number(UInt64(entry.ttl))
    out.raw(",\"bootUUID\":")
    out.uuid(entry.bootUUID)
    out.raw(",\"file\":")
    out.string(entry.file)
    out.raw("}")
    out.finish()
  }

}

/// JSON text built as bytes (the hot path of `logs --json`). Most of an ndjson line needs no
/// escaping (field names, numbers, UUIDs, the timestamp): those pieces are gathered on the stack
/// and appended in one piece before each string and at the end (one `append` per run costs less
/// than one per piece).
struct JSONBytes {
  var bytes: [UInt8] = []
  private var run = InlineRun()

  init() {}

  /// Appends what is gathered (call once the line is written).
  mutating func finish() { run.move(to: &bytes) }

  /// A UUID as a JSON string (`null` when nil), written digit by digit.
  mutating func uuid(_ value: LogUUID?) {
    guard let value else {
      raw("null")
      return
    }
    write(38) { buffer in
      buffer[0] = UInt8(ascii: "\"")
      let count = value.writeHex(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1...]))
      buffer[count + 1] = UInt8(ascii: "\"")
      return count + 2
    }
  }

  mutating func raw(_ literal: StaticString) {
    let count = literal.utf8CodeUnitCount
    write(count) { buffer in
      buffer.baseAddress!.copyMemory(from: literal.utf8Start, byteCount: count)
      return count
    }
  }

  mutating func number(_ value: UInt64) {
    write(20) { Self.writeDecimal(value, minimumDigits: 1, into: $0) }
  }

  mutating func number(_ value: Int64) {
    if value < 0 {
      raw("-")
      number(value.magnitude)
    } else {
      number(UInt64(value))
    }
  }

  /// Writes at most `length` bytes (what `body` returns it wrote) after what is gathered.
  private mutating func write(_ length: Int, _ body: (UnsafeMutableRawBufferPointer) -> Int) {
    if !run.hasRoom(length) { run.move(to: &bytes) }
    run.write(length, body)
  }

  /// `value` in decimal, in at least `minimumDigits` digits (zeros in front), appended in one
  /// piece.
  static func appendDecimal(_ value: UInt64, minimumDigits: Int, to bytes: inout [UInt8]) {
    var run = InlineRun()
    run.write(InlineRun.capacity) { writeDecimal(value, minimumDigits: minimumDigits, into: $0) }
    run.move(to: &bytes)
  }

  /// `value` in decimal, in at least `minimumDigits` digits (zeros in front, at most as many as
  /// `buffer` holds), at the start of `buffer`; returns how many bytes were written.
  static func writeDecimal(
    _ value: UInt64, minimumDigits: Int, into buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    var digits = 0
    var rest = value
    repeat {
      digits += 1
      rest /= 10
    } while rest > 0
    let count = min(max(digits, minimumDigits), buffer.count)
    rest = value
    var at = count
    while at > 0 {
      at -= 1
      buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    return count
  }

  mutating func string(_ value: String?) {
    guard let value else {
      raw("null")
      return
    }
    run.move(to: &bytes)
    JSONEscaping.appendQuoted(value, to: &bytes)
  }

  private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  mutating func hex(_ values: [UInt8]) {
    run.move(to: &bytes)
    for value in values {
      bytes.append(Self.digits[Int(value >> 4)])
      bytes.append(Self.digits[Int(value & 15)])
    }
  }

  /// `2022-05-30 00:38:21.053672+0000` (UTC).
  mutating func timestamp(_ nanoseconds: Int64) {
    write(48) { LogShowFormat.writeTimestamp(nanoseconds, into: $0) }
  }
}

/// Up to 256 bytes gathered on the stack.
struct InlineRun {
  static let capacity = 256
  private var storage:
    (
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
  private var count = 0

  func hasRoom(_ length: Int) -> Bool { count + length <= Self.capacity }

  /// Lets `body` write at most `length` bytes (no more than there is room for) after what is
  /// there; it returns how many it wrote.
  mutating func write(_ length: Int, _ body: (UnsafeMutableRawBufferPointer) -> Int) {
    let start = count
    let written = withUnsafeMutableBytes(of: &storage) { all in
      body(UnsafeMutableRawBufferPointer(rebasing: all[start..<min(start + length, Self.capacity)]))
    }
    count = start + written
  }

  /// Appends what is gathered to `bytes`, and starts again.
  mutating func move(to bytes: inout [UInt8]) {
    guard count > 0 else { return }
    let used = count
    withUnsafeBytes(of: &storage) { bytes.append(contentsOf: $0[..<used]) }
    count = 0
  }
}
