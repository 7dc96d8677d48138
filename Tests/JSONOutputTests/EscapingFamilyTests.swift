import JSONOutput
import StoreFixtures
import Testing

/// The escaper skips plain bytes eight at a time: over a generated family of strings (plain runs
/// of every length between the bytes each style escapes, at every offset, multi-byte scalars that
/// share U+2028's lead byte), what it writes is what the rules give, scalar by scalar.
@Suite struct EscapingFamilyTests {
  /// The rules of ``JSONEscaping/Style``, one scalar at a time.
  static func reference(_ text: String, style: JSONEscaping.Style) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch (scalar.value, style) {
      case (0x22, _): out += "\\\""
      case (0x5C, _): out += "\\\\"
      case (0x0A, _): out += "\\n"
      case (0x0D, _): out += "\\r"
      case (0x09, _): out += "\\t"
      case (0x2F, .foundation): out += "\\/"
      case (0x08, .standard): out += "\\b"
      case (0x0C, .standard): out += "\\f"
      case (0x00..<0x20, _):
        let hex = String(scalar.value, radix: 16)
        out += "\\u00" + (hex.count == 1 ? "0" : "") + hex
      case (0x2028, .standard): out += "\\u2028"
      case (0x2029, .standard): out += "\\u2029"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static let pieces: [String] = [
    "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}",
    "\u{2029}", "\u{2022}", "\u{20AC}", "é", "😀", "漢", " ", "~",
  ]

  @Test func everyStringIsEscapedAsTheRulesSay() {
    var generator = SeededGenerator(seed: FamilySeed.base(0xE5CA))
    for member in 0..<2_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...8, using: &generator) {
        let run = Int.random(in: 0...20, using: &generator)
        text += String(repeating: "abcdefghij", count: 2).prefix(run)
        if Bool.random(using: &generator) { text += Self.pieces.randomElement(using: &generator)! }
      }
      for style in [JSONEscaping.Style.standard, .foundation] {
        #expect(
          JSONEscaping.quoted(text, style: style) == Self.reference(text, style: style),
          "member \(member), \(style): \(text.debugDescription)")
      }
    }
  }
}
