/// The package's one JSON string escaper: every JSON text this package writes (exports, `--json`
/// outputs, `outcomes --json`, `logs --json`) quotes its strings here.
///
/// Two styles, because two outputs are promised byte for byte:
/// - ``Style/standard``: quotes, backslashes and control characters escaped (`\n`, `\r`, `\t`, `\b`,
///   `\f`, else `\u00XX`), U+2028 and U+2029 too (JavaScript reads them as line ends); `/` as is.
/// - ``Style/foundation``: what Foundation's `JSONSerialization` writes (the `outcomes --json`
///   contract): `/` escaped as `\/`, `\n`, `\r`, `\t`, every other control character as `\u00XX`
///   (backspace and form feed too, where `JSONSerialization` writes `\b` and `\f`: the report has
///   always written them so), U+2028 and U+2029 as they are.
package enum JSONEscaping {
  /// Which promised output a string is quoted for.
  package enum Style: Sendable {
    case standard
    case foundation
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends UTF-8 `bytes` as a JSON string literal.
  package static func appendQuoted(
    utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], style: Style = .standard
  ) {
    output.append(UInt8(ascii: "\""))
    var start = 0
    var index = 0
    // Besides `"`, `\` and control characters, the one byte each style looks at: `/` (escaped),
    // or the lead byte of U+2028 and U+2029.
    let special: UInt8 = style == .foundation ? 0x2F : 0xE2
    func flush(_ end: Int) {
      if end > start {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
      }
    }
    func escaped(_ text: StaticString) {
      text.withUTF8Buffer { output.append(contentsOf: $0) }
    }
    while index < bytes.count {
      index = plainRun(bytes, from: index, special: special)
      guard index < bytes.count else { break }
      let byte = bytes[index]
      var width = 1
      switch (byte, style) {
      case (0x22, _):
        flush(index)
        escaped("\\\"")
      case (0x5C, _):
        flush(index)
        escaped("\\\\")
      case (0x0A, _):
        flush(index)
        escaped("\\n")
      case (0x0D, _):
        flush(index)
        escaped("\\r")
      case (0x09, _):
        flush(index)
        escaped("\\t")
      case (0x2F, .foundation):
        flush(index)
        escaped("\\/")
      case (0x08, .standard):
        flush(index)
        escaped("\\b")
      case (0x0C, .standard):
        flush(index)
        escaped("\\f")
      case (0x00..<0x20, _):
        flush(index)
        escaped("\\u00")
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0xF)])
      case (0xE2, .standard)
      where index + 2 < bytes.count && bytes[index + 1] == 0x80
        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
        flush(index)
        escaped(bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
        width = 3
      default:
        index += 1
        continue
      }
      index += width
      start = index
    }
    flush(bytes.count)
    output.append(UInt8(ascii: "\""))
  }

  /// Where the bytes from `index` that stand for themselves end: the first that is `"`, `\`, a
  /// control character or `special`, else the end. Eight bytes at a time while none of them is
  /// one (each test exact: a byte below 0x20, or equal to one of the three).
  @inline(__always)
  private static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, special: UInt8)
    -> Int
  {
    var index = index
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let high: UInt64 = 0x8080_8080_8080_8080
      @inline(__always) func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & high != 0
      }
      while bytes.count - index >= 8 {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let control = (word &- ones &* 0x20) & ~word & high != 0
        if control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
          || hasZeroByte(word ^ (ones &* UInt64(special)))
        {
          break
        }
        index += 8
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == special { break }
      index += 1
    }
    return index
  }

  /// Appends `text` as a JSON string literal, as UTF-8 bytes.
  package static func appendQuoted(
    _ text: String, to output: inout [UInt8], style: Style = .standard
  ) {
    var text = text
    text.withUTF8 { appendQuoted(utf8: $0, to: &output, style: style) }
  }

  /// `text` as a JSON string literal.
  package static func quoted(_ text: String, style: Style = .standard) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &output, style: style)
    return String(decoding: output, as: UTF8.self)
  }
}
