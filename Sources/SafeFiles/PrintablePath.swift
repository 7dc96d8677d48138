/// Turns raw path bytes into one printable line.
package enum PrintablePath {
  /// Valid UTF-8 is kept; `\` becomes `\\`; control characters become `\n`, `\t`, `\r` or `\xNN`;
  /// bytes that are not valid UTF-8 become `\xNN`.
  package static func escape(_ bytes: [UInt8]) -> String {
    // The usual name: no backslash, no control character, valid UTF-8 — kept as it is, in one
    // step (a container of hundreds of files is listed at every launch that migrates).
    if !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) {
      let text = String(decoding: bytes, as: UTF8.self)
      if text.utf8.elementsEqual(bytes) { return text }
    }
    var output = ""
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        switch byte {
        case UInt8(ascii: "\\"): output += "\\\\"
        case UInt8(ascii: "\n"): output += "\\n"
        case UInt8(ascii: "\t"): output += "\\t"
        case UInt8(ascii: "\r"): output += "\\r"
        case 0..<0x20, 0x7F: output += hex(byte)
        default: output.unicodeScalars.append(Unicode.Scalar(byte))
        }
        index += 1
        continue
      }
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      if length > 1, index + length <= bytes.count,
        let scalar = decodeScalar(bytes[index..<(index + length)])
      {
        output.unicodeScalars.append(scalar)
        index += length
      } else {
        output += hex(byte)
        index += 1
      }
    }
    return output
  }

  /// The one scalar `bytes` encode, or nil when they are not exactly one valid UTF-8 scalar.
  private static func decodeScalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
    guard case .emptyInput = decoder.decode(&iterator) else { return nil }
    return scalar
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
  }
}
