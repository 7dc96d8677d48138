import Foundation
import LogArchiveFixtures
import Testing

@testable import UnifiedLog

/// The unified-log fuzzer's seeds are archives of our own writer (`Fuzz/corpus/unified-log`):
/// `DITTO_WRITE_FUZZ_SEEDS=1 swift test --filter FuzzSeedTests` writes them again.
@Suite struct FuzzSeedTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/corpus/unified-log").path

  static func seeds() -> [String: [UInt8]] {
    let entries = ArchiveRoundTripTests.entries(count: 14)
    let arm = LogArchiveWriter(entriesPerChunkSet: 5)
    let intel = LogArchiveWriter(arm: false, entriesPerChunkSet: 3)
    return [
      "seed-tracev3-lz4": arm.traceV3(entries),
      "seed-tracev3-stored": intel.traceV3(entries, compression: .stored),
      "seed-sysdiagnose-tar": arm.sysdiagnose(Array(entries.prefix(6)), gzip: false),
      "seed-sysdiagnose-tar-gz": arm.sysdiagnose(Array(entries.prefix(6))),
    ]
  }

  @Test func theSeedsAreThereAndReadWhole() throws {
    let seeds = Self.seeds()
    if ProcessInfo.processInfo.environment["DITTO_WRITE_FUZZ_SEEDS"] == "1" {
      try FileManager.default.createDirectory(
        atPath: Self.folder, withIntermediateDirectories: true)
      for (name, bytes) in seeds {
        try Data(bytes).write(to: URL(fileURLWithPath: Self.folder + "/" + name))
      }
    }
    for (name, bytes) in seeds {
      let stored = try #require(FileManager.default.contents(atPath: Self.folder + "/" + name))
      #expect([UInt8](stored) == bytes, "\(name) is not what the writer writes now")
      let result = UnifiedLogBytes.read(bytes)
      #expect(result.entries > 0 && result.problems == 0, "\(name): \(result)")
    }
  }
}
