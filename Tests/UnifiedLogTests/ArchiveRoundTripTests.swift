import ByteStreams
import Foundation
import LogArchiveFixtures
import Testing

@testable import UnifiedLog

/// Archives written by our own writer read back entry for entry: every layout, both timebases,
/// LZ4 and stored ChunkSets, long strings in oversize chunks, private arguments.
@Suite struct ArchiveRoundTripTests {
  static func entries(count: Int = 40) -> [LogArchiveWriter.Entry] {
    (0..<count).map { index in
      let level: UInt8 = [0x00, 0x01, 0x00, 0x10, 0x02, 0x11][index % 6]
      let outcome = ["success", "no_new_data", "nothing_on_disk", "found_unreadable"][index % 4]
      var message =
        "migration_outcome source=auto outcome=\(outcome) categories=\(index % 5) dittos=\(index * 3) inserted=\(index)"
      if index % 9 == 4 { message += " " + String(repeating: "long ", count: 300) }
      return LogArchiveWriter.Entry(
        offsetNanoseconds: UInt64(index) * 1_250_000_000 + 375_000, pid: index % 7 == 3 ? 77 : 1234,
        thread: 0x1000 + UInt64(index % 3), level: level,
        subsystem: index % 8 == 5 ? nil : (index % 5 == 2 ? "io.kern.ditto" : "io.kern.ditto"),
        category: index % 6 == 1 ? "Sync" : "LegacyDataMigrator", message: message,
        isPrivate: index % 11 == 7)
    }
  }

  static func read(_ path: String) throws -> ([UnifiedLogEntry], UnifiedLogSummary) {
    let kind = try #require(UnifiedLogReader.kind(of: path))
    var entries: [UnifiedLogEntry] = []
    let summary = UnifiedLogReader.read(path, kind: kind) { entries.append($0) }
    return (entries, summary)
  }

  /// What the reader must give for `written`, in a comparable form, sorted by time.
  static func expected(_ written: [LogArchiveWriter.Entry], _ writer: LogArchiveWriter) -> [String]
  {
    written.map { entry in
      let time = writer.bootWallClock + Int64(entry.offsetNanoseconds)
      // A private argument whose bytes the file holds is shown, as `log show` shows it (the
      // writer records private data, as a device with private logging on does).
      let message = entry.message
      return
        "\(time) \(entry.pid) \(entry.thread) \(entry.messageType) \(entry.subsystem ?? "-"):\(entry.subsystem == nil ? "-" : entry.category) \(message)"
    }.sorted()
  }

  static func actual(_ read: [UnifiedLogEntry]) -> [String] {
    read.map { entry in
      "\(entry.timestampNanoseconds) \(entry.processID) \(entry.threadID) \(entry.messageType ?? "?") \(entry.subsystem ?? "-"):\(entry.subsystem == nil ? "-" : entry.category ?? "?") \(entry.eventMessage ?? "nil")"
    }.sorted()
  }

  @Test(arguments: [true, false], [LogArchiveWriter.Compression.lz4, .stored])
  func aLogArchiveReadsBackEntryForEntry(arm: Bool, compression: LogArchiveWriter.Compression)
    throws
  {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter(arm: arm, entriesPerChunkSet: 6)
    let written = Self.entries()
    let files = try writer.writeLogArchive(
      written, at: folder.path + "/device.logarchive", compression: compression)
    #expect(files.keys.contains("Special/0000000000000002.tracev3"))
    #expect(files.keys.contains("logdata.LiveData.tracev3"))
    let (read, summary) = try Self.read(folder.path + "/device.logarchive")
    #expect(summary.kind == .logArchive)
    #expect(summary.problems == [])
    #expect(summary.files.count == 4)
    #expect(summary.device == "D93AP 22B83")
    #expect(Self.actual(read) == Self.expected(written, writer))
    // The format string came from the uuidtext file, the process's path too.
    #expect(read.allSatisfy { $0.formatString == "%{public}s" || $0.formatString == "%{private}s" })
    #expect(read.allSatisfy { $0.processImagePath == writer.imagePath })
    #expect(read.contains { $0.eventMessage?.count ?? 0 > 1000 })
  }

  @Test(arguments: [true, false])
  func aSysdiagnoseReadsAsItsFolder(gzip: Bool) throws {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter()
    let written = Self.entries(count: 25)
    let path = folder.path + "/sysdiagnose.tar" + (gzip ? ".gz" : "")
    try Data(writer.sysdiagnose(written, gzip: gzip)).write(to: URL(fileURLWithPath: path))
    let (read, summary) = try Self.read(path)
    #expect(summary.kind == (gzip ? .gzippedTar : .tar))
    #expect(summary.problems == [])
    #expect(Self.actual(read) == Self.expected(written, writer))
  }

  @Test func aLooseTraceV3FileReadsWithItsNeighbours() throws {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter(arm: false)
    let written = Self.entries(count: 12).filter { $0.level == 0 }
    try writer.writeLogArchive(written, at: folder.path + "/a.logarchive")
    let (read, summary) = try Self.read(
      folder.path + "/a.logarchive/Persist/0000000000000003.tracev3")
    #expect(summary.kind == .traceV3)
    #expect(summary.problems == [])
    #expect(!read.isEmpty && read.allSatisfy { $0.formatString == "%{public}s" })
  }

  @Test func aFileCutShortIsNamedAndWhatCameBeforeIsRead() throws {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter(entriesPerChunkSet: 4)
    let written = Self.entries(count: 30).filter { $0.level == 0 }
    let files = try writer.writeLogArchive(written, at: folder.path + "/cut.logarchive")
    let name = "Persist/0000000000000001.tracev3"
    let whole = try #require(files[name])
    try Data(whole.prefix(whole.count - 40)).write(
      to: URL(fileURLWithPath: folder.path + "/cut.logarchive/" + name))
    let (read, summary) = try Self.read(folder.path + "/cut.logarchive")
    let problem = try #require(summary.problems.first)
    #expect(problem.file == name && problem.code == "truncated" && problem.isDamage)
    #expect(read.count > written.count / 2 && read.count < written.count)
  }

  @Test func anotherCompressionIsNamedNeverSilent() throws {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter(entriesPerChunkSet: 100)
    let written = Self.entries(count: 10).filter { $0.level == 0 }
    var bytes = writer.traceV3(written)
    // The ChunkSet's marker, bv41, becomes LZFSE's bvxn.
    let marker = Array("bv41".utf8)
    let at = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == marker })
    bytes.replaceSubrange(at..<at + 4, with: Array("bvxn".utf8))
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/0000000000000009.tracev3"))
    let (read, summary) = try Self.read(folder.path + "/0000000000000009.tracev3")
    #expect(read.isEmpty)
    let problem = try #require(summary.problems.first)
    #expect(problem.code == "unknown_compression" && problem.reason.contains("LZFSE"))
  }

  @Test func aFlagThisReaderDoesNotKnowIsNamed() throws {
    let folder = try TemporaryFolder()
    let written = [LogArchiveWriter.Entry(offsetNanoseconds: 1000, message: "hello")]
    var bytes = LogArchiveWriter().traceV3(written, compression: .stored)
    // The tracepoint: record type 4, level 0, flags 0x0202 (main_exe, subsystem) → 0x4202.
    let at = try #require(
      (0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == [0x04, 0x00, 0x02, 0x02] })
    bytes[at + 3] = 0x42
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/0000000000000001.tracev3"))
    let (_, summary) = try Self.read(folder.path + "/0000000000000001.tracev3")
    let problem = try #require(summary.problems.first { $0.code == "unknown_flag" })
    #expect(problem.reason.contains("0x4000") && problem.isDamage)
  }

  @Test func aChunkSizeBeyondAnyRealOneStopsTheFileOnceNamed() throws {
    let folder = try TemporaryFolder()
    let writer = LogArchiveWriter(entriesPerChunkSet: 2)
    let written = Self.entries(count: 8).filter { $0.level == 0 }
    var bytes = writer.traceV3(written, compression: .stored)
    // The second ChunkSet's size becomes 2^40: nothing after it can be placed.
    let marker: [UInt8] = [0x0D, 0x60, 0x00, 0x00]
    let sets = (0..<bytes.count - 4).filter { Array(bytes[$0..<$0 + 4]) == marker }
    let second = try #require(sets.dropFirst().first)
    bytes[second + 13] = 0x01
    try Data(bytes + [UInt8](repeating: 0x41, count: 4096)).write(
      to: URL(fileURLWithPath: folder.path + "/0000000000000001.tracev3"))
    let (read, summary) = try Self.read(folder.path + "/0000000000000001.tracev3")
    #expect(summary.problems.map(\.code) == ["damaged_chunk"])
    #expect(!read.isEmpty && read.count < written.count)
  }

  @Test func aDamagedGzipIsNamed() throws {
    let folder = try TemporaryFolder()
    var bytes = LogArchiveWriter().sysdiagnose(Self.entries(count: 10))
    bytes.removeLast(20)
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/s.tar.gz"))
    let (_, summary) = try Self.read(folder.path + "/s.tar.gz")
    #expect(summary.problems.contains { $0.isDamage })
  }
}

/// A private temporary folder, removed afterwards.
final class TemporaryFolder {
  let path: String
  init() throws {
    path = NSTemporaryDirectory() + "unified-log-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
}
