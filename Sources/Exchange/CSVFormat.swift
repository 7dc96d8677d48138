/// RFC 4180 CSV as Ditto 3.x exports and imports it.
///
/// Records end with CRLF. A field is quoted when it contains a comma, a quote, CR or LF, or starts or
/// ends with a space; quotes inside are doubled. Input may start with a UTF-8 BOM and use CRLF or LF.
public enum CSVFormat {
  /// The header record.
  public static let header = ["Category", "Ditto"]

  /// Appends one record (fields joined with commas, CRLF at the end).
  public static func appendRecord(_ fields: [String], to output: inout String) {
    var bytes: [UInt8] = []
    appendRecord(fields, to: &bytes)
    output += String(decoding: bytes, as: UTF8.self)
  }

  /// Appends one record as UTF-8 bytes.
  public static func appendRecord(_ fields: [String], to output: inout [UInt8]) {
    for (index, field) in fields.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      appendField(field, to: &output)
    }
    output.append(13)
    output.append(10)
  }

  /// Appends one field, quoted when needed.
  static func appendField(_ field: String, to output: inout [UInt8]) {
    var field = field
    field.withUTF8 { appendField(utf8: $0, to: &output) }
  }

  /// Appends one field given as UTF-8 bytes, quoted when needed.
  public static func appendField(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let quote = UInt8(ascii: "\"")
    var hasQuote = false
    var needsQuotes = bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
    for byte in bytes {
      if byte == quote {
        hasQuote = true
        needsQuotes = true
        break
      }
      if byte == UInt8(ascii: ",") || byte == 10 || byte == 13 { needsQuotes = true }
    }
    guard needsQuotes else {
      output.append(contentsOf: bytes)
      return
    }
    output.append(quote)
    if hasQuote {
      // Copy the runs between quotes whole; double each quote.
      var start = 0
      for index in bytes.indices where bytes[index] == quote {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...index]))
        output.append(quote)
        start = index + 1
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    } else {
      output.append(contentsOf: bytes)
    }
    output.append(quote)
  }
}
