import SQLiteDB

// BYTE ACCESS FOR THE DECODER
//
// Every multi-byte integer in an SQLite database file, a WAL file, a b-tree page and a record is
// big-endian (the WAL checksum words excepted: their order is chosen by the WAL magic number).
// Every read here is bounds-checked and answers nil past the end: a damaged or truncated page is
// an ordinary input, never a crash.
//
// VARINT (https://www.sqlite.org/fileformat2.html#varint)
//
//   A variable-length 64-bit integer of 1 to 9 bytes. Bytes 1..8 carry 7 bits each, most
//   significant first, and have their high bit set when another byte follows. A 9th byte, when
//   present, carries 8 bits. So 0x7F is 127, 0x81 0x00 is 128, and nine bytes hold any 64-bit value.
//
//   A varint is valid here if and only if (1) it starts inside the buffer and (2) every byte it
//   needs is inside the buffer. A varint that runs off the end answers nil.

extension Array where Element == UInt8 {
  /// The byte at `offset`, nil outside the buffer.
  @inline(__always)
  func byte(at offset: Int) -> UInt8? {
    offset >= 0 && offset < count ? self[offset] : nil
  }

  /// A big-endian unsigned integer of `size` bytes (1...8) at `offset`, nil when it runs off the end.
  func bigEndian(at offset: Int, size: Int) -> UInt64? {
    guard size >= 1, size <= 8, offset >= 0, offset <= count - size else { return nil }
    var value: UInt64 = 0
    for index in offset..<(offset + size) {
      value = value << 8 | UInt64(self[index])
    }
    return value
  }

  /// A big-endian 16-bit value at `offset`.
  func uint16(at offset: Int) -> Int? {
    bigEndian(at: offset, size: 2).map { Int($0) }
  }

  /// A big-endian 32-bit value at `offset`.
  func uint32(at offset: Int) -> UInt32? {
    bigEndian(at: offset, size: 4).map { UInt32(truncatingIfNeeded: $0) }
  }

  /// A big-endian two's-complement integer of `size` bytes (1...8) at `offset`.
  func signedBigEndian(at offset: Int, size: Int) -> Int64? {
    guard let raw = bigEndian(at: offset, size: size) else { return nil }
    guard size < 8 else { return Int64(bitPattern: raw) }
    let shift = UInt64(64 - 8 * size)
    // Sign-extend: move the value's top bit to bit 63, then shift back arithmetically.
    return Int64(bitPattern: raw << shift) >> Int64(shift)
  }

  /// The SQLite varint at `offset` and its length in bytes, nil when it runs off the end.
  func varint(at offset: Int) -> (value: Int64, length: Int)? {
    guard offset >= 0 else { return nil }
    var value: UInt64 = 0
    for index in 0..<8 {
      guard let byte = byte(at: offset + index) else { return nil }
      value = value << 7 | UInt64(byte & 0x7F)
      if byte & 0x80 == 0 { return (Int64(bitPattern: value), index + 1) }
    }
    guard let last = byte(at: offset + 8) else { return nil }
    value = value << 8 | UInt64(last)
    return (Int64(bitPattern: value), 9)
  }

  /// `length` bytes from `offset`, nil when any of them is outside the buffer.
  func bytes(at offset: Int, count length: Int) -> [UInt8]? {
    guard offset >= 0, length >= 0, offset <= count - length else { return nil }
    return Array(self[offset..<(offset + length)])
  }

  /// True when the `length` bytes from `offset` are inside the buffer and all zero.
  func isZero(from offset: Int, count length: Int) -> Bool {
    guard offset >= 0, length >= 0, offset <= count - length else { return false }
    return self[offset..<(offset + length)].allSatisfy { $0 == 0 }
  }
}

/// Decodes `bytes` as text in the database's encoding, nil when they are not valid text.
///
/// A damaged value must not come back as a plausible but wrong text, so invalid UTF-8 (or an odd
/// UTF-16 length, or an unpaired surrogate) is refused rather than repaired.
func decodeText(_ bytes: [UInt8], encoding: TextEncoding) -> String? {
  switch encoding {
  case .utf8:
    return String.decodingIfValid(bytes, as: UTF8.self)
  case .utf16le, .utf16be:
    guard bytes.count % 2 == 0 else { return nil }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = 0
    while index + 1 < bytes.count {
      let first = UInt16(bytes[index])
      let second = UInt16(bytes[index + 1])
      units.append(encoding == .utf16le ? second << 8 | first : first << 8 | second)
      index += 2
    }
    return String.decodingIfValid(units, as: UTF16.self)
  }
}

/// The text encoding recorded in the database header (offset 56).
enum TextEncoding: Int, Sendable {
  case utf8 = 1
  case utf16le = 2
  case utf16be = 3
}
