import SQLiteDB

/// A CSV syntax error, with the 1-based line where the record started.
package struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
  package let line: Int
  package let reason: String

  package var description: String { "line \(line): \(reason)" }
}

/// An incremental RFC 4180 parser: feed bytes in any chunks, get whole records.
///
/// Accepts a UTF-8 BOM, CRLF, LF or CR line ends, and quoted fields holding commas, quotes and line
/// breaks. A quote inside an unquoted field is kept as text (as spreadsheets write it). An unterminated
/// quoted field or invalid UTF-8 is an error naming the line.
package struct CSVReader {
  private enum State {
    case recordStart, fieldStart, unquoted, quoted, quoteInQuoted, afterCR
  }

  private var state = State.recordStart
  private var field: [UInt8] = []
  private var record: [String] = []
  private var line = 1
  private var recordLine = 1
  private var atStart = true
  private var bomMatched = 0

  package init() {}

  /// Parses `bytes`, calling `emit` for each completed record.
  package mutating func feed(_ bytes: some Sequence<UInt8>, emit: ([String]) throws -> Void) throws
  {
    for byte in bytes {
      if atStart {
        // Skip a UTF-8 byte order mark (EF BB BF) at the very beginning.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if byte == bom[bomMatched] {
          bomMatched += 1
          if bomMatched == 3 { atStart = false }
          continue
        }
        atStart = false
        if bomMatched > 0 {
          for pending in bom.prefix(bomMatched) { try consume(pending, emit: emit) }
        }
      }
      try consume(byte, emit: emit)
    }
  }

  /// Ends the input: emits the last record if it lacked a line break.
  package mutating func finish(emit: ([String]) throws -> Void) throws {
    switch state {
    case .quoted:
      throw CSVError(line: recordLine, reason: "a quoted field is not closed")
    case .recordStart, .afterCR:
      return
    case .fieldStart, .unquoted, .quoteInQuoted:
      try endRecord(emit: emit)
    }
  }

  private mutating func consume(_ byte: UInt8, emit: ([String]) throws -> Void) throws {
    let quote = UInt8(ascii: "\"")
    let comma = UInt8(ascii: ",")
    let cr: UInt8 = 13
    let lf: UInt8 = 10
    switch state {
    case .afterCR:
      state = .recordStart
      if byte == lf { return }
      try consume(byte, emit: emit)
    case .recordStart, .fieldStart:
      if state == .recordStart { recordLine = line }
      switch byte {
      case quote: state = .quoted
      case comma:
        try endField()
        state = .fieldStart
      case cr, lf:
        if state == .recordStart {
          // A blank line: no record.
          line += 1
          state = byte == cr ? .afterCR : .recordStart
        } else {
          try endRecord(emit: emit)
          line += 1
          state = byte == cr ? .afterCR : .recordStart
        }
      default:
        field.append(byte)
        state = .unquoted
      }
    case .unquoted:
      switch byte {
      case comma:
        try endField()
        state = .fieldStart
      case cr, lf:
        try endRecord(emit: emit)
        line += 1
        state = byte == cr ? .afterCR : .recordStart
      default: field.append(byte)
      }
    case .quoted:
      if byte == quote {
        state = .quoteInQuoted
      } else {
        if byte == lf { line += 1 }
        field.append(byte)
      }
    case .quoteInQuoted:
      switch byte {
      case quote:
        field.append(quote)
        state = .quoted
      case comma:
        try endField()
        state = .fieldStart
      case cr, lf:
        try endRecord(emit: emit)
        line += 1
        state = byte == cr ? .afterCR : .recordStart
      default:
        // Text after a closing quote: keep it, as lenient readers do.
        field.append(byte)
        state = .unquoted
      }
    }
  }

  private mutating func endField() throws {
    guard let text = validUTF8String(field) else {
      throw CSVError(line: recordLine, reason: "the text is not valid UTF-8")
    }
    record.append(text)
    field.removeAll(keepingCapacity: true)
  }

  private mutating func endRecord(emit: ([String]) throws -> Void) throws {
    try endField()
    let finished = record
    record.removeAll(keepingCapacity: true)
    try emit(finished)
  }
}

/// `bytes` as a string when they are valid UTF-8, nil otherwise (never repaired).
func validUTF8String(_ bytes: [UInt8]) -> String? {
  String.decodingIfValid(bytes, as: UTF8.self)
}
