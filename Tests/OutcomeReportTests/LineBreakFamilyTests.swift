import Foundation
import Testing

@testable import OutcomeReport

/// Every line break a capture may carry ends a line: LF, CR LF, CR, NEL, U+2028, U+2029, form
/// feed, vertical tab, and HTML `<br>` in its spellings. Over a generated family (fixed seed):
/// tags separated by random mixes of them, in chunks of random sizes, are all counted.
@Suite struct LineBreakFamilyTests {
  static let breaks: [[UInt8]] = [
    [0x0A], [0x0D, 0x0A], [0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9], [0x0C], [0x0B],
    Array("<br>".utf8), Array("<BR/>".utf8), Array("<br />".utf8),
  ]
  static let outcomes = ["success", "no_new_data", "nothing_on_disk", "empty_store"]

  /// A small deterministic generator (SplitMix64).
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test func tagsSeparatedByAnyLineBreakAreAllCounted() {
    var generator = Generator(state: 0xB7EA)
    for member in 0..<60 {
      let count = Int.random(in: 1...12, using: &generator)
      var bytes: [UInt8] = []
      var expected = [String: Int]()
      for index in 0..<count {
        let outcome = Self.outcomes.randomElement(using: &generator)!
        expected[outcome, default: 0] += 1
        bytes += Array(
          "migration_outcome source=auto outcome=\(outcome) categories=\(index) dittos=\(index * 2) inserted=0"
            .utf8)
        // Without CR alone on purpose: a capture's line ends are decided once (CR only there).
        bytes += Self.breaks.randomElement(using: &generator)!
      }
      var scanner = OutcomeScanner(options: OutcomeScanner.Options(unit: .tag))
      scanner.beginInput(name: "member-\(member)")
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
        scanner.consume(bytes[start..<end])
        start = end
      }
      let summary = scanner.finish()
      #expect(summary.total == count, "member \(member): \(summary.total) of \(count) tags counted")
      for (outcome, number) in expected {
        let code = OutcomeCode(rawValue: outcome)!
        #expect(summary.byOutcome[code] == number, "member \(member): \(outcome)")
      }
    }
  }
}
