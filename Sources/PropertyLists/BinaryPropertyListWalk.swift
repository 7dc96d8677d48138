/// What a walk of a binary property list hands on, object by object, in the order stored, without
/// building its values (``BinaryPropertyListWalk``). Strings come as UTF-8.
package protocol BinaryPropertyListVisitor {
  mutating func beginArray()
  mutating func endArray()
  mutating func beginDictionary()
  mutating func endDictionary()
  /// Before every element of an array and every key of a dictionary but the first.
  mutating func nextItem()
  /// A dictionary's key; its value follows.
  mutating func key(_ utf8: UnsafeBufferPointer<UInt8>)
  mutating func string(_ utf8: UnsafeBufferPointer<UInt8>)
  /// The file's top object is this string (nothing else is handed on).
  mutating func topString(_ utf8: UnsafeBufferPointer<UInt8>)
  mutating func integer(_ value: Int64)
  mutating func real(_ value: Double)
  mutating func bool(_ value: Bool)
  mutating func date(sinceReferenceDate seconds: Double)
  mutating func data(_ bytes: ArraySlice<UInt8>)
  mutating func uid(_ value: UInt32)
}

/// A binary property list handed to a visitor as it is stored, for a writer that needs no value
/// tree (a state dump turned into JSON): the common, well-formed case only. Whatever
/// ``PropertyListReader/decode(_:unpairedSurrogates:)`` has a decision to make about (any error, a
/// key given twice, a string with an unpaired surrogate, a 16-byte integer, nesting or expansion
/// near the bounds, a set) ends the walk with false, and the caller decodes the file instead:
/// the two give the same result for every file the walk takes.
package enum BinaryPropertyListWalk {
  /// Walks `bytes` (a `bplist0…` file) into `visitor`; false when the file is one the walk leaves
  /// to the decoder (see the type). On false the visitor may have been handed part of the file.
  package static func walk<Visitor: BinaryPropertyListVisitor>(
    _ bytes: [UInt8], into visitor: inout Visitor
  ) -> Bool {
    guard bytes.starts(with: Array("bplist0".utf8)),
      let reader = try? BinaryPropertyListReader(bytes, unpairedSurrogates: .refused)
    else { return false }
    var walker = Walker(reader: reader)
    guard let start = try? reader.offset(of: reader.topObject) else { return false }
    let kind = bytes[start] >> 4
    if kind == 0x5 || kind == 0x6 {
      return walker.string(at: start, index: reader.topObject) { visitor.topString($0) }
    }
    return walker.object(reader.topObject, depth: 0, into: &visitor)
  }

  private struct Walker {
    let reader: BinaryPropertyListReader
    /// Objects handed on so far, shared ones each time (as the decoder counts values).
    var visited = 0
    /// UTF-8 of the last string transcoded (Latin-1 or UTF-16 ones).
    var scratch: [UInt8] = []

    init(reader: BinaryPropertyListReader) {
      self.reader = reader
    }

    mutating func object<Visitor: BinaryPropertyListVisitor>(
      _ index: Int, depth: Int, into visitor: inout Visitor
    ) -> Bool {
      // Cycles end here too: a container reached inside itself nests without end.
      guard depth < PropertyListReader.maximumDepth,
        visited < PropertyListReader.maximumValues,
        let start = try? reader.offset(of: index)
      else { return false }
      visited += 1
      let bytes = reader.bytes
      let marker = bytes[start]
      let low = Int(marker & 0x0F)
      switch marker >> 4 {
      case 0x0:
        guard marker == 0x08 || marker == 0x09 else { return false }
        visitor.bool(marker == 0x09)
      case 0x1:
        guard low <= 3,
          let value = try? reader.integer(at: start + 1, sizeExponent: low, index: index)
        else { return false }
        visitor.integer(value)
      case 0x2:
        guard low == 2 || low == 3, (try? reader.require(start + 1, 1 << low, index: index)) != nil
        else { return false }
        let raw = BinaryPropertyListReader.bigEndian(bytes, at: start + 1, size: 1 << low)
        visitor.real(
          low == 2
            ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
      case 0x3:
        guard low == 3, (try? reader.require(start + 1, 8, index: index)) != nil else {
          return false
        }
        let seconds = Double(
          bitPattern: BinaryPropertyListReader.bigEndian(bytes, at: start + 1, size: 8))
        guard seconds.isFinite, abs(seconds) <= PropertyListReader.maximumDateSeconds else {
          return false
        }
        visitor.date(sinceReferenceDate: seconds)
      case 0x4:
        guard let (count, payload) = try? reader.count(at: start, low: low, index: index),
          (try? reader.require(payload, count, index: index)) != nil
        else { return false }
        visitor.data(bytes[payload..<(payload + count)])
      case 0x5, 0x6:
        return string(at: start, index: index) { visitor.string($0) }
      case 0x8:
        guard (try? reader.require(start + 1, low + 1, index: index)) != nil else { return false }
        let raw = BinaryPropertyListReader.bigEndian(bytes, at: start + 1, size: min(low + 1, 8))
        visitor.uid(UInt32(truncatingIfNeeded: raw))
      case 0xA:
        guard let (count, payload) = try? reader.count(at: start, low: low, index: index),
          let references = try? reader.references(count, at: payload, index: index)
        else { return false }
        visitor.beginArray()
        for (position, reference) in references.enumerated() {
          if position > 0 { visitor.nextItem() }
          guard object(reference, depth: depth + 1, into: &visitor) else { return false }
        }
        visitor.endArray()
      case 0xD:
        guard let (count, payload) = try? reader.count(at: start, low: low, index: index),
          let references = try? reader.references(
            2 * count, at: payload, index: index, pairs: count)
        else { return false }
        // A key given twice is the decoder's to settle (the first value is kept). Keys are told
        // apart by a hash of their bytes: two keys that merely hash alike are left to the
        // decoder too, which tells them apart.
        var keys: [UInt64] = []
        keys.reserveCapacity(min(count, 16))
        var keySet = Set<UInt64>()
        visitor.beginDictionary()
        for pair in 0..<count {
          if pair > 0 { visitor.nextItem() }
          guard depth + 1 < PropertyListReader.maximumDepth,
            visited < PropertyListReader.maximumValues,
            let keyStart = try? reader.offset(of: references[pair]),
            bytes[keyStart] >> 4 == 0x5 || bytes[keyStart] >> 4 == 0x6
          else { return false }
          visited += 1
          var fresh = true
          let taken = string(at: keyStart, index: references[pair]) { utf8 in
            let key = Self.hash(utf8)
            if count <= 16 {
              fresh = !keys.contains(key)
              keys.append(key)
            } else {
              fresh = keySet.insert(key).inserted
            }
            if fresh { visitor.key(utf8) }
          }
          guard taken, fresh,
            object(references[count + pair], depth: depth + 1, into: &visitor)
          else { return false }
        }
        visitor.endDictionary()
      default:
        return false
      }
      return true
    }

    /// FNV-1a of `bytes`.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
      return hash
    }

    /// The string object at `start` as UTF-8, to `use`; false when it is not one the walk takes
    /// (past the objects, an unpaired surrogate).
    mutating func string(
      at start: Int, index: Int, _ use: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
      let bytes = reader.bytes
      let marker = bytes[start]
      guard
        let (count, payload) = try? reader.count(at: start, low: Int(marker & 0x0F), index: index)
      else { return false }
      if marker >> 4 == 0x5 {
        guard (try? reader.require(payload, count, index: index)) != nil else { return false }
        let stored = bytes[payload..<(payload + count)]
        if stored.allSatisfy({ $0 < 0x80 }) {
          stored.withUnsafeBufferPointer(use)
          return true
        }
        // Bytes above 127 are ISO Latin-1, as Core Foundation reads them.
        scratch.removeAll(keepingCapacity: true)
        for byte in stored { UTF8.encode(Unicode.Scalar(byte)) { scratch.append($0) } }
        scratch.withUnsafeBufferPointer(use)
        return true
      }
      guard count <= (reader.tableOffset - payload) / 2 else { return false }
      scratch.removeAll(keepingCapacity: true)
      var position = payload
      let end = payload + 2 * count
      while position < end {
        let unit = UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
        position += 2
        var scalar = unit
        if unit >= 0xD800, unit <= 0xDFFF {
          guard unit <= 0xDBFF, position < end else { return false }
          let next = UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
          guard next >= 0xDC00, next <= 0xDFFF else { return false }
          position += 2
          scalar = 0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00)
        }
        guard let character = Unicode.Scalar(scalar) else { return false }
        UTF8.encode(character) { scratch.append($0) }
      }
      scratch.withUnsafeBufferPointer(use)
      return true
    }
  }
}
