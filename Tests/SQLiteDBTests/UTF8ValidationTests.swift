import StoreFixtures
import Testing

@testable import SQLiteDB

/// The byte-level UTF-8 check behind `withValidUTF8Text` agrees with the standard library's decoder.
@Suite struct UTF8ValidationTests {
  func agrees(_ bytes: [UInt8]) -> Bool {
    let ours = bytes.withUnsafeBufferPointer { Statement.isValidUTF8($0) }
    return ours == (String.decodingIfValid(bytes, as: UTF8.self) != nil)
  }

  @Test func edgeCases() {
    let cases: [[UInt8]] = [
      [], Array("plain ascii, longer than eight bytes".utf8), Array("é😀漢字".utf8),
      [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x80, 0x80],
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
      [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82],
      Array("12345678".utf8) + [0xE2, 0x82], [0x41, 0xF0, 0x9F, 0x98], [0xC2, 0x41],
    ]
    for bytes in cases {
      #expect(agrees(bytes), "\(bytes)")
    }
  }

  @Test func randomSequencesAgree() {
    var generator = SeededGenerator(seed: 0x5EED)
    // Bytes biased toward lead and continuation bytes so most sequences are near-valid.
    let alphabet: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
      0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ]
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...12, using: &generator)
      let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
      #expect(agrees(bytes), "\(bytes)")
    }
  }
}
