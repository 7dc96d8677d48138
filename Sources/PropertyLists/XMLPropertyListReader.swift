import CivilCalendar
import Foundation

// XML PROPERTY LIST (Apple's PropertyList-1.0 DTD; read here without an XML library)
//
//   <?xml version="1.0" encoding="UTF-8"?>                       declaration, optional
//   <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "…">    optional; comments anywhere
//   <plist version="1.0">                                         optional: a bare value is read too
//     <dict> <key>k</key> VALUE … </dict>                         <dict/> for an empty one
//     <array> VALUE … </array>
//     <string>text</string>   <integer>-12</integer> (or 0x…)    <real>1.5</real> (nan, inf too)
//     <true/> <false/>        <date>2001-01-01T00:00:00Z</date>  <data>BASE64</data>
//   </plist>
//
// Text is UTF-8 (a UTF-8 BOM is skipped; UTF-16 with a BOM is converted first). Entities: &lt; &gt;
// &amp; &quot; &apos; and &#N; / &#xN;. CDATA sections are text. Text is kept as written, CR LF
// included (as Core Foundation's reader keeps it). Base64 is decoded as Core Foundation decodes it:
// characters outside the alphabet are skipped, every four characters give three bytes less one per
// `=`, an incomplete last group gives nothing. A key given twice (the same UTF-16 code units; keys
// that differ only by normalization are two) keeps its last value, in its first place. Whatever
// follows the property list's end is ignored (as Core Foundation ignores it). A UID is the
// dictionary {CF$UID: n} with n in 0…2³²−1, read as a UID (as Core Foundation reads it). Nesting is
// bounded; anything else is a named error.

/// Decodes an XML property list.
struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private var position = 0
  /// Values decoded so far (every element counts): bounded as a binary list's expansion is.
  private var values = 0

  /// A reader of `bytes` (UTF-8, BOM removed).
  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The one value the document holds.
  mutating func decode() throws(PropertyListError) -> PropertyListValue {
    try skipMisc()
    var tag = try startTag()
    let isWrapped = tag.name == "plist"
    if isWrapped {
      guard !tag.isEmpty else {
        throw PropertyListError(.malformed, "the <plist> element holds no value")
      }
      try skipMisc()
      tag = try startTag()
    }
    let value = try self.value(tag, depth: 0)
    if isWrapped {
      try skipMisc()
      try endTag("plist")
    }
    return value
  }

  // MARK: - Values

  private mutating func value(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListValue
  {
    guard depth <= PropertyListReader.maximumDepth else {
      throw PropertyListError(
        .tooDeep, "containers are nested deeper than \(PropertyListReader.maximumDepth)")
    }
    values += 1
    guard values <= PropertyListReader.maximumValues else {
      throw PropertyListError(
        .tooLarge, "the property list holds more than \(PropertyListReader.maximumValues) values")
    }
    switch tag.name {
    case "dict":
      var entries = PropertyListDictionary()
      if tag.isEmpty { return .dictionary(entries) }
      while true {
        try skipMisc()
        if try atEndTag("dict") { return Self.dictionaryOrUID(entries) }
        let keyTag = try startTag()
        guard keyTag.name == "key" else {
          throw PropertyListError(
            .malformed, "a <\(keyTag.name)> where a <key> was expected at byte \(position)")
        }
        let key = try text(of: keyTag)
        try skipMisc()
        let valueTag = try startTag()
        entries[key] = try value(valueTag, depth: depth + 1)
      }
    case "array":
      var elements: [PropertyListValue] = []
      if tag.isEmpty { return .array(elements) }
      while true {
        try skipMisc()
        if try atEndTag("array") { return .array(elements) }
        elements.append(try value(try startTag(), depth: depth + 1))
      }
    case "string":
      return .string(try text(of: tag))
    case "integer":
      let text = try self.text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      if let value = Self.integer(text) { return .integer(value) }
      // Above Int64.max and up to UInt64.max: unsigned, as the binary reader and the writer have it.
      if let value = Self.unsignedInteger(text) { return .unsignedInteger(value) }
      throw PropertyListError(.malformed, "an <integer> that is not a 64-bit integer")
    case "real":
      let text = try self.text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let value = Self.real(text) else {
        throw PropertyListError(.malformed, "a <real> that is not a number")
      }
      return .real(value)
    case "true", "false":
      if !tag.isEmpty {
        try skipWhitespace()
        try endTag(tag.name)
      }
      return .bool(tag.name == "true")
    case "date":
      let text = try self.text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let date = ISO8601Time.date(from: text) else {
        throw PropertyListError(.malformed, "a <date> that is not YYYY-MM-DDTHH:MM:SSZ")
      }
      return .date(date)
    case "data":
      return .data(Base64.decode(try self.text(of: tag)))
    case "key":
      throw PropertyListError(.malformed, "a <key> outside a <dict> at byte \(position)")
    default:
      throw PropertyListError(.malformed, "an unknown element <\(tag.name)> at byte \(position)")
    }
  }

  /// `{CF$UID: n}` is a keyed-archive UID, as Core Foundation reads it; any other dictionary is one.
  static func dictionaryOrUID(_ entries: PropertyListDictionary) -> PropertyListValue {
    if entries.count == 1, case .integer(let index) = entries["CF$UID"], index >= 0,
      index <= Int64(UInt32.max)
    {
      return .uid(UInt32(index))
    }
    return .dictionary(entries)
  }

  /// A non-negative integer that fits 64 unsigned bits (decimal, or hex after `0x`).
  static func unsignedInteger(_ text: String) -> UInt64? {
    var digits = Substring(text)
    if digits.first == "+" { digits = digits.dropFirst() }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty else { return nil }
    return UInt64(digits, radix: radix)
  }

  static func integer(_ text: String) -> Int64? {
    var digits = Substring(text)
    var negative = false
    if digits.first == "-" || digits.first == "+" {
      negative = digits.first == "-"
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }

  static func real(_ text: String) -> Double? {
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      guard !text.isEmpty, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
      return Double(text)
    }
  }

  // MARK: - Markup

  /// A start tag: its name, and whether it closed itself (`<dict/>`).
  struct Tag {
    var name: String
    var isEmpty: Bool
  }

  private mutating func startTag() throws(PropertyListError) -> Tag {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
      throw PropertyListError(.malformed, "an element was expected at byte \(position)")
    }
    position += 1
    let name = try self.name()
    // Attributes (version="1.0") are skipped up to the first '>', as Core Foundation skips them.
    guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else {
      throw PropertyListError(.truncated, "the element <\(name)> is not closed")
    }
    position = end + 1
    return Tag(name: name, isEmpty: bytes[end - 1] == UInt8(ascii: "/"))
  }

  private mutating func name() throws(PropertyListError) -> String {
    let start = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    guard position > start else {
      throw PropertyListError(.malformed, "an element name was expected at byte \(start)")
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
  }

  private mutating func endTag(_ name: String) throws(PropertyListError) {
    guard try atEndTag(name) else {
      throw PropertyListError(.malformed, "</\(name)> was expected at byte \(position)")
    }
  }

  /// Consumes `</name>` when it comes next.
  private mutating func atEndTag(_ name: String) throws(PropertyListError) -> Bool {
    let closing = Array("</\(name)".utf8)
    guard position + closing.count <= bytes.count,
      bytes[position..<(position + closing.count)].elementsEqual(closing)
    else { return false }
    var cursor = position + closing.count
    while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else {
      guard cursor < bytes.count, Self.isNameByte(bytes[cursor]) else {
        throw PropertyListError(.truncated, "</\(name)> is not closed")
      }
      return false
    }
    position = cursor + 1
    return true
  }

  /// The text content of `tag` up to its end tag: entities decoded, CDATA kept, comments
  /// dropped, line ends normalized.
  private mutating func text(of tag: Tag) throws(PropertyListError) -> String {
    if tag.isEmpty { return "" }
    var text: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "<") {
        if hasPrefix("<![CDATA[") {
          guard let end = find("]]>", from: position + 9) else {
            throw PropertyListError(.truncated, "a CDATA section is not closed")
          }
          text += bytes[(position + 9)..<end]
          position = end + 3
          continue
        }
        if hasPrefix("<!--") {
          try skipComment()
          continue
        }
        try endTag(tag.name)
        return try Self.string(text)
      }
      if byte == UInt8(ascii: "&") {
        text += try entity()
        continue
      }
      text.append(byte)
      position += 1
    }
    throw PropertyListError(.truncated, "<\(tag.name)> is not closed")
  }

  private mutating func entity() throws(PropertyListError) -> [UInt8] {
    guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
      throw PropertyListError(.malformed, "an '&' that starts no entity at byte \(position)")
    }
    let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    position = end + 1
    switch name {
    case "lt": return Array("<".utf8)
    case "gt": return Array(">".utf8)
    case "amp": return Array("&".utf8)
    case "quot": return Array("\"".utf8)
    case "apos": return Array("'".utf8)
    default:
      var digits = Substring(name)
      guard digits.first == "#" else {
        throw PropertyListError(.malformed, "the unknown entity &\(name);")
      }
      digits = digits.dropFirst()
      var radix = 10
      if digits.first == "x" || digits.first == "X" {
        radix = 16
        digits = digits.dropFirst()
      }
      guard let code = UInt32(digits, radix: radix), code != 0, let scalar = Unicode.Scalar(code)
      else {
        throw PropertyListError(.malformed, "the character reference &\(name); is not a character")
      }
      return Array(String(Character(scalar)).utf8)
    }
  }

  /// Skips whitespace, comments, the XML declaration, processing instructions and the DOCTYPE.
  private mutating func skipMisc() throws(PropertyListError) {
    while true {
      try skipWhitespace()
      if hasPrefix("<!--") {
        try skipComment()
      } else if hasPrefix("<?") {
        guard let end = find("?>", from: position + 2) else {
          throw PropertyListError(.truncated, "a processing instruction is not closed")
        }
        position = end + 2
      } else if hasPrefix("<!DOCTYPE") {
        try skipDoctype()
      } else {
        return
      }
    }
  }

  private mutating func skipWhitespace() throws(PropertyListError) {
    while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
  }

  private mutating func skipComment() throws(PropertyListError) {
    guard let end = find("-->", from: position + 4) else {
      throw PropertyListError(.truncated, "a comment is not closed")
    }
    position = end + 3
  }

  /// `<!DOCTYPE …>`, with an internal subset in brackets if there is one.
  private mutating func skipDoctype() throws(PropertyListError) {
    var depth = 0
    var cursor = position
    while cursor < bytes.count {
      switch bytes[cursor] {
      case UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ">") where depth <= 0:
        position = cursor + 1
        return
      default: break
      }
      cursor += 1
    }
    throw PropertyListError(.truncated, "the DOCTYPE is not closed")
  }

  private func hasPrefix(_ prefix: String) -> Bool {
    let marker = Array(prefix.utf8)
    return position + marker.count <= bytes.count
      && bytes[position..<(position + marker.count)].elementsEqual(marker)
  }

  private func find(_ marker: String, from start: Int) -> Int? {
    let needle = Array(marker.utf8)
    guard start <= bytes.count, needle.count <= bytes.count else { return nil }
    var cursor = start
    while cursor + needle.count <= bytes.count {
      if bytes[cursor] == needle[0], bytes[cursor..<(cursor + needle.count)].elementsEqual(needle) {
        return cursor
      }
      cursor += 1
    }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// `bytes` as a string, every scalar kept (Foundation's `String(bytes:encoding:)` drops a
  /// leading U+FEFF, which a string value may hold).
  private static func string(_ bytes: [UInt8]) throws(PropertyListError) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    // Anything not valid UTF-8 was replaced on the way: the bytes differ.
    guard text.utf8.elementsEqual(bytes) else {
      throw PropertyListError(.invalidText, "text that is not valid UTF-8")
    }
    return text
  }
}

/// Base64 as property lists write it: whitespace anywhere, padding optional at the end.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The bytes `text` holds, decoded as Core Foundation decodes a property list's `<data>`.
  static func decode(_ text: String) -> [UInt8] {
    var table = [Int8](repeating: -1, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(index) }
    table[Int(UInt8(ascii: "="))] = 0
    var bytes: [UInt8] = []
    var accumulator: UInt32 = 0
    var count = 0
    var padding = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "=") {
        padding += 1
      } else if !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
        padding = 0
      }
      guard table[Int(byte)] >= 0 else { continue }
      count += 1
      accumulator = accumulator << 6 | UInt32(table[Int(byte)])
      if count % 4 == 0 {
        bytes.append(UInt8(truncatingIfNeeded: accumulator >> 16))
        if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
        if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
      }
    }
    return bytes
  }

  static func encode(_ bytes: [UInt8]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value: UInt32 = 0
      for byte in chunk { value = value << 8 | UInt32(byte) }
      value <<= UInt32(8 * (3 - chunk.count))
      for position in 0..<4 {
        if position <= chunk.count {
          text.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
        } else {
          text.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// `YYYY-MM-DDTHH:MM:SSZ`, the date form property lists write (a year beyond 0000…9999 with a sign
/// and more digits, as ISO 8601's expanded form writes it).
enum ISO8601Time {
  static func date(from text: String) -> Date? {
    var parts = Array(text.utf8)
    var sign = 1
    var yearDigits = 4
    if let first = parts.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
      sign = first == UInt8(ascii: "-") ? -1 : 1
      parts.removeFirst()
      yearDigits = parts.firstIndex(of: UInt8(ascii: "-")) ?? 0
      guard (4...6).contains(yearDigits) else { return nil }
    }
    let offset = yearDigits - 4
    guard parts.count == 20 + offset, parts[4 + offset] == UInt8(ascii: "-"),
      parts[7 + offset] == UInt8(ascii: "-"), parts[10 + offset] == UInt8(ascii: "T"),
      parts[13 + offset] == UInt8(ascii: ":"), parts[16 + offset] == UInt8(ascii: ":"),
      parts[19 + offset] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = parts[index + (range.lowerBound == 0 ? 0 : offset)]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<yearDigits), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = Int(CivilDate.days(year: Int64(sign * year), month: Int64(month), day: Int64(day)))
    let seconds = Double(days) * 86_400 + Double(hour * 3_600 + minute * 60 + second)
    return Date(timeIntervalSince1970: seconds)
  }

  static func string(from date: Date) -> String {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    var days = seconds / 86_400
    var rest = seconds % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = CivilDate.date(fromDays: days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let digits = String(abs(year))
    let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    let yearText = year < 0 ? "-" + padded : year > 9_999 ? "+" + padded : padded
    return
      "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))Z"
  }
}
