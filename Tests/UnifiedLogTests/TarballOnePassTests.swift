import Foundation
import LogArchiveFixtures
import Testing

@testable import UnifiedLog

/// A sysdiagnose tarball is read in one pass, whatever the order of its files: entries of tracev3
/// files that come before the strings and timesync files are completed once those are read, and
/// read exactly as the same archive as a folder; past the entries it holds, it is read again.
@Suite struct TarballOnePassTests {
  static func read(_ path: String, subsystem: String?) throws -> (
    lines: [String], summary: UnifiedLogSummary
  ) {
    let kind = try #require(UnifiedLogReader.kind(of: path))
    var lines: [String] = []
    let summary = UnifiedLogReader.read(path, kind: kind, subsystem: subsystem) {
      lines.append(LogShowFormat.ndjson($0))
    }
    return (lines, summary)
  }

  @Test(arguments: [false, true], [nil, "io.kern.ditto"])
  func aTarballReadsAsItsFolderWhateverItsOrder(tracev3First: Bool, subsystem: String?) throws {
    for count in [40, UnifiedLogReader.maximumHeldEntries + 500] {
      let folder = try TemporaryFolder()
      let writer = LogArchiveWriter(arm: true, entriesPerChunkSet: 64)
      var written: [LogArchiveWriter.Entry] = []
      for index in 0..<count {
        let subsystem = index % 3 == 0 ? "com.apple.other" : "io.kern.ditto"
        let message = index % 97 == 3 ? String(repeating: "long ", count: 300) : "entry \(index)"
        written.append(
          LogArchiveWriter.Entry(
            offsetNanoseconds: UInt64(index) * 1_000_037, pid: index % 5 == 1 ? 77 : 1234,
            subsystem: subsystem, message: message, isPrivate: index % 11 == 7))
      }
      _ = try writer.writeLogArchive(written, at: folder.path + "/a.logarchive")
      let tarball = folder.path + "/sysdiagnose.tar.gz"
      try Data(writer.sysdiagnose(written, tracev3First: tracev3First)).write(
        to: URL(fileURLWithPath: tarball))
      let asFolder = try Self.read(folder.path + "/a.logarchive", subsystem: subsystem)
      let asTarball = try Self.read(tarball, subsystem: subsystem)
      let label =
        "\(count) entries, tracev3 first: \(tracev3First), subsystem \(subsystem ?? "any")"
      #expect(!asFolder.lines.isEmpty, "\(label)")
      #expect(asTarball.lines.count == asFolder.lines.count, "\(label)")
      // The same entries, field for field (file by file in the tarball's order).
      #expect(asTarball.lines.sorted() == asFolder.lines.sorted(), "\(label)")
      #expect(asTarball.summary.entries == asFolder.summary.entries, "\(label)")
      #expect(asTarball.summary.problems.isEmpty, "\(label): \(asTarball.summary.problems)")
      // Messages composed from the strings file, times from the timesync file.
      #expect(asTarball.lines.allSatisfy { $0.contains("\"formatString\":\"%{p") }, "\(label)")
    }
  }
}
