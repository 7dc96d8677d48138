import Foundation
import PropertyLists
import StoreFixtures
import Testing

@testable import UnifiedLog

/// A state dump's property list is written as JSON straight from its bytes when the walk takes it,
/// and decoded first otherwise: over a generated family of property lists (every kind of value,
/// Unicode and Latin-1 strings, shared objects, dictionaries of many keys, keys given twice) and
/// of damaged copies of them, the message is the same either way, byte for byte.
@Suite struct StateDumpWalkFamilyTests {
  /// The message as the decoder gives it (the walk left out).
  static func decoded(_ bytes: [UInt8]) -> String {
    do {
      let object = try PropertyListReader.decode(bytes).value
      if case .string(let text) = object { return text }
      var output: [UInt8] = []
      StateDumpMessage.appendJSON(object, to: &output)
      return String(decoding: output, as: UTF8.self)
    } catch {
      return "<decode: not a property list (\(bytes.count) bytes): \(error.reason)>"
    }
  }

  static let texts = [
    "", "a", "café", "e\u{301}", "\"quoted\"\n\\/", "日本", "tab\there", "🙂", "\u{2028}", "\u{0}",
    "Ünïcödé \u{7F}", "ÿ",
  ]

  static func randomValue(depth: Int, using generator: inout SeededGenerator) -> PropertyListValue {
    switch Int.random(in: 0..<(depth > 0 ? 11 : 9), using: &generator) {
    case 0: return .string(texts.randomElement(using: &generator)! + String(depth))
    case 1: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator))
    case 2: return .integer(Int64.random(in: -300...300, using: &generator))
    case 3: return .bool(Bool.random(using: &generator))
    case 4:
      let choices = [0.5, -1e300, 1e-7, 3.0, Double.pi, 1e15, 123_456_789.125]
      return .real(choices.randomElement(using: &generator)!)
    case 5:
      return .date(
        Date(timeIntervalSinceReferenceDate: Double.random(in: -4e9...4e9, using: &generator)))
    case 6:
      return .data(
        (0..<Int.random(in: 0...20, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        })
    case 7: return .uid(UInt32.random(in: 0...UInt32.max, using: &generator))
    case 8:
      return .unsignedInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator))
    case 9:
      return .array(
        (0..<Int.random(in: 0...5, using: &generator)).map { _ in
          randomValue(depth: depth - 1, using: &generator)
        })
    default:
      var dictionary = PropertyListDictionary()
      let many = Int.random(in: 0..<5, using: &generator) == 0
      for index in 0..<Int.random(in: many ? 17...40 : 0...6, using: &generator) {
        dictionary[texts.randomElement(using: &generator)! + "\(index % 9)"] = randomValue(
          depth: depth - 1, using: &generator)
      }
      return .dictionary(dictionary)
    }
  }

  /// A binary property list of one dictionary whose key "k" is stored twice (the first value
  /// kept by the decoder), which no writer of ours makes.
  static let keyGivenTwice: [UInt8] = {
    var bytes = Array("bplist00".utf8)
    // 0: {k: 1, k: 2}  1: "k"  2: 1  3: 2
    let objects: [[UInt8]] = [
      [0xD2, 1, 1, 2, 3], [0x51, UInt8(ascii: "k")], [0x10, 1], [0x10, 2],
    ]
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = bytes.count
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    return bytes
  }()

  @Test func theWalkAndTheDecoderGiveTheSameMessage() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x3A1C))
    var walked = 0
    var members: [[UInt8]] = [Self.keyGivenTwice]
    for _ in 0..<300 {
      members.append(
        PropertyListWriter.encode(Self.randomValue(depth: 3, using: &generator), format: .binary))
    }
    for (number, bytes) in members.enumerated() {
      var copies = [bytes]
      // Damaged: a few bytes changed anywhere, or the file cut.
      for _ in 0..<3 {
        var damaged = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
        copies.append(damaged)
      }
      copies.append(Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))))
      for copy in copies {
        var writer = StateDumpMessage.JSONWriter()
        if BinaryPropertyListWalk.walk(copy, into: &writer) { walked += 1 }
        let message = StateDumpMessage.value(
          type: 1, library: "", decoder: "", data: ArraySlice(copy))
        #expect(message == Self.decoded(copy), "member \(number): \(copy)")
      }
    }
    // The walk takes the common case (else this family would test the decoder twice).
    #expect(walked >= 300)
    var twice = StateDumpMessage.JSONWriter()
    #expect(!BinaryPropertyListWalk.walk(Self.keyGivenTwice, into: &twice))
  }
}
