import Foundation

/// RFC 4180 CSV as Ditto 3.x exports and imports it.
///
/// Records end with CRLF. A field is quoted when it contains a comma, a quote, CR or LF, or starts or
/// ends with a space; quotes inside are doubled. Input may start with a UTF-8 BOM and use CRLF or LF.
public enum CSVFormat {
  /// The header record.
  public static let header = ["Category", "Ditto"]

  /// Appends one record (fields joined with commas, CRLF at the end).
  public static func appendRecord(_ fields: [String], to output: inout String) {
    for (index, field) in fields.enumerated() {
      if index > 0 { output += "," }
      appendField(field, to: &output)
    }
    output += "\r\n"
  }

  static func appendField(_ field: String, to output: inout String) {
    let needsQuotes =
      field.utf8.contains {
        $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13
      }
      || field.hasPrefix(" ") || field.hasSuffix(" ")
    guard needsQuotes else {
      output += field
      return
    }
    output += "\""
    output += field.replacingOccurrences(of: "\"", with: "\"\"")
    output += "\""
  }
}
