import Exchange
import Testing

/// `CSVFormat.appendField` scans eight bytes at a time; it must quote exactly as the rule says,
/// whichever byte position the comma, quote, CR or LF sits at.
@Suite struct CSVFieldTests {
  /// RFC 4180 quoting written the plain way: quote when a field holds `"` `,` CR or LF or starts
  /// or ends with a space; double each quote.
  func expected(_ field: [UInt8]) -> [UInt8] {
    let special: Set<UInt8> = [0x22, 0x2C, 0x0A, 0x0D]
    let quoted =
      field.contains { special.contains($0) } || field.first == 0x20 || field.last == 0x20
    guard quoted else { return field }
    return [0x22] + field.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] } + [0x22]
  }

  func actual(_ field: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    field.withUnsafeBufferPointer { CSVFormat.appendField(utf8: $0, to: &output) }
    return output
  }

  @Test(arguments: [UInt8(0x22), 0x2C, 0x0A, 0x0D, 0x20, 0xC3])
  func everyPositionOfEverySpecialByte(special: UInt8) {
    for length in 1...20 {
      for position in 0..<length {
        var field = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        field[position] = special
        #expect(actual(field) == expected(field), "\(special) at \(position) of \(length)")
        // A second special byte later in the field (a quote after a comma, and so on).
        if position + 1 < length {
          field[length - 1] = 0x22
          #expect(actual(field) == expected(field), "\(special) at \(position) then a quote")
        }
      }
    }
    #expect(actual([]) == [])
  }
}
