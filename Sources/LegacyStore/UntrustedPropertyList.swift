import Foundation

// BINARY PROPERTY LIST (what the set check reads; swift-corelibs-foundation CFBinaryPList.c)
//
//   OFFSET          SIZE  DESCRIPTION
//   0               8     "bplist00" (any file starting with "bplist" is checked)
//   end - 32        32    trailer: 6 unused bytes, offset size s (1 byte), reference size (1 byte),
//                         object count n, top object, table offset t (8 bytes each, big-endian)
//   t               n*s   the offset of each object in the file, s bytes each, big-endian
//   each object     1     marker byte: the high 4 bits are the type; 0xC_ is a set
//
// Foundation on Linux dereferences a null pointer while bridging any set to Swift (Swift 6.3.1;
// found by Fuzz/Sources/fuzz-mbfile): one hostile plist would kill the process. Sets never occur in
// the plists we read (defaults, Core Data metadata, backup plists, MBFile archives), so a binary
// plist listing a set object in its offset table is refused before Foundation parses it. When the
// trailer or the table does not fit in the file, Foundation refuses the file itself (it requires
// the table to end at the trailer), so nothing is scanned.

/// Why bytes could not be decoded as a property list.
public struct PropertyListDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

/// Decodes property lists from files we did not write.
public enum UntrustedPropertyList {
  /// Decodes `bytes` (XML, binary or OpenStep) with `PropertyListSerialization`, after refusing
  /// what Foundation cannot survive.
  ///
  /// - Throws: ``PropertyListDecodingError``.
  public static func decode(_ bytes: [UInt8]) throws(PropertyListDecodingError) -> (
    value: Any, format: PropertyListSerialization.PropertyListFormat
  ) {
    if hasSetObject(bytes) {
      throw PropertyListDecodingError(
        "a binary property list holding a set, which is not supported")
    }
    var format = PropertyListSerialization.PropertyListFormat.binary
    do {
      let value = try PropertyListSerialization.propertyList(
        from: Data(bytes), options: [], format: &format)
      return (value, format)
    } catch {
      throw PropertyListDecodingError("not a property list")
    }
  }

  /// True when `bytes` are a binary property list whose offset table points at a set object.
  static func hasSetObject(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 40, bytes.starts(with: "bplist".utf8) else { return false }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    guard (1...8).contains(offsetSize) else { return false }
    let count = bigEndian(bytes, at: trailer + 8, size: 8)
    let table = bigEndian(bytes, at: trailer + 24, size: 8)
    guard table < UInt64(trailer), count <= (UInt64(trailer) - table) / UInt64(offsetSize) else {
      return false
    }
    for index in 0..<Int(count) {
      let offset = bigEndian(bytes, at: Int(table) + index * offsetSize, size: offsetSize)
      if offset < UInt64(bytes.count), bytes[Int(offset)] & 0xF0 == 0xC0 { return true }
    }
    return false
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
