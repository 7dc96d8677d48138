import ByteStreams

// WHAT AN INPUT'S BYTES ARE (told by content, never by the file's name)
//
//   FIRST BYTES                       READ AS
//   1F 8B                             gzip (GzipDecoder), then told again from what it holds
//   FF FE / FE FF                     UTF-16 little / big endian with a byte-order mark
//   x 00 y 00 / 00 x 00 y (x, y ≠ 0)  UTF-16 without a mark (Notepad, PowerShell redirection)
//   anything else                     UTF-8 (a UTF-8 byte-order mark is dropped by InputReader)
//
// Then the first 4 KiB of text decide whether it is text at all: a NUL byte, or more than 2% of
// control bytes and invalid UTF-8, make the input binary, and nothing in it is counted, in any
// style. They also decide two more stages:
//
//   TEXT STARTS WITH / HOLDS           THEN
//   {\rtf                              RTF (TextEdit's "plain text in RTF"): the text it shows
//                                      (RTFText), paragraphs as line feeds, \'hh and \uN decoded
//   a CR (alone or before LF)          line ends normalized: CR LF and a lone CR (classic Mac,
//                                      old editors) both become LF (mixed line ends included)
//
// A plain UTF-8 input with LF line ends passes through without a copy once that is known.

/// Why an input was not read as a capture, or not to its end.
package enum InputProblem: Equatable, Sendable, CustomStringConvertible {
  /// Not text (a NUL byte, or mostly control bytes and invalid UTF-8): nothing in it is counted.
  case binary
  /// A gzip stream that could not be decoded to its end: what came before the damage is read.
  case damagedGzip(String)
  /// A gzip stream that expands beyond the limit (a decompression bomb): read up to the limit.
  case expandsTooMuch
  /// A unified-log archive with parts that could not be read (named): the rest is read.
  case damagedArchive(String)
  /// An input that was not read at all (a FIFO, a socket or a device in a folder, a link, a name
  /// that is not UTF-8): why.
  case notRead(String)

  package var description: String {
    switch self {
    case .binary: "not text (binary data): not read as a capture"
    case .damagedGzip(let reason): "gzip data damaged (\(reason)): read up to the damage"
    case .expandsTooMuch:
      "gzip data expands more than \(CaptureDecoder.expansionLimit) times: read up to that point"
    case .damagedArchive(let reason): "log archive partly unreadable (\(reason)): the rest is read"
    case .notRead(let reason): "not read: \(reason)"
    }
  }

  /// A short stable code for JSON.
  package var code: String {
    switch self {
    case .binary: "binary"
    case .damagedGzip: "damaged_gzip"
    case .expandsTooMuch: "expands_too_much"
    case .damagedArchive: "damaged_archive"
    case .notRead: "not_read"
    }
  }
}

/// Turns one input's bytes, in chunks of any size, into the UTF-8 text the reader reads.
struct CaptureDecoder {
  /// How many times its size a gzip stream may expand.
  static let expansionLimit = 1024
  /// The text examined before the input is known to be text.
  static let checkLength = 4096

  private var rawStart: [UInt8] = []
  private var isRawDecided = false
  private var gzip: GzipDecoder?
  private var compressedBytes = 0
  private var textStart: [UInt8] = []
  private var isTextDecided = false
  private var utf16: UTF16Transcoder?
  private var checked: [UInt8] = []
  private var isChecked = false
  private var rtf: RTFText?
  /// Set when the text holds carriage returns: each CR becomes LF, a CR LF pair one LF.
  private var normalizesLineEnds = false
  /// Set for a quoted-printable mail paste (its start says `quoted-printable`, or writes `=` as
  /// `=3D`): soft line breaks (`=` at a line's end) are joined, `=XX` decoded.
  private var quotedPrintable: QuotedPrintable?
  /// The last byte given to the line-end stage was a CR (its LF may start the next chunk).
  private var afterCR = false
  private var isStopped = false
  /// What went wrong, if anything.
  private(set) var problem: InputProblem?
  /// How the input was encoded: `gzip`, `UTF-16LE`, both (`gzip, UTF-16BE`), or nil for UTF-8.
  private(set) var encoding: String?

  /// True once every further chunk is plain UTF-8 text to read as it is.
  var passesThrough: Bool {
    isChecked && gzip == nil && utf16 == nil && rtf == nil && !normalizesLineEnds
      && quotedPrintable == nil && !isStopped
  }

  /// Decodes `chunk` into `output` (emptied first).
  mutating func decode(_ chunk: Bytes, into output: inout [UInt8]) {
    output.removeAll(keepingCapacity: true)
    guard !isStopped else { return }
    var bytes: [UInt8]
    if isRawDecided {
      bytes = Array(chunk)
    } else {
      rawStart.append(contentsOf: chunk)
      guard rawStart.count >= 3 else { return }
      bytes = decideRaw()
    }
    runStages(&bytes, ending: false, into: &output)
  }

  /// Ends the input: what was held back is decoded into `output`.
  mutating func finish(into output: inout [UInt8]) {
    output.removeAll(keepingCapacity: true)
    guard !isStopped else { return }
    var bytes = isRawDecided ? [] : decideRaw()
    runStages(&bytes, ending: true, into: &output)
  }

  private mutating func decideRaw() -> [UInt8] {
    isRawDecided = true
    if rawStart.count >= 2, rawStart[0] == 0x1F, rawStart[1] == 0x8B {
      gzip = GzipDecoder()
      encoding = "gzip"
    }
    defer { rawStart = [] }
    return rawStart
  }

  private mutating func runStages(_ bytes: inout [UInt8], ending: Bool, into output: inout [UInt8])
  {
    if gzip != nil {
      compressedBytes += bytes.count
      var expanded: [UInt8] = []
      do {
        try gzip?.feed(bytes) { expanded += $0 }
        if ending { try gzip?.finish { expanded += $0 } }
      } catch {
        problem = .damagedGzip(error.reason)
        isStopped = true
      }
      if (gzip?.outputBytes ?? 0) > Self.expansionLimit * max(compressedBytes, 1) + (1 << 24) {
        problem = .expandsTooMuch
        isStopped = true
      }
      bytes = expanded
    }
    if !isTextDecided {
      textStart += bytes
      guard textStart.count >= 4 || ending else { return }
      bytes = decideText()
    }
    if utf16 != nil {
      var text: [UInt8] = []
      utf16?.transcode(bytes, into: &text)
      if ending { utf16?.finish(into: &text) }
      bytes = text
    }
    if !isChecked {
      checked += bytes
      guard checked.count >= Self.checkLength || ending || isStopped else { return }
      isChecked = true
      if Self.isBinary(checked.prefix(Self.checkLength)) {
        problem = .binary
        isStopped = true
        checked = []
        return
      }
      let start = checked.prefix(Self.checkLength)
      if RTFText.starts(start) {
        rtf = RTFText()
        encoding = encoding.map { $0 + ", RTF" } ?? "RTF"
      }
      normalizesLineEnds = start.contains(0x0D)
      if QuotedPrintable.starts(start) {
        quotedPrintable = QuotedPrintable()
        encoding = encoding.map { $0 + ", quoted-printable" } ?? "quoted-printable"
      }
      bytes = checked
      checked = []
    }
    if rtf != nil {
      var text: [UInt8] = []
      rtf?.feed(bytes, into: &text)
      bytes = text
    }
    if normalizesLineEnds {
      var text: [UInt8] = []
      text.reserveCapacity(bytes.count)
      for byte in bytes {
        if byte == 0x0D {
          text.append(0x0A)
          afterCR = true
          continue
        }
        if byte == 0x0A, afterCR {
          afterCR = false
          continue
        }
        afterCR = false
        text.append(byte)
      }
      bytes = text
    }
    if quotedPrintable != nil {
      var text: [UInt8] = []
      quotedPrintable?.decode(bytes, ending: ending, into: &text)
      bytes = text
    }
    output = bytes
  }

  private mutating func decideText() -> [UInt8] {
    isTextDecided = true
    defer { textStart = [] }
    let start = textStart
    func mark(_ name: String) { encoding = encoding.map { $0 + ", " + name } ?? name }
    if start.count >= 2, start[0] == 0xFF, start[1] == 0xFE {
      utf16 = UTF16Transcoder(littleEndian: true)
      mark("UTF-16LE")
      return Array(start.dropFirst(2))
    }
    if start.count >= 2, start[0] == 0xFE, start[1] == 0xFF {
      utf16 = UTF16Transcoder(littleEndian: false)
      mark("UTF-16BE")
      return Array(start.dropFirst(2))
    }
    if start.count >= 4 {
      if start[0] != 0, start[1] == 0, start[2] != 0, start[3] == 0 {
        utf16 = UTF16Transcoder(littleEndian: true)
        mark("UTF-16LE")
      } else if start[0] == 0, start[1] != 0, start[2] == 0, start[3] != 0 {
        utf16 = UTF16Transcoder(littleEndian: false)
        mark("UTF-16BE")
      }
    }
    return start
  }

  /// True when `text` is not text: a NUL byte, or more than 2% control bytes (other than tab,
  /// line breaks, form feed and escape) and bytes of invalid UTF-8. An incomplete sequence at
  /// the end is not counted (the rest of it is in the next chunk).
  static func isBinary(_ text: ArraySlice<UInt8>) -> Bool {
    guard !text.isEmpty else { return false }
    var suspicious = 0
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      if byte == 0 { return true }
      if byte < 0x80 {
        if byte < 0x20, ![0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B].contains(byte) { suspicious += 1 }
        if byte == 0x7F { suspicious += 1 }
        index += 1
        continue
      }
      let length: Int
      switch byte {
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: length = 0
      }
      guard length > 0 else {
        suspicious += 1
        index += 1
        continue
      }
      if index + length > text.endIndex { break }
      let continuation = text[(index + 1)..<(index + length)].allSatisfy { $0 & 0xC0 == 0x80 }
      if continuation {
        index += length
      } else {
        suspicious += 1
        index += 1
      }
    }
    return suspicious * 50 > text.count
  }
}

/// UTF-16 to UTF-8, a code unit or a surrogate pair possibly split between chunks; an unpaired
/// surrogate becomes U+FFFD.
struct UTF16Transcoder {
  let littleEndian: Bool
  private var oddByte: UInt8?
  private var highSurrogate: UInt16?

  init(littleEndian: Bool) {
    self.littleEndian = littleEndian
  }

  mutating func transcode(_ bytes: [UInt8], into output: inout [UInt8]) {
    var index = 0
    if let odd = oddByte, !bytes.isEmpty {
      oddByte = nil
      unit(pair(odd, bytes[0]), into: &output)
      index = 1
    }
    while index + 1 < bytes.count {
      unit(pair(bytes[index], bytes[index + 1]), into: &output)
      index += 2
    }
    if index < bytes.count { oddByte = bytes[index] }
  }

  mutating func finish(into output: inout [UInt8]) {
    if highSurrogate != nil || oddByte != nil { append(0xFFFD, into: &output) }
    highSurrogate = nil
    oddByte = nil
  }

  private func pair(_ first: UInt8, _ second: UInt8) -> UInt16 {
    littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second)
  }

  private mutating func unit(_ value: UInt16, into output: inout [UInt8]) {
    if let high = highSurrogate {
      highSurrogate = nil
      if (0xDC00...0xDFFF).contains(value) {
        let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(value) - 0xDC00)
        append(scalar, into: &output)
        return
      }
      append(0xFFFD, into: &output)
    }
    switch value {
    case 0xD800...0xDBFF: highSurrogate = value
    case 0xDC00...0xDFFF: append(0xFFFD, into: &output)
    default: append(UInt32(value), into: &output)
    }
  }

  /// Appends `scalar` (never a surrogate) as UTF-8.
  private func append(_ scalar: UInt32, into output: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      output.append(UInt8(scalar))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | scalar >> 6))
      output.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | scalar >> 12))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    default:
      output.append(UInt8(0xF0 | scalar >> 18))
      output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}

/// Quoted-printable text (RFC 2045), as a mail client pastes a capture: `=` at a line's end is a
/// soft break (the line goes on), `=XX` one byte. Decoded as it streams: an escape cut by a chunk
/// waits for the next.
struct QuotedPrintable {
  private var held: [UInt8] = []

  /// True when `start` is quoted-printable: it says so (`Content-Transfer-Encoding:
  /// quoted-printable`), or writes the tag's `=` as `=3D`.
  static func starts(_ start: some Collection<UInt8>) -> Bool {
    let text = String(decoding: start, as: UTF8.self).lowercased()
    return text.contains("quoted-printable") || text.contains("=3d")
  }

  mutating func decode(_ bytes: [UInt8], ending: Bool, into output: inout [UInt8]) {
    var input = held + bytes
    held = []
    var index = 0
    while index < input.count {
      let byte = input[index]
      guard byte == UInt8(ascii: "=") else {
        output.append(byte)
        index += 1
        continue
      }
      // Not enough left to tell: kept for the next chunk (or, at the end, written as it is).
      if input.count - index < 3, !ending {
        held = Array(input[index...])
        return
      }
      if index + 1 < input.count, input[index + 1] == 0x0A {
        index += 2  // soft break
        continue
      }
      if index + 2 < input.count, input[index + 1] == 0x0D, input[index + 2] == 0x0A {
        index += 3
        continue
      }
      if index + 2 < input.count, let high = Self.hex(input[index + 1]),
        let low = Self.hex(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      }
      output.append(byte)
      index += 1
    }
    input.removeAll()
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
