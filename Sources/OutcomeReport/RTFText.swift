// THE TEXT AN RTF FILE SHOWS (what TextEdit saves when a capture is pasted into a rich-text window)
//
//   SOURCE                              TEXT
//   {  }                                groups; a group whose first control word is a
//                                       destination (\fonttbl, \colortbl, \expandedcolortbl,
//                                       \stylesheet, \info, \pict, or any \*\…) shows nothing
//   \par  \line  \ + line break         a line feed (Cocoa ends each paragraph with "\" and a
//                                       line break)
//   \tab                                a tab
//   \'hh                                the byte hh in Windows-1252 (\ansicpg1252), as UTF-8
//   \uN (N < 0: N + 65536)              that UTF-16 unit (pairs joined), then the \ucN fallback
//                                       characters (default 1) are skipped
//   \\  \{  \}                          the character itself
//   \~  \_  \-                          no-break space, hyphen, nothing
//   other \word[N]                      nothing (formatting)
//   line breaks in the source           nothing (RTF's own line breaks are not text)
//
// Streamed byte by byte: a chunk may end anywhere, in a control word or a \'hh escape.

/// Decodes RTF into the UTF-8 text it shows, chunk by chunk.
struct RTFText {
  private enum State {
    case text
    /// After a backslash.
    case escape
    /// In a control word: its letters and its numeric parameter so far.
    case word
    /// After `\'`: the hex digits so far.
    case hex
  }

  private var state = State.text
  private var word: [UInt8] = []
  private var parameter: [UInt8] = []
  private var hexDigits: [UInt8] = []
  /// The depth of each open group; `skipBelow` is the depth a skipped destination started at.
  private var depth = 0
  private var skipBelow: Int?
  /// True right after `{`: the next control word may name a destination.
  private var groupJustOpened = false
  /// How many fallback characters follow a `\uN` (`\ucN`), and how many are still to skip.
  private var fallbackLength = 1
  private var fallbackLeft = 0
  /// A high surrogate waiting for its low half.
  private var highSurrogate: UInt16?

  private static let destinations: Set<String> = [
    "fonttbl", "colortbl", "expandedcolortbl", "stylesheet", "info", "pict", "header", "footer",
    "listtable", "listoverridetable", "object",
  ]

  /// True when `start` begins an RTF document (`{\rtf`, after blanks).
  static func starts(_ start: ArraySlice<UInt8>) -> Bool {
    let trimmed = start.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    return trimmed.starts(with: Array("{\\rtf".utf8))
  }

  /// Decodes `bytes`, appending the text they show to `output`.
  mutating func feed(_ bytes: [UInt8], into output: inout [UInt8]) {
    for byte in bytes { step(byte, into: &output) }
  }

  private var skipping: Bool { skipBelow.map { depth >= $0 } ?? false }

  private mutating func step(_ byte: UInt8, into output: inout [UInt8]) {
    switch state {
    case .text:
      switch byte {
      case UInt8(ascii: "\\"):
        state = .escape
      case UInt8(ascii: "{"):
        depth += 1
        groupJustOpened = true
      case UInt8(ascii: "}"):
        if let start = skipBelow, depth <= start { skipBelow = nil }
        depth = max(depth - 1, 0)
        groupJustOpened = false
      case 0x0A, 0x0D:
        break
      default:
        groupJustOpened = false
        emitCharacter([byte], into: &output)
      }
    case .escape:
      if Self.isLetter(byte) {
        state = .word
        word = [byte]
        parameter = []
        return
      }
      state = .text
      let opened = groupJustOpened
      groupJustOpened = false
      switch byte {
      case UInt8(ascii: "'"):
        state = .hex
        hexDigits = []
      case 0x0A, 0x0D:
        emit([0x0A], into: &output)
      case UInt8(ascii: "*"):
        if opened, skipBelow == nil { skipBelow = depth }
      case UInt8(ascii: "~"):
        emitCharacter([0xC2, 0xA0], into: &output)
      case UInt8(ascii: "_"):
        emitCharacter([UInt8(ascii: "-")], into: &output)
      case UInt8(ascii: "-"):
        break
      default:
        // \\ \{ \} and any other symbol: the character itself.
        emitCharacter([byte], into: &output)
      }
    case .word:
      if Self.isLetter(byte), parameter.isEmpty, word.count < 32 {
        word.append(byte)
        return
      }
      if Self.isDigit(byte) || (byte == UInt8(ascii: "-") && parameter.isEmpty),
        parameter.count < 12
      {
        parameter.append(byte)
        return
      }
      endWord(into: &output)
      state = .text
      // A space ends the word and is part of it; anything else is read again as text.
      if byte != 0x20 { step(byte, into: &output) }
    case .hex:
      hexDigits.append(byte)
      guard hexDigits.count == 2 else { return }
      state = .text
      if let value = UInt8(String(decoding: hexDigits, as: UTF8.self), radix: 16) {
        emitCharacter(Self.windows1252(value), into: &output)
      }
    }
  }

  private mutating func endWord(into output: inout [UInt8]) {
    let name = String(decoding: word, as: UTF8.self)
    let value = Int(String(decoding: parameter, as: UTF8.self))
    let opened = groupJustOpened
    groupJustOpened = false
    if opened, skipBelow == nil, Self.destinations.contains(name) {
      skipBelow = depth
      return
    }
    switch name {
    case "par", "line", "sect", "page": emit([0x0A], into: &output)
    case "tab": emitCharacter([0x09], into: &output)
    case "uc": fallbackLength = max(value ?? 1, 0)
    case "u":
      guard let value else { return }
      let unit = UInt16(truncatingIfNeeded: value < 0 ? value + 65536 : value)
      if !skipping {
        emitUnit(unit, into: &output)
        fallbackLeft = fallbackLength
      }
    default: break
    }
  }

  /// Emits a character of the text, unless it is a `\uN` fallback or in a skipped destination.
  private mutating func emitCharacter(_ bytes: [UInt8], into output: inout [UInt8]) {
    if fallbackLeft > 0 {
      fallbackLeft -= 1
      return
    }
    emit(bytes, into: &output)
  }

  private mutating func emit(_ bytes: [UInt8], into output: inout [UInt8]) {
    guard !skipping else { return }
    if let high = highSurrogate {
      highSurrogate = nil
      output.append(contentsOf: Self.utf8(of: high))
    }
    output.append(contentsOf: bytes)
  }

  private mutating func emitUnit(_ unit: UInt16, into output: inout [UInt8]) {
    if (0xD800...0xDBFF).contains(unit) {
      if let high = highSurrogate { output.append(contentsOf: Self.utf8(of: high)) }
      highSurrogate = unit
      return
    }
    if (0xDC00...0xDFFF).contains(unit), let high = highSurrogate {
      highSurrogate = nil
      let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
      output.append(contentsOf: Self.utf8(of: scalar))
      return
    }
    emit(Self.utf8(of: UInt32(unit)), into: &output)
  }

  private static func utf8(of high: UInt16) -> [UInt8] { utf8(of: UInt32(0xFFFD)) }

  /// UTF-8 of `value` (U+FFFD for a lone surrogate).
  private static func utf8(of value: UInt32) -> [UInt8] {
    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
    return Array(String(Character(scalar)).utf8)
  }

  /// A byte of Windows-1252 as UTF-8 (0x80–0x9F by the code page's table; undefined ones U+FFFD).
  private static func windows1252(_ byte: UInt8) -> [UInt8] {
    if byte < 0x80 { return [byte] }
    if byte >= 0xA0 { return utf8(of: UInt32(byte)) }
    let table: [UInt32] = [
      0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]
    return utf8(of: table[Int(byte - 0x80)])
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}
