#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// RFC 4180 CSV as Ditto 3.x exports and imports it.
///
/// Records end with CRLF. A field is quoted when it contains a comma, a quote, CR or LF, or starts or
/// ends with a space; quotes inside are doubled. Input may start with a UTF-8 BOM and use CRLF or LF.
package enum CSVFormat {
  /// The header record.
  package static let header = ["Category", "Ditto"]

  /// Appends one record (fields joined with commas, CRLF at the end).
  package static func appendRecord(_ fields: [String], to output: inout String) {
    var bytes: [UInt8] = []
    appendRecord(fields, to: &bytes)
    output += String(decoding: bytes, as: UTF8.self)
  }

  /// Appends one record as UTF-8 bytes.
  package static func appendRecord(_ fields: [String], to output: inout [UInt8]) {
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
  package static func appendField(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8])
  {
    let quote = UInt8(ascii: "\"")
    var hasQuote = false
    var needsQuotes = bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
    // Eight bytes at a time: a word holds byte b when (word ^ b·0x0101…) has a zero byte.
    var index = 0
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while index + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if Self.holds(word, quoteBytes) {
          hasQuote = true
          needsQuotes = true
          break
        }
        if !needsQuotes,
          Self.holds(word, commaBytes) || Self.holds(word, lineFeedBytes)
            || Self.holds(word, carriageReturnBytes)
        {
          needsQuotes = true
        }
        index += 8
      }
    }
    while !hasQuote, index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        hasQuote = true
        needsQuotes = true
      } else if byte == UInt8(ascii: ",") || byte == 10 || byte == 13 {
        needsQuotes = true
      }
      index += 1
    }
    guard needsQuotes else {
      output.append(contentsOf: bytes)
      return
    }
    output.append(quote)
    if hasQuote {
      // Copy the runs between quotes whole (memchr finds each quote); double each quote.
      var start = 0
      while start < bytes.count,
        let found = memchr(bytes.baseAddress! + start, Int32(quote), bytes.count - start)
      {
        let index = bytes.baseAddress!.distance(
          to: found.assumingMemoryBound(to: UInt8.self))
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

  private static let quoteBytes: UInt64 = 0x2222_2222_2222_2222
  private static let commaBytes: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
  private static let lineFeedBytes: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
  private static let carriageReturnBytes: UInt64 = 0x0D0D_0D0D_0D0D_0D0D

  /// True when some byte of `word` equals the byte repeated in `pattern` (exact, no false hits).
  @inline(__always) private static func holds(_ word: UInt64, _ pattern: UInt64) -> Bool {
    let difference = word ^ pattern
    return (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080 != 0
  }
}
