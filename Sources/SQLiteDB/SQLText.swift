/// Quoting for the rare names and strings spliced into SQL text (table names read from a schema,
/// file URIs for `ATTACH`); values always go through bound parameters instead.
package enum SQLText {
  /// `"name"` with embedded double quotes doubled: safe to splice as an identifier.
  package static func quotedIdentifier(_ name: String) -> String {
    "\"" + doubling(name, quote: UInt8(ascii: "\"")) + "\""
  }

  /// `text` with embedded single quotes doubled, for splicing between single quotes.
  package static func escapedLiteral(_ text: String) -> String {
    doubling(text, quote: UInt8(ascii: "'"))
  }

  private static func doubling(_ text: String, quote: UInt8) -> String {
    var utf8 = Array(text.utf8)
    guard utf8.contains(quote) else { return text }
    var result: [UInt8] = []
    result.reserveCapacity(utf8.count + 8)
    for byte in utf8 {
      result.append(byte)
      if byte == quote { result.append(quote) }
    }
    utf8 = result
    return String(decoding: utf8, as: UTF8.self)
  }
}
