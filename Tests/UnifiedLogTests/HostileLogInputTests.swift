import ByteStreams
import Foundation
import LogArchiveFixtures
import StoreFixtures
import Testing

@testable import UnifiedLog

/// Bytes from outside, over families (fixed seeds here; `scripts/fuzz` draws fresh ones): every
/// tar header size and pax record length a named error or read, never a trap; a damaged tail of
/// any length a few lines per kind, never one problem per 16 bytes; every tracepoint of a chunk
/// read, the shortest last one included.
@Suite struct HostileLogInputTests {
  /// A ustar header for `name` of `size` written as base-256 (`sizeField`, 12 bytes), its
  /// checksum right.
  static func header(name: String, sizeField: [UInt8], type: UInt8 = UInt8(ascii: "0")) -> [UInt8] {
    var header = Array(TarWriter.file(name, []).prefix(512))
    header.replaceSubrange(124..<136, with: sizeField)
    header[156] = type
    for index in 148..<156 { header[index] = UInt8(ascii: " ") }
    let sum = header.reduce(0) { $0 + Int($1) }
    let digits = Array(String(sum, radix: 8).utf8)
    header.replaceSubrange(
      148..<154, with: [UInt8](repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits)
    header[154] = 0
    header[155] = UInt8(ascii: " ")
    return header
  }

  /// Feeds `bytes` to a tar reader in pieces; the error, if any.
  static func readTar(_ bytes: [UInt8], pieces: Int = 700) -> TarError? {
    var reader = TarReader()
    var index = 0
    do throws(TarError) {
      while index < bytes.count {
        let end = min(bytes.count, index + pieces)
        try reader.feed(bytes[index..<end]) { _ in }
        index = end
      }
      try reader.finish()
      return nil
    } catch {
      return error
    }
  }

  @Test func baseTwoFiftySixSizesOfEveryWidthAreReadOrNamed() {
    var generator = SeededGenerator(seed: 0x7A2)
    var named = 0
    for _ in 0..<400 {
      var field = [UInt8](repeating: 0, count: 12)
      field[0] = 0x80
      // From small to 2^63 and past: every byte count of the value.
      let width = Int.random(in: 1...11, using: &generator)
      for index in (12 - width)..<12 { field[index] = UInt8.random(in: 0...255, using: &generator) }
      let bytes =
        Self.header(name: "system_logs.logarchive/x.tracev3", sizeField: field)
        + [UInt8](repeating: 0x41, count: 1024) + [UInt8](repeating: 0, count: 1024)
      if let error = Self.readTar(bytes) {
        #expect(!error.reason.isEmpty)
        named += 1
      }
    }
    #expect(named > 0)
  }

  @Test func paxRecordsOfEveryDeclaredLengthAreReadOrIgnored() {
    var generator = SeededGenerator(seed: 0x9A8)
    for length in 0..<64 {
      for _ in 0..<8 {
        let value = String(repeating: "p", count: Int.random(in: 0...20, using: &generator))
        var record = Array("\(length) path=\(value)\n".utf8)
        if Bool.random(using: &generator) {
          record.removeLast(Int.random(in: 0...record.count, using: &generator))
        }
        var size = [UInt8](repeating: UInt8(ascii: "0"), count: 11) + [0]
        let digits = Array(String(record.count, radix: 8).utf8)
        size.replaceSubrange((11 - digits.count)..<11, with: digits)
        var pax = Self.header(name: "PaxHeader/x", sizeField: size, type: UInt8(ascii: "x"))
        pax += record
        while pax.count % 512 != 0 { pax.append(0) }
        let bytes =
          pax + TarWriter.file("system_logs.logarchive/a.tracev3", [1, 2, 3])
          + [UInt8](repeating: 0, count: 1024)
        _ = Self.readTar(bytes, pieces: Int.random(in: 1...900, using: &generator))
      }
    }
  }

  /// A real file with a zero-filled tail (a copy cut short on a preallocating disk) or garbage
  /// chunks: its entries, and a few lines per kind of problem whatever the tail's length.
  /// A link inside an archive (a folder of tracev3 files elsewhere, a file) is not followed, and
  /// is named; the files that are the archive's own are read.
  @Test func aLinkInsideAnArchiveIsNamedNotFollowed() throws {
    let folder = try TemporaryFolder()
    let written = ArchiveRoundTripTests.entries(count: 6)
    let bytes = LogArchiveWriter().traceV3(written, compression: .lz4)
    let archive = folder.path + "/device.logarchive"
    let elsewhere = folder.path + "/elsewhere"
    for path in [archive + "/Persist", elsewhere] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: archive + "/Persist/0000000000000001.tracev3"))
    try Data(bytes).write(to: URL(fileURLWithPath: elsewhere + "/0000000000000002.tracev3"))
    #expect(symlink(elsewhere, archive + "/Special") == 0)
    let (read, summary) = try ArchiveRoundTripTests.read(archive)
    #expect(read.count == written.count, "only the archive's own file is read")
    #expect(summary.files == ["Persist/0000000000000001.tracev3"])
    #expect(summary.problems.contains { $0.code == "link_not_followed" && $0.file == "Special" })
  }

  @Test func aDamagedTailOfAnyLengthIsAFewLinesPerKind() throws {
    var generator = SeededGenerator(seed: 0x2E0)
    let written = ArchiveRoundTripTests.entries(count: 12)
    let clean = LogArchiveWriter().traceV3(written, compression: .lz4)
    for _ in 0..<12 {
      let folder = try TemporaryFolder()
      let tailLength = Int.random(in: 1...(1 << 20), using: &generator)
      var tail = [UInt8](repeating: 0, count: tailLength)
      let garbage = Bool.random(using: &generator)
      if garbage {
        // Unknown chunks: random tags with sizes that fit.
        var index = 0
        while index + 16 <= tail.count {
          let tag = UInt32.random(in: 0x7000...0x7FFF, using: &generator)
          for byte in 0..<4 { tail[index + byte] = UInt8(truncatingIfNeeded: tag >> (8 * byte)) }
          index += 16
        }
      }
      let path = folder.path + "/0000000000000001.tracev3"
      try Data(clean + tail).write(to: URL(fileURLWithPath: path))
      let (read, summary) = try ArchiveRoundTripTests.read(path)
      #expect(read.count == written.count)
      let byKind = Dictionary(grouping: summary.problems, by: \.code)
      for (code, problems) in byKind {
        #expect(
          problems.count <= TraceV3Parser.problemsListedPerKind + 1,
          "\(code): \(problems.count) lines for a tail of \(tailLength) bytes")
      }
      if garbage, tailLength >= 16 * (TraceV3Parser.problemsListedPerKind + 1) {
        #expect(summary.problems.contains { $0.reason.contains("more problems of this kind") })
      }
      if !garbage, tailLength >= 8 {
        // Zeros are one run, named once with its length.
        #expect(summary.problems.filter { $0.code == "zero_fill" }.count == 1)
      }
    }
  }

  /// Every tracepoint of a chunk is read, the last one too however short its data (Apple's
  /// public size ends 16 bytes before the tracepoints do).
  @Test func theLastTracepointOfEveryChunkIsRead() throws {
    var generator = SeededGenerator(seed: 0x1A5)
    for _ in 0..<30 {
      let count = Int.random(in: 1...9, using: &generator)
      let written = (0..<count).map { index in
        LogArchiveWriter.Entry(
          offsetNanoseconds: UInt64(index + 1) * 1_000_000,
          subsystem: Bool.random(using: &generator) ? "io.kern.ditto" : nil,
          message: String(repeating: "m", count: Int.random(in: 0...12, using: &generator)))
      }
      let folder = try TemporaryFolder()
      let path = folder.path + "/0000000000000001.tracev3"
      let writer = LogArchiveWriter(entriesPerChunkSet: Int.random(in: 1...4, using: &generator))
      try Data(writer.traceV3(written, compression: .stored)).write(to: URL(fileURLWithPath: path))
      let (read, summary) = try ArchiveRoundTripTests.read(path)
      #expect(read.count == written.count, "\(summary.problems)")
      #expect(summary.problems.isEmpty)
    }
  }
}

/// Tracepoints whose oversize chunk never comes are given without those arguments and named;
/// past ``TraceV3Parser/maximumWaiting`` they are given as they come, so memory stays bounded.
@Suite struct MissingOversizeTests {
  static func read(entries count: Int) throws -> ([UnifiedLogEntry], UnifiedLogSummary) {
    let long = String(repeating: "x", count: LogArchiveWriter.oversizeThreshold + 8)
    let written = (0..<count).map {
      LogArchiveWriter.Entry(offsetNanoseconds: UInt64($0 + 1) * 1000, message: long)
    }
    var bytes = LogArchiveWriter(entriesPerChunkSet: 64).traceV3(written, compression: .stored)
    // Every oversize chunk (tag 0x6002 at an 8-byte boundary inside a stored ChunkSet) becomes
    // one of a tag no reader knows.
    var index = 0
    while index + 4 <= bytes.count {
      if bytes[index..<index + 4].elementsEqual([0x02, 0x60, 0x00, 0x00]) { bytes[index] = 0x77 }
      index += 1
    }
    let folder = try TemporaryFolder()
    let path = folder.path + "/0000000000000001.tracev3"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try ArchiveRoundTripTests.read(path)
  }

  @Test(arguments: [3, TraceV3Parser.maximumWaiting + 40])
  func tracepointsWaitingForOversizeChunksAreGivenAndNamed(count: Int) throws {
    let (read, summary) = try Self.read(entries: count)
    #expect(read.count == count)
    #expect(summary.problems.contains { $0.code == "missing_oversize" })
    #expect(summary.problems.count <= 2 * (TraceV3Parser.problemsListedPerKind + 1))
  }
}

/// A sysdiagnose tarball is filtered as its folder is, and a FIFO, a link or a device inside an
/// archive folder is named, never opened for reading (a FIFO would block for ever).
@Suite struct ArchiveShapesTests {
  @Test(arguments: [true, false])
  func aSubsystemFiltersATarballAsItFiltersAFolder(gzip: Bool) throws {
    let folder = try TemporaryFolder()
    let written = ArchiveRoundTripTests.entries(count: 30)
    let path = folder.path + (gzip ? "/s.tar.gz" : "/s.tar")
    try Data(LogArchiveWriter().sysdiagnose(written, gzip: gzip)).write(
      to: URL(fileURLWithPath: path))
    try LogArchiveWriter().writeLogArchive(written, at: folder.path + "/d.logarchive")
    for subsystem in ["io.kern.ditto", "none.such"] {
      var fromTar: [String] = []
      var fromFolder: [String] = []
      let tarKind = try #require(UnifiedLogReader.kind(of: path))
      _ = UnifiedLogReader.read(path, kind: tarKind, subsystem: subsystem) {
        fromTar.append("\($0.timestampNanoseconds) \($0.subsystem ?? "-")")
      }
      _ = UnifiedLogReader.read(
        folder.path + "/d.logarchive", kind: .logArchive, subsystem: subsystem
      ) {
        fromFolder.append("\($0.timestampNanoseconds) \($0.subsystem ?? "-")")
      }
      #expect(fromTar.sorted() == fromFolder.sorted())
      #expect(fromTar.allSatisfy { $0.hasSuffix(" " + subsystem) })
      #expect(subsystem == "none.such" ? fromTar.isEmpty : !fromTar.isEmpty)
    }
  }

  @Test func aFIFOOrALinkNamedLikeALogFileIsNamedNeverOpened() throws {
    let folder = try TemporaryFolder()
    let archive = folder.path + "/d.logarchive"
    let written = ArchiveRoundTripTests.entries(count: 10)
    try LogArchiveWriter().writeLogArchive(written, at: archive)
    #expect(mkfifo(archive + "/Persist/0000000000000007.tracev3", 0o644) == 0)
    #expect(mkfifo(archive + "/timesync/0000000000000009.timesync", 0o644) == 0)
    #expect(symlink("/dev/zero", archive + "/Persist/0000000000000008.tracev3") == 0)
    var read = 0
    let summary = UnifiedLogReader.read(archive, kind: .logArchive) { _ in read += 1 }
    #expect(read == written.count)
    let named = summary.problems.filter { $0.code == "cannot_open" }.map(\.file)
    #expect(named.contains("Persist/0000000000000007.tracev3"))
    #expect(named.contains("Persist/0000000000000008.tracev3"))
    #expect(named.contains("timesync/0000000000000009.timesync"))
  }
}

/// The fuzz corpus keeps a seed for each crash found from outside; each reads to a named problem.
@Suite struct CrashSeedTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Fuzz/corpus/unified-log"
    ).path

  @Test(arguments: ["seed-pax-record-too-short", "seed-tar-base256-size-near-2-63"])
  func eachCrashSeedReadsToANamedProblem(seed: String) throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + seed)))
    let result = UnifiedLogBytes.read(bytes)
    #expect(result.problems > 0)
  }
}

/// A private argument is shown when the file holds its bytes (private data was recorded), as
/// `log show` shows it, and is `<private>` when it does not.
@Suite struct PrivateArgumentTests {
  @Test(arguments: [UInt8(0x21), 0x25, 0x41, 0x45])
  func aPrivateStringIsShownWhenItsBytesAreStored(type: UInt8) {
    let stored = Array("secret\u{0}".utf8)
    let item = TraceV3Parser.RawItem(type: type, data: [0, 0, UInt8(stored.count), 0])
    let shown = TraceV3Parser.argument(
      item, values: [], privateData: stored[...], privateOffset: 0)
    #expect(shown == .string("secret", valueType: type))
    let withheld = TraceV3Parser.argument(item, values: [], privateData: [], privateOffset: 0)
    #expect(withheld == .privateValue(valueType: type))
  }
}
