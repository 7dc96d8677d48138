import Foundation
import LogArchiveFixtures
import StoreFixtures
import Testing

@testable import UnifiedLog

/// A tracev3 file reads the same however it arrives: whole, or in pieces of any size (a gzip
/// decoder's output, a tar member's blocks, a file's reads). A chunk's padding that comes with the
/// next piece is skipped, never read as the next chunk's header.
@Suite struct PieceSizeFamilyTests {
  static func read(_ bytes: [UInt8], pieces: [Int]) -> (entries: [String], problems: [String]) {
    var parser = TraceV3Parser(
      file: "pieces.tracev3", context: LogContext(timesyncFiles: []) { _ in nil })
    var entries: [String] = []
    var start = 0
    var index = 0
    while start < bytes.count {
      let size = pieces.isEmpty ? bytes.count : pieces[index % pieces.count]
      index += 1
      let end = min(bytes.count, start + size)
      parser.feed(bytes[start..<end]) { entries.append(LogShowFormat.ndjson($0)) }
      start = end
    }
    parser.finish { entries.append(LogShowFormat.ndjson($0)) }
    return (entries, parser.problems.map { "\($0.code): \($0.reason)" })
  }

  @Test func aFileFedInPiecesOfAnySizeReadsAsAWholeOne() {
    var generator = SeededGenerator(seed: FamilySeed.base(0x9EC3))
    for round in 0..<24 {
      let writer = LogArchiveWriter(
        arm: round % 2 == 0, seed: UInt8(round),
        entriesPerChunkSet: Int.random(in: 1...40, using: &generator))
      var entries: [LogArchiveWriter.Entry] = []
      for index in 0..<Int.random(in: 1...300, using: &generator) {
        let length = Int.random(in: 0...1_300, using: &generator)
        entries.append(
          LogArchiveWriter.Entry(
            offsetNanoseconds: UInt64(index) * 1_000_003, pid: UInt32(100 + index % 3),
            message: String(repeating: "x", count: length), isPrivate: index % 7 == 3 && length < 20
          ))
      }
      var dumps: [LogArchiveWriter.StateDump] = []
      for index in 0..<Int.random(in: 0...3, using: &generator) {
        let size = Int.random(in: 0...50, using: &generator)
        dumps.append(
          LogArchiveWriter.StateDump(
            offsetNanoseconds: UInt64(index) * 5, pid: 100, dataType: 2, title: "t\(index)",
            data: [UInt8](repeating: 1, count: size)))
      }
      let bytes = writer.traceV3(
        entries, stateDumps: dumps, compression: round % 3 == 0 ? .stored : .lz4)
      let whole = Self.read(bytes, pieces: [])
      #expect(whole.entries.count == entries.count + dumps.count, "round \(round)")
      #expect(whole.problems.isEmpty, "round \(round): \(whole.problems)")
      let pieces: [Int] =
        switch round % 4 {
        case 0: [1]
        case 1: (0..<13).map { _ in Int.random(in: 1...9, using: &generator) }
        case 2: (0..<13).map { _ in Int.random(in: 1...70_000, using: &generator) }
        default: [Int.random(in: 1...bytes.count, using: &generator)]
        }
      let split = Self.read(bytes, pieces: pieces)
      let firstDifference = split.entries.indices.first {
        $0 < whole.entries.count && split.entries[$0] != whole.entries[$0]
      }
      #expect(
        split.entries.count == whole.entries.count && firstDifference == nil,
        "round \(round): pieces \(pieces): \(split.entries.count) entries of \(whole.entries.count), first difference at \(firstDifference.map(String.init) ?? "none")"
      )
      #expect(split.problems == whole.problems, "round \(round): pieces \(pieces)")
    }
  }
}
