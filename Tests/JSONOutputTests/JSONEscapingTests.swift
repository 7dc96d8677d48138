import Foundation
import JSONOutput
import Testing

@Suite struct JSONEscapingTests {
  static let samples = [
    "plain", "", "quote \" back\\slash / slash", "tab\tline\nreturn\r", "bell \u{7} nul \u{0}",
    "backspace \u{8} feed \u{C} unit \u{1F}", "line sep \u{2028} para \u{2029} bullet \u{2022}",
    "emoji 😀 é and 漢字",
  ]

  @Test(arguments: samples)
  func bothStylesReadBackAsTheText(text: String) throws {
    for style in [JSONEscaping.Style.standard, .foundation] {
      let quoted = JSONEscaping.quoted(text, style: style)
      let decoded =
        try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
      #expect(decoded == [text], "\(style): \(quoted)")
    }
  }

  @Test(arguments: samples)
  func theFoundationStyleIsWhatJSONSerializationWrites(text: String) throws {
    let data = try JSONSerialization.data(withJSONObject: [text])
    // JSONSerialization writes \b and \f; the outcomes report has always written \u0008, \u000c.
    let written = String(decoding: data, as: UTF8.self)
      .replacingOccurrences(of: "\\b", with: "\\u0008")
      .replacingOccurrences(of: "\\f", with: "\\u000c")
    #expect("[" + JSONEscaping.quoted(text, style: .foundation) + "]" == written)
  }

  @Test func theStandardStyleEscapesWhatJavaScriptReadsAsLineEnds() {
    #expect(JSONEscaping.quoted("a\u{2028}b/\u{8}") == "\"a\\u2028b/\\b\"")
  }
}
