/// A JSON value with object keys kept sorted on output, written by this module (no Foundation encoder:
/// its output differs between platforms, and we need streaming for large exports).
package indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int64) { self = .int(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(nilLiteral: ()) { self = .null }

  /// A string, or `null` when nil.
  package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  /// An integer from any integer type.
  package static func number<Number: BinaryInteger>(_ value: Number) -> JSONValue {
    .int(Int64(value))
  }

  /// This value with every string (never a key) given by `transform`.
  package func mappingStrings(_ transform: (String) -> String) -> JSONValue {
    switch self {
    case .string(let text): .string(transform(text))
    case .array(let values): .array(values.map { $0.mappingStrings(transform) })
    case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
    case .null, .bool, .int, .double: self
    }
  }

  /// How a value is written.
  package enum Style: Sendable, Equatable {
    /// Indented by two spaces, strings in the standard style: the commands' `--json`.
    case indented
    /// On one line, no spaces, strings as `JSONSerialization` writes them (`/` as `\/`): the
    /// byte-for-byte form of `outcomes --json`.
    case compactFoundation
  }

  /// The value as indented text (two spaces), keys sorted, ending without a newline.
  package func rendered(indent: Int = 0) -> String {
    var output = ""
    render(into: &output, indent: indent)
    return output
  }

  /// The value in `style`, keys sorted, ending without a newline.
  package func rendered(_ style: Style) -> String {
    switch style {
    case .indented: return rendered()
    case .compactFoundation:
      var output = ""
      renderCompact(into: &output)
      return output
    }
  }

  private func renderCompact(into output: inout String) {
    switch self {
    case .string(let text): output += JSONEscaping.quoted(text, style: .foundation)
    case .array(let items):
      output += "["
      for (index, item) in items.enumerated() {
        if index > 0 { output += "," }
        item.renderCompact(into: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        output += JSONEscaping.quoted(key, style: .foundation) + ":"
        members[key, default: .null].renderCompact(into: &output)
      }
      output += "}"
    case .null, .bool, .int, .double: render(into: &output, indent: 0)
    }
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
package enum JSONText {
  /// Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped,
  /// everything else as UTF-8 (the package's one escaper, `JSONEscaping`, standard style).
  package static func appendQuoted(_ text: String, to output: inout String) {
    output += JSONEscaping.quoted(text)
  }

  /// Appends `text` as a JSON string literal, as UTF-8 bytes.
  package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    JSONEscaping.appendQuoted(text, to: &output)
  }

  /// Appends UTF-8 `bytes` as a JSON string literal: quotes, backslashes and control characters
  /// escaped (U+2028 and U+2029 too), everything else copied.
  package static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8])
  {
    JSONEscaping.appendQuoted(utf8: bytes, to: &output)
  }

  /// `text` as a JSON string literal.
  package static func quoted(_ text: String) -> String {
    var output = ""
    appendQuoted(text, to: &output)
    return output
  }

  static func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
}
