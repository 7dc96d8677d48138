import Foundation

// BINARY PROPERTY LIST, VERSION 00 (what CFBinaryPList.c writes; read here without it)
//
//   OFFSET          SIZE    DESCRIPTION
//   0               8       "bplist00"
//   8               …       objects, each a marker byte and its payload
//   t               n × s   offset table: where each object starts, s bytes each, big-endian
//   end − 32        32      trailer: 5 unused, sort version, offset size s (1…8), reference size
//                           r (1…8), object count n, top object, offset table t (8 bytes each, BE)
//
//   MARKER      OBJECT      PAYLOAD
//   0000 1000   false
//   0000 1001   true
//   0001 nnnn   integer     2^n bytes, big-endian: 1, 2 and 4 unsigned, 8 signed, 16 signed 128
//   0010 nnnn   real        2^n bytes: 4 (float) or 8 (double)
//   0011 0011   date        8-byte double: seconds since 2001-01-01 00:00 UTC
//   0100 nnnn   data        n bytes (n = 1111: an integer object follows with the count)
//   0101 nnnn   ASCII       n bytes (same count rule; a byte above 127 reads as ISO Latin-1)
//   0110 nnnn   UTF-16      n big-endian code units (same count rule)
//   1000 nnnn   UID         n + 1 bytes, big-endian (32 bits kept)
//   1010 nnnn   array       n object references, r bytes each
//   1100 nnnn   set         (refused: no source we read writes one)
//   1101 nnnn   dictionary  n key references, then n value references
//
// Untrusted input: every offset, count and size is checked against the file before it is used
// (objects lie between the header and the offset table); references are checked against the
// object count; an object reached again while it is being decoded is a cycle; nesting is bounded;
// a shared object is decoded once and its value reused, and the values reached (shared ones each
// time) are counted and bounded, so no input expands without limit.

/// Decodes a binary property list (`bplist00`).
struct BinaryPropertyListReader {
  let bytes: [UInt8]
  private let offsetSize: Int
  private let referenceSize: Int
  let objectCount: Int
  let topObject: Int
  let tableOffset: Int
  /// Decoded objects, by index, with how many values each expands to.
  private var decoded: [Int: (value: PropertyListValue, size: Int)] = [:]
  /// Objects being decoded (on the current path from the top): reaching one again is a cycle.
  private var inProgress = Set<Int>()
  /// What a string holding an unpaired surrogate becomes.
  private let unpairedSurrogates: PropertyListReader.UnpairedSurrogates

  /// Reads the trailer of `bytes` (which start with `bplist00`).
  init(_ bytes: [UInt8], unpairedSurrogates: PropertyListReader.UnpairedSurrogates)
    throws(PropertyListError)
  {
    self.unpairedSurrogates = unpairedSurrogates
    guard bytes.count >= 8 + 1 + 32 else {
      throw PropertyListError(
        .truncated, "\(bytes.count) bytes is too short for a binary property list")
    }
    self.bytes = bytes
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw PropertyListError(
        .malformed,
        "the trailer's offset size (\(offsetSize)) or reference size (\(referenceSize)) is not 1 to 8"
      )
    }
    let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
    let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
    let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
    // Each object takes at least one byte between the header and the table, and the table n × s.
    guard count >= 1, table >= 9, table < UInt64(trailer),
      count <= (UInt64(trailer) - table) / UInt64(offsetSize), count <= table - 8
    else {
      throw PropertyListError(
        .truncated,
        "the trailer's object count (\(count)) or offset table (\(table)) does not fit the file")
    }
    guard top < count else {
      throw PropertyListError(
        .malformed, "the top object (\(top)) is not one of the \(count) objects")
    }
    objectCount = Int(count)
    topObject = Int(top)
    tableOffset = Int(table)
  }

  /// The top object, decoded.
  mutating func decode() throws(PropertyListError) -> PropertyListValue {
    try object(topObject, depth: 0).value
  }

  // MARK: - Objects

  private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> (
    value: PropertyListValue, size: Int
  ) {
    // A scalar or a string contains nothing (no cycle through it) and expands to one value:
    // decoded where it is, without the bookkeeping containers need (above the depth bound, the
    // path below decides, as for any object).
    if depth <= PropertyListReader.maximumDepth {
      let start = try offset(of: index)
      let kind = bytes[start] >> 4
      if kind != 0xA, kind != 0xD, kind != 0xB, kind != 0xC {
        return try parse(at: start, index: index, depth: depth)
      }
    }
    if let known = decoded[index] { return known }
    guard depth <= PropertyListReader.maximumDepth else {
      throw PropertyListError(
        .tooDeep, "containers are nested deeper than \(PropertyListReader.maximumDepth)")
    }
    guard inProgress.insert(index).inserted else {
      throw PropertyListError(.cycle, "object \(index) contains itself")
    }
    defer { inProgress.remove(index) }
    let start = try offset(of: index)
    let result = try parse(at: start, index: index, depth: depth)
    decoded[index] = result
    return result
  }

  /// Where object `index` starts.
  func offset(of index: Int) throws(PropertyListError) -> Int {
    let entry = tableOffset + index * offsetSize
    let offset = Self.bigEndian(bytes, at: entry, size: offsetSize)
    guard offset >= 8, offset < UInt64(tableOffset) else {
      throw PropertyListError(
        .truncated, "object \(index) starts at \(offset), outside the objects (8..<\(tableOffset))")
    }
    return Int(offset)
  }

  private mutating func parse(at start: Int, index: Int, depth: Int) throws(PropertyListError) -> (
    value: PropertyListValue, size: Int
  ) {
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch low {
      case 0x8: return (.bool(false), 1)
      case 0x9: return (.bool(true), 1)
      default:
        throw PropertyListError(
          .unsupportedObject,
          "object \(index) at \(start) has marker 0x\(String(marker, radix: 16)) (null or fill), which holds no value"
        )
      }
    case 0x1:
      if low == 4 {
        return (try sixteenByteInteger(at: start + 1, index: index), 1)
      }
      return (.integer(try integer(at: start + 1, sizeExponent: low, index: index)), 1)
    case 0x2:
      guard low == 2 || low == 3 else {
        throw PropertyListError(
          .malformed, "object \(index) is a real of \(1 << min(low, 8)) bytes")
      }
      let size = 1 << low
      try require(start + 1, size, index: index)
      let raw = Self.bigEndian(bytes, at: start + 1, size: size)
      let value =
        size == 4
        ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
      return (.real(value), 1)
    case 0x3:
      guard low == 3 else {
        throw PropertyListError(
          .malformed, "object \(index) has date marker 0x\(String(marker, radix: 16))")
      }
      try require(start + 1, 8, index: index)
      let seconds = Double(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8))
      guard seconds.isFinite else {
        throw PropertyListError(.malformed, "object \(index) is a date that is not a finite time")
      }
      guard abs(seconds) <= PropertyListReader.maximumDateSeconds else {
        throw PropertyListError(
          .unsupportedObject, "object \(index) is a date more than 100,000 years from 2001")
      }
      return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
    case 0x4:
      let (count, payload) = try count(at: start, low: low, index: index)
      try require(payload, count, index: index)
      return (.data(Array(bytes[payload..<(payload + count)])), 1)
    case 0x5:
      let (count, payload) = try count(at: start, low: low, index: index)
      try require(payload, count, index: index)
      // Bytes above 127 read as ISO Latin-1, as Core Foundation reads them.
      let stored = bytes[payload..<(payload + count)]
      if stored.allSatisfy({ $0 < 0x80 }) {
        return (.string(String(decoding: stored, as: UTF8.self)), 1)
      }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: stored.map { Unicode.Scalar($0) })
      return (.string(String(scalars)), 1)
    case 0x6:
      let (count, payload) = try count(at: start, low: low, index: index)
      guard count <= (tableOffset - payload) / 2 else {
        throw PropertyListError(
          .truncated, "object \(index) (a UTF-16 string of \(count) units) runs past the objects")
      }
      var units: [UInt16] = []
      units.reserveCapacity(count)
      for unit in 0..<count {
        units.append(UInt16(bytes[payload + 2 * unit]) << 8 | UInt16(bytes[payload + 2 * unit + 1]))
      }
      if unpairedSurrogates == .refused, !Self.isWellFormed(units) {
        throw PropertyListError(
          .unpairedSurrogate,
          "object \(index) is a UTF-16 string holding an unpaired surrogate, which no Swift string keeps"
        )
      }
      return (.string(String(decoding: units, as: UTF16.self)), 1)
    case 0x8:
      // Keyed-archive UIDs are 32 bits: wider ones keep their low 32, as Core Foundation keeps them.
      let size = low + 1
      try require(start + 1, size, index: index)
      let raw = Self.bigEndian(bytes, at: start + 1, size: min(size, 8))
      return (.uid(UInt32(truncatingIfNeeded: raw)), 1)
    case 0xA:
      let (count, payload) = try count(at: start, low: low, index: index)
      let references = try self.references(count, at: payload, index: index)
      var elements: [PropertyListValue] = []
      elements.reserveCapacity(count)
      var size = 1
      for reference in references {
        let element = try object(reference, depth: depth + 1)
        elements.append(element.value)
        size = try grow(size, by: element.size)
      }
      return (.array(elements), size)
    case 0xD:
      let (count, payload) = try count(at: start, low: low, index: index)
      let references = try self.references(2 * count, at: payload, index: index, pairs: count)
      var entries = PropertyListDictionary()
      var size = 1
      for pair in 0..<count {
        let key = try object(references[pair], depth: depth + 1)
        guard case .string(let name) = key.value else {
          throw PropertyListError(
            .unsupportedObject,
            "object \(index) is a dictionary whose key \(pair) is not a string, which no property list this package reads holds"
          )
        }
        let value = try object(references[count + pair], depth: depth + 1)
        // A key given twice (the same UTF-16 code units) keeps its first value, as Core Foundation
        // keeps it; keys that differ only by normalization are two keys.
        entries.addIfAbsent(name, value.value)
        size = try grow(size, by: value.size + 1)
      }
      return (.dictionary(entries), size)
    case 0xB, 0xC:
      throw PropertyListError(
        .unsupportedObject,
        "object \(index) is a set, which no property list this package reads holds")
    default:
      throw PropertyListError(
        .malformed,
        "object \(index) at \(start) has the unknown marker 0x\(String(marker, radix: 16))")
    }
  }

  /// A 16-byte integer object as Core Foundation reads it: its low 8 bytes, unsigned (the high 8
  /// are dropped); `.integer` when that fits 64 signed bits, else `.unsignedInteger`.
  private func sixteenByteInteger(at offset: Int, index: Int) throws(PropertyListError)
    -> PropertyListValue
  {
    try require(offset, 16, index: index)
    let low = Self.bigEndian(bytes, at: offset + 8, size: 8)
    return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
  }

  /// An integer object's value: 2^`sizeExponent` bytes at `offset`.
  func integer(at offset: Int, sizeExponent: Int, index: Int) throws(PropertyListError)
    -> Int64
  {
    guard sizeExponent <= 4 else {
      throw PropertyListError(
        .malformed, "object \(index) is an integer of 2^\(sizeExponent) bytes")
    }
    let size = 1 << sizeExponent
    try require(offset, size, index: index)
    switch size {
    case 1, 2, 4: return Int64(Self.bigEndian(bytes, at: offset, size: size))
    case 8: return Int64(bitPattern: Self.bigEndian(bytes, at: offset, size: 8))
    default:
      // 16 bytes: a signed 128-bit integer; only values that fit 64 signed bits are read.
      let high = Int64(bitPattern: Self.bigEndian(bytes, at: offset, size: 8))
      let low = Self.bigEndian(bytes, at: offset + 8, size: 8)
      let value = Int64(bitPattern: low)
      guard (high == 0 && value >= 0) || (high == -1 && value < 0) else {
        throw PropertyListError(
          .integerOutOfRange, "object \(index) is an integer that does not fit in 64 signed bits")
      }
      return value
    }
  }

  /// A container's or a string's count (in the marker, or in the integer object that follows it)
  /// and where its payload starts.
  func count(at start: Int, low: Int, index: Int) throws(PropertyListError) -> (
    count: Int, payload: Int
  ) {
    guard low == 0xF else { return (low, start + 1) }
    try require(start + 1, 1, index: index)
    let marker = bytes[start + 1]
    guard marker >> 4 == 0x1 else {
      throw PropertyListError(.malformed, "object \(index)'s count is not an integer")
    }
    let exponent = Int(marker & 0x0F)
    let value = try integer(at: start + 2, sizeExponent: exponent, index: index)
    guard value >= 0, value <= Int64(tableOffset) else {
      throw PropertyListError(
        .truncated, "object \(index)'s count (\(value)) does not fit the file")
    }
    return (Int(value), start + 2 + (1 << exponent))
  }

  /// `count` object references at `offset`, each checked against the object count.
  func references(_ count: Int, at offset: Int, index: Int, pairs: Int? = nil)
    throws(PropertyListError) -> [Int]
  {
    guard count <= (tableOffset - offset) / referenceSize else {
      throw PropertyListError(
        .truncated,
        "object \(index)'s \(pairs.map { "\($0) entries" } ?? "\(count) elements") run past the objects"
      )
    }
    var references: [Int] = []
    references.reserveCapacity(count)
    for position in 0..<count {
      let reference = Self.bigEndian(
        bytes, at: offset + position * referenceSize, size: referenceSize)
      guard reference < UInt64(objectCount) else {
        throw PropertyListError(
          .malformed, "object \(index) refers to object \(reference) of \(objectCount)")
      }
      references.append(Int(reference))
    }
    return references
  }

  /// Checks that `count` bytes at `offset` lie within the objects.
  func require(_ offset: Int, _ count: Int, index: Int) throws(PropertyListError) {
    guard count >= 0, offset <= tableOffset, count <= tableOffset - offset else {
      throw PropertyListError(.truncated, "object \(index) runs past the objects")
    }
  }

  /// `size + more`, refused beyond ``PropertyListReader/maximumValues``.
  private func grow(_ size: Int, by more: Int) throws(PropertyListError) -> Int {
    let total = size + more
    guard total <= PropertyListReader.maximumValues else {
      throw PropertyListError(
        .tooLarge,
        "the property list expands to more than \(PropertyListReader.maximumValues) values")
    }
    return total
  }

  /// True when every surrogate in `units` is half of a pair.
  static func isWellFormed(_ units: [UInt16]) -> Bool {
    var position = 0
    while position < units.count {
      switch units[position] {
      case 0xD800...0xDBFF:
        guard position + 1 < units.count, (0xDC00...0xDFFF).contains(units[position + 1]) else {
          return false
        }
        position += 2
      case 0xDC00...0xDFFF:
        return false
      default:
        position += 1
      }
    }
    return true
  }

  static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for position in offset..<(offset + size) { value = value << 8 | UInt64(bytes[position]) }
    return value
  }
}
