import Foundation

/// Writes property lists: the defaults plist `migrate` updates, recovery files' and fixtures'
/// metadata. The same bytes on every platform and build for the same value (dictionary entries in
/// their ``PropertyListDictionary`` order, so a file read and written back keeps its keys where
/// they were; no Foundation in the way), and read back by ``PropertyListReader`` and by Apple's
/// own.
package enum PropertyListWriter {
  /// `value` encoded in `format`.
  package static func encode(_ value: PropertyListValue, format: PropertyListFormat) -> [UInt8] {
    switch format {
    case .binary:
      var encoder = BinaryEncoder()
      return encoder.encode(value)
    case .xml:
      var encoder = XMLEncoder()
      return encoder.encode(value)
    }
  }
}

/// `bplist00`: objects in depth-first order (no sharing), minimal integer, offset and reference
/// sizes, strings ASCII when they can be and UTF-16 otherwise.
private struct BinaryEncoder {
  private var objects: [[UInt8]] = []

  mutating func encode(_ value: PropertyListValue) -> [UInt8] {
    // First the number of objects (references are sized by it), then the objects themselves.
    let count = Self.objectCount(value)
    // Core Foundation's rule: a reference must be able to hold the object count itself (not only
    // the highest index), or the whole list is refused.
    let referenceSize = Self.byteCount(for: UInt64(count))
    _ = append(value, referenceSize: referenceSize)
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt64] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(UInt64(bytes.count))
      bytes += object
    }
    let tableOffset = UInt64(bytes.count)
    // Core Foundation's rule: an offset must be able to hold the offset table's own offset.
    let offsetSize = Self.byteCount(for: tableOffset)
    for offset in offsets { bytes += Self.bigEndian(offset, size: offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    bytes += Self.bigEndian(UInt64(objects.count), size: 8)
    bytes += Self.bigEndian(0, size: 8)
    bytes += Self.bigEndian(tableOffset, size: 8)
    return bytes
  }

  static func objectCount(_ value: PropertyListValue) -> Int {
    switch value {
    case .array(let elements): 1 + elements.reduce(0) { $0 + objectCount($1) }
    case .dictionary(let entries): 1 + entries.reduce(0) { $0 + 1 + objectCount($1.value) }
    default: 1
    }
  }

  /// Appends `value` (and what it holds) and returns its index.
  private mutating func append(_ value: PropertyListValue, referenceSize: Int) -> Int {
    let index = objects.count
    objects.append([])
    var bytes: [UInt8]
    switch value {
    case .bool(let flag): bytes = [flag ? 0x09 : 0x08]
    case .integer(let number): bytes = Self.integer(number)
    case .unsignedInteger(let number):
      // 8-byte integers are signed: a value above Int64.max takes 16 bytes (high 8 zero).
      bytes = [0x14] + [UInt8](repeating: 0, count: 8) + Self.bigEndian(number, size: 8)
    case .real(let number): bytes = [0x23] + Self.bigEndian(number.bitPattern, size: 8)
    case .date(let date):
      bytes = [0x33] + Self.bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
    case .data(let data): bytes = Self.header(0x4, count: data.count) + data
    case .string(let text):
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        bytes = Self.header(0x5, count: text.utf8.count) + Array(text.utf8)
      } else {
        let units = Array(text.utf16)
        bytes = Self.header(0x6, count: units.count)
        for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
      }
    case .uid(let number):
      let size = Self.byteCount(for: UInt64(number))
      bytes = [0x80 | UInt8(size - 1)] + Self.bigEndian(UInt64(number), size: size)
    case .array(let elements):
      bytes = Self.header(0xA, count: elements.count)
      for element in elements {
        bytes += Self.bigEndian(
          UInt64(append(element, referenceSize: referenceSize)), size: referenceSize)
      }
    case .dictionary(let entries):
      // In the dictionary's own order: a rewrite keeps every key where it was.
      bytes = Self.header(0xD, count: entries.count)
      var keyReferences: [UInt8] = []
      var valueReferences: [UInt8] = []
      for entry in entries {
        keyReferences += Self.bigEndian(
          UInt64(append(.string(entry.key), referenceSize: referenceSize)), size: referenceSize)
      }
      for entry in entries {
        valueReferences += Self.bigEndian(
          UInt64(append(entry.value, referenceSize: referenceSize)), size: referenceSize)
      }
      bytes += keyReferences + valueReferences
    }
    objects[index] = bytes
    return index
  }

  private static func integer(_ number: Int64) -> [UInt8] {
    if number < 0 { return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8) }
    switch number {
    case 0...0xFF: return [0x10] + bigEndian(UInt64(number), size: 1)
    case 0...0xFFFF: return [0x11] + bigEndian(UInt64(number), size: 2)
    case 0...0xFFFF_FFFF: return [0x12] + bigEndian(UInt64(number), size: 4)
    default: return [0x13] + bigEndian(UInt64(number), size: 8)
    }
  }

  private static func header(_ kind: UInt8, count: Int) -> [UInt8] {
    if count < 15 { return [kind << 4 | UInt8(count)] }
    return [kind << 4 | 0x0F] + integer(Int64(count))
  }

  static func byteCount(for value: UInt64) -> Int {
    switch value {
    case 0...0xFF: 1
    case 0...0xFFFF: 2
    case 0...0xFFFF_FFFF: 4
    default: 8
    }
  }

  static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
  }
}

/// Apple's XML layout: the declaration, the DOCTYPE, tabs for indentation.
private struct XMLEncoder {
  private var text = ""

  mutating func encode(_ value: PropertyListValue) -> [UInt8] {
    text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    write(value, depth: 0)
    text += "</plist>\n"
    return Array(text.utf8)
  }

  private mutating func write(_ value: PropertyListValue, depth: Int) {
    let indent = String(repeating: "\t", count: depth)
    switch value {
    case .string(let string): text += "\(indent)<string>\(Self.escaped(string))</string>\n"
    case .integer(let number): text += "\(indent)<integer>\(number)</integer>\n"
    case .unsignedInteger(let number): text += "\(indent)<integer>\(number)</integer>\n"
    case .real(let number): text += "\(indent)<real>\(Self.real(number))</real>\n"
    case .bool(let flag): text += "\(indent)<\(flag ? "true" : "false")/>\n"
    case .date(let date): text += "\(indent)<date>\(ISO8601Time.string(from: date))</date>\n"
    case .data(let data): text += "\(indent)<data>\(Base64.encode(data))</data>\n"
    case .uid(let number):
      write(["CF$UID": .integer(Int64(number))], depth: depth)
    case .array(let elements):
      guard !elements.isEmpty else {
        text += "\(indent)<array/>\n"
        return
      }
      text += "\(indent)<array>\n"
      for element in elements { write(element, depth: depth + 1) }
      text += "\(indent)</array>\n"
    case .dictionary(let entries):
      guard !entries.isEmpty else {
        text += "\(indent)<dict/>\n"
        return
      }
      text += "\(indent)<dict>\n"
      for entry in entries {
        text += "\(indent)\t<key>\(Self.escaped(entry.key))</key>\n"
        write(entry.value, depth: depth + 1)
      }
      text += "\(indent)</dict>\n"
    }
  }

  /// `text` with `&`, `<`, `>` and CR escaped, scalar by scalar (a `&` followed by a combining
  /// mark is one `Character` but still a `&`).
  static func escaped(_ text: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
      case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
      case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
      case "\r": escaped.append(contentsOf: "&#13;".unicodeScalars)
      default: escaped.append(scalar)
      }
    }
    return String(escaped)
  }

  static func real(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
    return "\(number)"
  }
}
