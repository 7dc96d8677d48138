/// A JSON value with object keys kept sorted on output, written by this module (no Foundation encoder:
/// its output differs between platforms, and we need streaming for large exports).
public indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(nilLiteral: ()) { self = .null }

  /// A string, or `null` when nil.
  public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  /// An integer from any integer type.
  public static func number<Number: BinaryInteger>(_ value: Number) -> JSONValue {
    .int(Int64(value))
  }

  /// The value as indented text (two spaces), keys sorted, ending without a newline.
  public func rendered(indent: Int = 0) -> String {
    var output = ""
    render(into: &output, indent: indent)
    return output
  }

  func render(into output: inout String, indent: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .int(let number): output += String(number)
    case .double(let number):
      output += number.isFinite ? String(number) : "null"
    case .string(let text): JSONText.appendQuoted(text, to: &output)
    case .array(let items):
      guard !items.isEmpty else {
        output += "[]"
        return
      }
      output += "[\n"
      for (index, item) in items.enumerated() {
        output += JSONText.spaces(indent + 2)
        item.render(into: &output, indent: indent + 2)
        output += index == items.count - 1 ? "\n" : ",\n"
      }
      output += JSONText.spaces(indent) + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      let keys = members.keys.sorted()
      for (index, key) in keys.enumerated() {
        output += JSONText.spaces(indent + 2)
        JSONText.appendQuoted(key, to: &output)
        output += ": "
        members[key, default: .null].render(into: &output, indent: indent + 2)
        output += index == keys.count - 1 ? "\n" : ",\n"
      }
      output += JSONText.spaces(indent) + "}"
    }
  }
}

/// JSON text helpers shared by the value renderer and the streaming export writer.
public enum JSONText {
  /// Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped,
  /// everything else as UTF-8.
  public static func appendQuoted(_ text: String, to output: inout String) {
    output += "\""
    // Fast path: nothing to escape (no quote, backslash, control character or U+2028/2029).
    let needsEscaping = text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }
    guard needsEscaping else {
      output += text
      output += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// Appends `text` as a JSON string literal, as UTF-8 bytes.
  public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    var text = text
    text.withUTF8 { appendQuoted(utf8: $0, to: &output) }
  }

  /// Appends UTF-8 `bytes` as a JSON string literal: quotes, backslashes and control characters
  /// escaped (U+2028 and U+2029 too), everything else copied.
  public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8])
  {
    output.append(UInt8(ascii: "\""))
    var start = 0
    var index = 0
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    func flush(_ end: Int) {
      if end > start {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      var escape: [UInt8]?
      var width = 1
      switch byte {
      case 0x22: escape = Array("\\\"".utf8)
      case 0x5C: escape = Array("\\\\".utf8)
      case 0x0A: escape = Array("\\n".utf8)
      case 0x0D: escape = Array("\\r".utf8)
      case 0x09: escape = Array("\\t".utf8)
      case 0x08: escape = Array("\\b".utf8)
      case 0x0C: escape = Array("\\f".utf8)
      case 0x00..<0x20:
        escape = Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      case 0xE2
      where index + 2 < bytes.count && bytes[index + 1] == 0x80
        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
        escape = Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
        width = 3
      default: break
      }
      if let escape {
        flush(index)
        output.append(contentsOf: escape)
        index += width
        start = index
      } else {
        index += 1
      }
    }
    flush(index)
    output.append(UInt8(ascii: "\""))
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var output = ""
    appendQuoted(text, to: &output)
    return output
  }

  static func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
}
