import Foundation
import StoreFixtures
import Telemetry
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

  /// `bytes` read as one capture, fed in chunks of 1 to `pieces` bytes, counted by tag.
  static func scan(
    _ bytes: [UInt8], name: String, pieces: Int, using generator: inout Generator
  ) -> OutcomeSummary {
    var scanner = OutcomeScanner(options: OutcomeScanner.Options(unit: .tag))
    scanner.beginInput(name: name)
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + Int.random(in: 1...pieces, using: &generator))
      scanner.consume(bytes[start..<end])
      start = end
    }
    return scanner.finish()
  }

  @Test func tagsSeparatedByAnyLineBreakAreAllCounted() {
    var generator = Generator(state: FamilySeed.base(0xB7EA))
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
      let summary = Self.scan(bytes, name: "member-\(member)", pieces: 64, using: &generator)
      #expect(summary.total == count, "member \(member): \(summary.total) of \(count) tags counted")
      for (outcome, number) in expected {
        let code = MigrationOutcome(rawValue: outcome)!
        #expect(summary.byOutcome[code] == number, "member \(member): \(outcome)")
      }
    }
  }
}

/// A capture pasted from a mail in quoted-printable (`=` written `=3D`, long lines cut by soft
/// breaks at any width) is decoded: every tag counted, over a generated family.
@Suite struct QuotedPrintableFamilyTests {
  /// `text` quoted-printable encoded, lines cut at `width` with soft breaks.
  static func encoded(_ text: String, width: Int, crlf: Bool) -> [UInt8] {
    var output: [UInt8] = []
    var column = 0
    let lineEnd: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
    for byte in Array(text.utf8) {
      if byte == 0x0A {
        output += lineEnd
        column = 0
        continue
      }
      let piece: [UInt8] =
        byte == UInt8(ascii: "=") || byte >= 0x7F
        ? Array("=".utf8) + Array(String(format: "%02X", byte).utf8) : [byte]
      if column + piece.count > width - 1 {
        output += Array("=".utf8) + lineEnd
        column = 0
      }
      output += piece
      column += piece.count
    }
    return output
  }

  @Test func aQuotedPrintablePasteLosesNoTag() {
    var generator = LineBreakFamilyTests.Generator(state: FamilySeed.base(0x9E7A))
    for member in 0..<40 {
      let count = Int.random(in: 1...8, using: &generator)
      var text =
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
      for index in 0..<count {
        let outcome = LineBreakFamilyTests.outcomes.randomElement(using: &generator)!
        text +=
          "2026-11-30 10:15:3\(index).000000-0800  0x1a2b  Default  0x0  1234  0  Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=\(outcome) categories=\(index) dittos=\(index) inserted=0\n"
      }
      let bytes = Self.encoded(
        text, width: Int.random(in: 40...120, using: &generator),
        crlf: Bool.random(using: &generator))
      let summary = LineBreakFamilyTests.scan(
        bytes, name: "mail-\(member)", pieces: 300, using: &generator)
      #expect(summary.total == count, "member \(member): \(summary.total) of \(count)")
    }
  }
}

/// A capture wrapped by `fold -w W` or `fold -s -w W` (W from 40 to 200), as a terminal or a mail
/// client leaves it: every tag is counted whole, wherever a cut falls (inside a value, after a
/// blank, inside the word `migration_outcome`), and nothing is left malformed or unreadable.
@Suite struct WrapWidthFamilyTests {
  /// `text` folded at `width` columns (ASCII), at the last blank within the width when
  /// `atBlanks` (the blank stays at the line's end, as `fold -s` leaves it).
  static func folded(_ text: String, width: Int, atBlanks: Bool) -> String {
    var output = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var rest = Substring(line)
      while rest.count > width {
        var cut = rest.index(rest.startIndex, offsetBy: width)
        if atBlanks, let blank = rest[..<cut].lastIndex(of: " ") {
          cut = rest.index(after: blank)
        }
        output += rest[..<cut] + "\n"
        rest = rest[cut...]
      }
      output += rest + "\n"
    }
    return String(output.dropLast())
  }

  @Test func everyTagOfAWrappedCaptureIsCountedAtAnyWidth() {
    var generator = LineBreakFamilyTests.Generator(state: FamilySeed.base(0xF01D))
    for member in 0..<80 {
      let count = Int.random(in: 1...10, using: &generator)
      var text = ""
      var expected = [String: Int]()
      for index in 0..<count {
        let outcome = LineBreakFamilyTests.outcomes.randomElement(using: &generator)!
        expected[outcome, default: 0] += 1
        let pid = Int.random(in: 1...99_999, using: &generator)
        text +=
          "2026-11-30 10:\(10 + index % 50):3\(index % 10).\(100_000 + member)-0800  0x\(String(pid, radix: 16))  Default  0x0  \(pid)  0  Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=\(Bool.random(using: &generator) ? "auto" : "manual") outcome=\(outcome) categories=\(index) dittos=\(index * 7) inserted=\(index)\n"
        if Bool.random(using: &generator) {
          text +=
            "2026-11-30 10:\(10 + index % 50):3\(index % 10).\(200_000 + member)-0800  0x1a2b  Default  0x0  \(pid)  0  Ditto: [io.kern.ditto:Keyboard] a line about something else entirely\n"
        }
      }
      let width = Int.random(in: 40...200, using: &generator)
      let atBlanks = Bool.random(using: &generator)
      let bytes = Array(Self.folded(text, width: width, atBlanks: atBlanks).utf8)
      let summary = LineBreakFamilyTests.scan(
        bytes, name: "wrapped-\(member)", pieces: 200, using: &generator)
      let how = "member \(member), width \(width)\(atBlanks ? " -s" : "")"
      #expect(summary.total == count, "\(how): \(summary.total) of \(count) tags counted")
      #expect(summary.malformed == 0, "\(how): \(summary.malformed) malformed")
      #expect(!summary.isIncomplete, "\(how): incomplete")
      for (outcome, number) in expected {
        #expect(
          summary.byOutcome[MigrationOutcome(rawValue: outcome)!] == number, "\(how): \(outcome)")
      }
    }
  }

  /// A tag that no join can read is not silently dropped: the sample is incomplete, and the line
  /// is named.
  @Test func aTagThatCannotBeReadMakesTheSampleIncompleteAndIsLocated() {
    var scanner = OutcomeScanner(options: OutcomeScanner.Options(unit: .tag))
    scanner.beginInput(name: "broken.log")
    scanner.consume(
      Array(
        "2026-11-30 10:15:30.000000-0800  0x1a2b  Default  0x0  1234  0  Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=success categories=1 dittos=1 inserted=1\n2026-11-30 10:15:31.000000-0800  0x1a2b  Default  0x0  1234  0  Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=succ#ss categories=1 dittos=1 inserted=1\n"
          .utf8)[...])
    let summary = scanner.finish()
    #expect(summary.total == 1)
    #expect(summary.malformed == 1)
    #expect(summary.isIncomplete)
    #expect(summary.incompleteDevices.first?.malformedLines == [2])
  }
}
