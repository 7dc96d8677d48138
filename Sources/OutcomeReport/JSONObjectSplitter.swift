#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Cuts a stream of JSON text into top-level objects, one chunk at a time, without parsing them.
///
/// `log show --style json` writes one array that spans the whole capture; reading it with
/// `JSONSerialization` would hold all of it. The splitter instead counts braces outside strings
/// and hands over each object as soon as its closing brace arrives, so memory is bounded by the
/// largest object (and capped by `limit`).
///
/// Between objects (depth 0) it skips blanks, line breaks, `,`, `[` and `]`. Any other byte there
/// ends JSON mode: the caller goes back to reading lines from that byte, so text after an array
/// (a trailer, a second capture in the same stream) is still read. Inside an object, braces in
/// strings do not count: a `"` opens a string, `\` escapes the next byte (so `\"`, `\\`, `\/` and
/// `\n` never end or confuse it), and the next unescaped `"` closes it.
struct JSONObjectSplitter {
  /// What ``next(in:from:)`` found.
  enum Step: Equatable {
    /// A whole object lies in `bytes[start..<end]`; nothing is buffered.
    case object(start: Int, end: Int)
    /// An object ended just before `end`; its bytes are in ``buffer``. Call ``clearBuffer()``.
    case bufferedObject(end: Int)
    /// Every byte was consumed; an unfinished object, if any, is in ``buffer``.
    case needMore
    /// The byte at `index` cannot start or separate objects: JSON mode is over.
    case notJSON(at: Int)
  }

  /// The most bytes kept of one object; the rest of a longer object is dropped (``isTruncated``).
  let limit: Int
  /// The bytes of an object that began in an earlier chunk.
  private(set) var buffer: [UInt8] = []
  /// True when the buffered object was longer than ``limit``.
  private(set) var isTruncated = false
  private var depth = 0
  private var isInString = false
  private var isEscaped = false

  init(limit: Int) {
    self.limit = limit
  }

  /// True while an object is open.
  var isInsideObject: Bool { depth > 0 }

  /// Scans `bytes` from `start` up to the end of the next object.
  mutating func next(in bytes: Bytes, from start: Int) -> Step {
    var index = start
    if depth == 0 {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"):
          index += 1
          continue
        case UInt8(ascii: "{"):
          break
        default:
          return .notJSON(at: index)
        }
        break
      }
      guard index < bytes.count else { return .needMore }
    }
    let objectStart = index
    while index < bytes.count {
      if isInString {
        index = endOfString(in: bytes, from: index)
        continue
      }
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): isInString = true
      case UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: "}"):
        depth -= 1
        if depth == 0 {
          if buffer.isEmpty && !isTruncated { return .object(start: objectStart, end: index) }
          append(bytes, objectStart..<index)
          return .bufferedObject(end: index)
        }
      default: break
      }
    }
    append(bytes, objectStart..<index)
    return .needMore
  }

  /// Skips string content from `start`: returns the index after the closing quote (and clears
  /// ``isInString``), or `bytes.count` when the string goes on into the next chunk.
  ///
  /// Most of a log object is string content, so this jumps from quote to quote with `memchr`.
  /// A quote closes the string if and only if the run of backslashes right before it is even;
  /// a run cut by the chunk boundary carries over as ``isEscaped`` (its parity).
  private mutating func endOfString(in bytes: Bytes, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return bytes.count }
    var runStart = start
    if isEscaped {
      // The first byte is escaped whatever it is.
      isEscaped = false
      runStart += 1
    }
    var searchFrom = runStart
    while searchFrom < bytes.count {
      guard let found = memchr(base + searchFrom, 0x22, bytes.count - searchFrom) else { break }
      let quote = UnsafeRawPointer(found) - UnsafeRawPointer(base)
      var first = quote
      while first > runStart, bytes[first - 1] == UInt8(ascii: "\\") { first -= 1 }
      if (quote - first) % 2 == 0 {
        isInString = false
        return quote + 1
      }
      searchFrom = quote + 1
      runStart = searchFrom
    }
    var first = bytes.count
    while first > runStart, bytes[first - 1] == UInt8(ascii: "\\") { first -= 1 }
    isEscaped = (bytes.count - first) % 2 == 1
    return bytes.count
  }

  /// Forgets the buffered object.
  mutating func clearBuffer() {
    buffer.removeAll(keepingCapacity: buffer.capacity <= limit)
    isTruncated = false
  }

  /// Forgets an unfinished object and all state: the input ended.
  mutating func reset() {
    clearBuffer()
    depth = 0
    isInString = false
    isEscaped = false
  }

  private mutating func append(_ bytes: Bytes, _ range: Range<Int>) {
    let room = limit - buffer.count
    if range.count > room { isTruncated = true }
    guard room > 0 else { return }
    buffer.append(contentsOf: bytes[range.lowerBound..<(range.lowerBound + min(room, range.count))])
  }
}
