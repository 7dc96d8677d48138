import Foundation
import Telemetry
import Testing

@testable import OutcomeReport

/// Chunk boundaries, JSON reading object by object, inputs that switch styles, large inputs.
struct StreamingTests {
  /// All samples as one stream each, so that every style boundary is crossed.
  private static func allSamples() throws -> [[UInt8]] {
    try Samples.names.map { try Samples.bytes($0) }
  }

  @Test(arguments: [1, 2, 3, 7, 13, 4096])
  func chunkSizeNeverChangesTheResult(_ chunkSize: Int) throws {
    let inputs = try Self.allSamples()
    let whole = scan(inputs)
    let chunked = scan(inputs, chunkSize: chunkSize)
    #expect(chunked == whole)
    #expect(chunked.jsonText() == whole.jsonText())
  }

  @Test func consumeAcceptsNonContiguousCollections() throws {
    let bytes = try Samples.bytes("json.json")
    var scanner = OutcomeScanner()
    scanner.consume(bytes.lazy.map { $0 })
    #expect(scanner.finish() == scan([bytes]))
  }

  @Test func jsonStringsMayHoldBracesQuotesAndEscapes() {
    let text = #"""
      [{
        "eventMessage" : "quote \" brace } backslash \\",
        "subsystem" : "x", "category" : "y", "processID" : 1
      },{
        "eventMessage" : "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3",
        "subsystem" : "io.kern.ditto", "category" : "LegacyDataMigrator",
        "timestamp" : "2025-03-14 09:12:03.512345-0700", "processID" : 1234, "threadID" : 9,
        "processImagePath" : "\/var\/containers\/Bundle\/Application\/{X}\/Ditto.app\/Ditto",
        "backtrace" : { "frames" : [ { "imageOffset" : 1, "imageUUID" : "}{" } ] }
      },{
        "eventMessage" : "\\\" } { [ ] \\",
        "subsystem" : "io.kern.ditto", "category" : "LegacyDataMigrator"
      }]
      """#
    for chunkSize in [1, 5, 1000] {
      let summary = scan([Array(text.utf8)], chunkSize: chunkSize)
      #expect(summary.byOutcome == counts([.success: 1]))
      #expect(summary.tagSums == OutcomeSums(categories: 1, dittos: 2, inserted: 3))
      #expect(summary.malformed == 0)
      #expect(summary.ignored == 0)
    }
  }

  @Test func backslashRunsBeforeQuotesAtEveryChunkBoundary() throws {
    // Runs of 0–5 backslashes before quotes and braces; each object is followed by a tag.
    var objects: [String] = []
    for run in 0...5 {
      let tricky =
        String(repeating: "\\", count: run) + "\"}{\"" + String(repeating: "\\", count: run)
      let noise = try JSONSerialization.data(withJSONObject: ["eventMessage": tricky, "n": run])
      objects.append(String(decoding: noise, as: UTF8.self))
      objects.append(#"{"eventMessage":"\#(tag(.auto, .success))"}"#)
    }
    let text = "[" + objects.joined(separator: ",\n") + "]"
    for chunkSize in 1...17 {
      let summary = scan([Array(text.utf8)], chunkSize: chunkSize)
      #expect(summary.byOutcome == counts([.success: 6]), "chunk size \(chunkSize)")
      #expect(summary.malformed == 0)
    }
  }

  @Test func compactJSONArrayOnOneLine() {
    let objects = (0..<3).map { index in
      #"{"eventMessage":"\#(tag(.auto, .nothingOnDisk))","subsystem":"io.kern.ditto","#
        + #""category":"LegacyDataMigrator","timestamp":"t\#(index)","processID":1}"#
    }
    let summary = scan("[" + objects.joined(separator: ",") + "]")
    #expect(summary.byOutcome == counts([.nothingOnDisk: 3]))
  }

  @Test func textAfterAJSONArrayIsReadAsLines() {
    let text = [
      "Filtering the log data using \"subsystem == \\\"io.kern.ditto\\\"\"",
      "[{",
      #"  "eventMessage" : "\#(tag(.auto, .success))", "subsystem" : "io.kern.ditto","#,
      #"  "category" : "LegacyDataMigrator""#,
      "}]",
      "2025-03-14 09:12:03.512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] "
        + tag(.manual, .noNewData),
      "\t" + tag(.manual, .noNewData),
    ].joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.byOutcome == counts([.success: 1, .noNewData: 1]))
    #expect(summary.ignored == 1)
    #expect(summary.styles == [.json: 1])
  }

  @Test func bracketLineInAPlainFileDoesNotSwallowIt() {
    let text = ["[1/2] tags follow", tag(.auto, .success), "[", tag(.auto, .emptyStore)]
      .joined(separator: "\n")
    #expect(scan(text).byOutcome == counts([.success: 1, .emptyStore: 1]))
  }

  @Test func unfinishedJSONObjectMentioningTheTagIsMalformed() {
    let text = "[{\n  \"eventMessage\" : \"" + tag(.auto, .success) + "\",\n  \"subsystem\" : \"io"
    let summary = scan(text)
    #expect(summary.total == 0)
    #expect(summary.malformed == 1)
  }

  @Test func oversizedJSONObjectIsMalformedNotFatal() {
    let options = OutcomeScanner.Options(maximumLineLength: 4096)
    let text =
      "[{\"eventMessage\" : \"" + tag(.auto, .success) + "\", \"pad\" : \""
      + String(repeating: "y", count: 20_000) + "\"},{\"eventMessage\" : \""
      + tag(.auto, .nothingOnDisk) + "\"}]"
    let summary = scan([Array(text.utf8)], chunkSize: 777, options: options)
    #expect(summary.malformed == 1)
    #expect(summary.byOutcome == counts([.nothingOnDisk: 1]))
  }

  @Test func leadingByteOrderMarkIsDropped() throws {
    let array = Array(#"[{"eventMessage":"\#(tag(.auto, .success))"}]"#.utf8)
    let row = Array(("default\t09:12:03.512345-0700\tDitto\t" + tag(.auto, .success)).utf8)
    for bytes in [array, row, try Samples.bytes("console-default.txt")] {
      for chunkSize in [1, 2, 4096] {
        let summary = scan([[0xEF, 0xBB, 0xBF] + bytes], chunkSize: chunkSize)
        #expect(summary == scan([bytes]))
        #expect(summary.total > 0)
      }
    }
  }

  @Test func lastLineWithoutNewlineIsRead() {
    #expect(scan(tag(.auto, .success)).total == 1)
  }

  @Test func largeGeneratedLogFedInChunks() {
    // 200,000 lines of default style: every 50th line a tag, outcomes cycling; the rest noise.
    var text =
      "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
    var expected = OutcomeCounts()
    for index in 0..<200_000 {
      let minute = String(10 + index / 6000 % 50)
      let second = String(10 + index / 100 % 50)
      let time = "2025-03-14 09:\(minute):\(second).\(100_000 + index)-0700"
      if index % 50 == 0 {
        let outcome = MigrationOutcome.allCases[index / 50 % 5]
        expected[outcome] += 1
        text += "\(time) 0x1a2b3c   Default     0x0                  1234   0    Ditto: "
        text += "[io.kern.ditto:LegacyDataMigrator] \(tag(.auto, outcome, dittos: 2))\n"
      } else {
        text += "\(time) 0x1a2b3c   Info        0x0                  1234   0    Ditto: "
        text += "[io.kern.ditto:LegacyDataMigrator] inventory[appgroup] \(index)B /f\(index)\n"
      }
    }
    let bytes = Array(text.utf8)
    for chunkSize in [65_536, 4099] {
      let summary = scan([bytes], chunkSize: chunkSize, options: .init(unit: .tag))
      #expect(summary.byOutcome == expected)
      #expect(summary.total == 4000)
      #expect(summary.tagSums.dittos == 8000)
      #expect(summary.duplicates == 0)
      #expect(summary.ignored == 0)
      #expect(summary.verdict == .mixed)
      // As devices: one capture is one device, decided by its earliest automatic tag.
      let device = scan([bytes], chunkSize: chunkSize)
      #expect(device.devices.count == 1)
      #expect(device.devices.first?.tags == 4000)
      #expect(device.deviceCounts == counts([.success: 1]))
      #expect(device.verdict == .tooFew)
    }
  }

  @Test func scannerContinuesAfterFinish() {
    var scanner = OutcomeScanner()
    scanner.consume(Array(tag(.auto, .success).utf8))
    #expect(scanner.finish().total == 1)
    scanner.consume(Array(tag(.auto, .success).utf8))
    let summary = scanner.finish()
    #expect(summary.total == 2)
    #expect(summary.inputs == 2)
  }
}
