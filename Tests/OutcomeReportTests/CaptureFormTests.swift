import Foundation
import Testing

@testable import OutcomeReport

/// One capture of three tags, saved the ways people save text: CR-only and mixed line ends,
/// TextEdit's RTF, hard wraps at any width (cut mid-word, or at a blank the editor dropped), a
/// tag word split across lines. Every mention is read as a tag, or counted as unreadable (never
/// silently lost). The samples are made here, from the seed's line format.
@Suite struct CaptureFormTests {
  static let tags = [
    "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0",
    "migration_outcome source=manual outcome=success categories=4 dittos=28 inserted=28 salvaged=28",
    "migration_outcome source=manual outcome=no_new_data categories=4 dittos=28 inserted=0",
  ]

  /// `log show`'s default style: the predicate echo, the header, an inventory line, three tags.
  static let capture: [String] = {
    let prefix =
      "0x2f1a0c   Default     0x0                  812    0    Ditto: [io.kern.ditto:LegacyDataMigrator] "
    return [
      #"Filtering the log data using "subsystem == "io.kern.ditto" AND composedMessage CONTAINS "migration_outcome"""#,
      "Timestamp                       Thread     Type        Activity             PID    TTL  ",
      "2026-11-30 08:00:00.000001-0800 " + prefix + "inventory[appgroup] 40960B /Ditto.sqlite-wal",
    ]
      + tags.enumerated().map { index, tag in
        "2026-11-30 08:0\(index + 1):00.000001-0800 " + prefix + tag
      }
  }()

  static func expectAllThree(_ text: [UInt8], _ form: String) {
    for chunk in [1, 7, 4096, text.count] {
      let summary = scan([text], chunkSize: chunk)
      #expect(summary.total == 3, "\(form), chunks of \(chunk)")
      #expect(summary.unreadable == 0, "\(form), chunks of \(chunk)")
      #expect(summary.malformed == 0, "\(form), chunks of \(chunk)")
      #expect(summary.byOutcome[.success] == 1, "\(form)")
    }
  }

  @Test func lineEndsOfEveryKind() {
    let lines = Self.capture
    Self.expectAllThree(Array((lines.joined(separator: "\n") + "\n").utf8), "LF")
    Self.expectAllThree(Array((lines.joined(separator: "\r") + "\r").utf8), "CR only")
    Self.expectAllThree(Array((lines.joined(separator: "\r\n") + "\r\n").utf8), "CR LF")
    let ends = ["\n", "\r", "\r\n"]
    let mixed = lines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined()
    Self.expectAllThree(Array(mixed.utf8), "mixed")
  }

  /// TextEdit's "plain text in RTF": a font and color table, escaped braces and backslashes, a
  /// paragraph per line ending in "\" and a line break, non-ASCII as \uN.
  @Test func textEditRTF() {
    func escaped(_ line: String) -> String {
      line.unicodeScalars.map { scalar -> String in
        switch scalar {
        case "\\", "{", "}": return "\\" + String(scalar)
        case _ where scalar.value > 127:
          return String(scalar).utf16.map { "\\uc0\\u\(Int16(bitPattern: $0)) " }.joined()
        default: return String(scalar)
        }
      }.joined()
    }
    let header = """
      {\\rtf1\\ansi\\ansicpg1252\\cocoartf2761
      \\cocoatextscaling0\\cocoaplatform0{\\fonttbl\\f0\\fmodern\\fcharset0 Courier;}
      {\\colortbl;\\red255\\green255\\blue255;}
      {\\*\\expandedcolortbl;;}
      \\paperw11900\\paperh16840\\margl1440\\margr1440\\vieww11520\\viewh8400\\viewkind0
      \\pard\\tx560\\tx1120\\pardirnatural\\partightenfactor0

      \\f0\\fs24 \\cf0 
      """
    let body = (Self.capture + ["caf\u{E9} \u{1F600} {braces} back\\slash"]).map(escaped)
      .joined(separator: "\\\n")
    let rtf = Array((header + body + "}").utf8)
    Self.expectAllThree(rtf, "RTF")
    var decoder = RTFText()
    var text: [UInt8] = []
    decoder.feed(rtf, into: &text)
    let shown = String(decoding: text, as: UTF8.self)
    #expect(shown.hasPrefix("Filtering the log data"))
    #expect(shown.hasSuffix("caf\u{E9} \u{1F600} {braces} back\\slash"))
    #expect(!shown.contains("Courier"))
  }

  /// Hard wraps: `fold` cuts at the width (mid-word); a word wrap breaks at a blank, which the
  /// editor keeps or drops; the tag's own word may be cut.
  @Test(arguments: [100, 80, 60, 50, 40])
  func hardWrapsAtAnyWidth(width: Int) {
    func fold(_ line: String, keepBlank: Bool, wordWrap: Bool) -> [String] {
      var pieces: [String] = []
      var rest = Substring(line)
      while rest.count > width {
        var cut = rest.index(rest.startIndex, offsetBy: width)
        if wordWrap, let blank = rest[..<cut].lastIndex(of: " "), blank > rest.startIndex {
          cut = blank
          pieces.append(String(rest[..<cut]) + (keepBlank ? " " : ""))
          rest = rest[rest.index(after: cut)...]
        } else {
          pieces.append(String(rest[..<cut]))
          rest = rest[cut...]
        }
      }
      pieces.append(String(rest))
      return pieces
    }
    for (keepBlank, wordWrap) in [(false, false), (true, true), (false, true)] {
      let text =
        Self.capture.flatMap { fold($0, keepBlank: keepBlank, wordWrap: wordWrap) }
        .joined(separator: "\n") + "\n"
      let form = "wrapped at \(width), word wrap \(wordWrap), blank kept \(keepBlank)"
      if width >= 60 {
        Self.expectAllThree(Array(text.utf8), form)
      } else {
        // Narrower wraps can cut the timestamp and columns of an entry's first line: what is not
        // read is still counted, so the verdict says the sample is incomplete.
        let summary = scan([Array(text.utf8)], chunkSize: 7)
        #expect(summary.total + summary.unreadable + summary.malformed >= 3, "\(form)")
        #expect(summary.total == 3 || summary.unreadable > 0, "\(form)")
      }
    }
  }

  /// An unreadable mention is named by its line.
  @Test func anUnreadableMentionIsNamedByItsLine() {
    let text = "first line\nnotes: the migration_outcome tag was here\nthird\n"
    let summary = scan([Array(text.utf8)])
    #expect(summary.unreadable == 1)
    #expect(summary.devices.first?.unreadableLines == [2])
    #expect(summary.devices.first?.isIncomplete == true)
  }

  /// A mention that cannot be read is never silent: counted, so the sample is incomplete.
  @Test func aMentionThatCannotBeReadIsCounted() {
    let text = Self.capture.joined(separator: "\n") + "\nsomething migration_outcome garbled\n"
    let summary = scan([Array(text.utf8)])
    #expect(summary.total == 3)
    #expect(summary.unreadable + summary.malformed + summary.ignored >= 1)
  }
}
