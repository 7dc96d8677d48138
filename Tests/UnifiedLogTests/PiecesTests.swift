import Foundation
import JSONOutput
import LogArchiveFixtures
import Testing

@testable import UnifiedLog

@Suite struct PiecesTests {
  @Test func lz4RoundTripsAndRefusesADistanceBeforeTheStart() throws {
    var generator = SystemRandomNumberGenerator()
    for size in [0, 1, 13, 100, 5000, 70_000] {
      let input = (0..<size).map { index in
        index % 17 < 9 ? UInt8(index % 5) : UInt8.random(in: 0...255, using: &generator)
      }
      let framed = LogArchiveWriter.compress(input, .lz4)
      #expect(try LZ4Stream.decode(framed[...]) == input)
      #expect(try LZ4Stream.decode(LogArchiveWriter.compress(input, .stored)[...]) == input)
    }
    // Token: 0 literals, a match at distance 5 with nothing written yet.
    var output: [UInt8] = []
    #expect(throws: FormatError.self) {
      try LZ4Stream.decodeBlock([0x00, 0x05, 0x00], expecting: 4, into: &output)
    }
  }

  @Test func formatStringsRenderAsLogShowDoes() {
    let arguments: [LogArgument] = [
      .string("done", valueType: 0x22), .scalar(0xFFFF_FFFF, size: 4, valueType: 0),
      .privateValue(valueType: 0x21), .precision(3, valueType: 0x12),
      .string("abcdef", valueType: 0x22), .scalar(255, size: 8, valueType: 0),
    ]
    #expect(
      FormatRenderer.render("%{public}s: %d %@ %.*s %#llx 100%%", arguments: arguments)
        == "done: -1 <private> abc 0xff 100%")
    #expect(
      FormatRenderer.render("%s and %s", arguments: [.string("a", valueType: 0x22)])
        == "a and <decode: missing data>")
  }

  @Test func timestampsPrintAsLogShowDoes() {
    #expect(LogShowFormat.timestamp(1_653_871_101_053_672_333) == "2022-05-30 00:38:21.053672+0000")
    #expect(
      LogShowFormat.timestamp(1_796_062_531_250_000_000, offsetMinutes: -480)
        == "2026-11-30 10:15:31.250000-0800")
    #expect(LogShowFormat.timestamp(0) == "1970-01-01 00:00:00.000000+0000")
  }

  @Test func wallClockIsExactIntegerArithmetic() {
    // 125/3: 3 ticks are 125 ns; a float timebase would land 1 ns low for some of these.
    #expect(LogContext.nanoseconds(96_370_345_288_136, 125, 3) == 4_015_431_053_672_333)
    #expect(LogContext.nanoseconds(3, 125, 3) == 125)
    #expect(LogContext.nanoseconds(UInt64.max, 125, 3) == Int64.max)
  }
}

@Suite struct JSONBytesTests {
  @Test(arguments: [
    "plain", "", "quote \" and back\\slash", "tab\tline\nreturn\r", "bell \u{7} nul \u{0}",
    "line sep \u{2028} para \u{2029} and \u{2022} bullet", "emoji 😀 and é", "\u{E2}",
  ])
  func stringsAreEscapedAsTheSlowPathEscapesThem(text: String) throws {
    var out = JSONBytes()
    out.string(text)
    let written = String(decoding: out.bytes, as: UTF8.self)
    #expect(written == JSONEscaping.quoted(text))
    let decoded =
      try JSONSerialization.jsonObject(
        with: Data(("[" + written + "]").utf8), options: []) as? [String]
    #expect(decoded == [text])
  }
}

@Suite struct ItemRangeTests {
  @Test func anItemOutsideItsDataIsUnreadableNeverEmptyOrPrivate() {
    let values: ArraySlice<UInt8> = Array("hello\u{0}".utf8)[...]
    // Offset 0, size 6: inside. Offset 4, size 40: outside the six bytes there are.
    let inside = TraceV3Parser.RawItem(type: 0x22, data: [0, 0, 6, 0][...])
    let outside = TraceV3Parser.RawItem(type: 0x22, data: [4, 0, 40, 0][...])
    let binary = TraceV3Parser.RawItem(type: 0x32, data: [4, 0, 40, 0][...])
    #expect(
      TraceV3Parser.argument(inside, values: values, privateData: [], privateOffset: 0)
        == .string("hello", valueType: 0x22))
    #expect(
      TraceV3Parser.argument(outside, values: values, privateData: [], privateOffset: 0)
        == .outOfRange(valueType: 0x22))
    #expect(
      TraceV3Parser.argument(binary, values: values, privateData: [], privateOffset: 0)
        == .outOfRange(valueType: 0x32))
    #expect(
      FormatRenderer.render("%{public}s", arguments: [.outOfRange(valueType: 0x22)])
        == "<decode: data out of range>")
  }
}
