import Foundation
import LogArchiveFixtures
import StoreFixtures
import Testing

@testable import UnifiedLog

/// A sysdiagnose whose strings files (uuidtext, dsc) hold more than the reader keeps of a tarball
/// (``UnifiedLogReader/stringsBudget``), over a generated family (how many other strings files,
/// their sizes, whether the archive's own comes before or after them): every entry is still read,
/// its message the same (without its format string, from the arguments it stores), and what was
/// not loaded is named, never passed over.
@Suite struct StringsBudgetFamilyTests {
  @Test func everyEntryIsReadAndWhatWasNotLoadedIsNamed() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x5B6E))
    let writer = LogArchiveWriter()
    // Public messages only: a tag is one public string argument, the same with or without the
    // format string.
    let written = ArchiveRoundTripTests.entries(count: 30).map { entry in
      var entry = entry
      entry.isPrivate = false
      return entry
    }
    let name = "sysdiagnose_2026.12.01_09-00-00-0800_iPhone-OS_iPhone_22B83"
    let folder = try TemporaryFolder()
    let plain = folder.path + "/plain.tar"
    try Data(writer.sysdiagnose(written, gzip: false)).write(to: URL(fileURLWithPath: plain))
    let (reference, _) = try ArchiveRoundTripTests.read(plain)
    let expected = reference.map { LogShowFormat.message($0) }
    #expect(expected.count == written.count)

    for member in 0..<4 {
      // Other images' strings files, sorted before the archive's own (folder 00) or after it
      // (folder FF), together past the budget or not.
      // (The first member always takes the budget before the archive's own file.)
      let before = member == 0 || Bool.random(using: &generator)
      let count = Int.random(in: 1...3, using: &generator)
      let total = (member == 0 ? 40 : Int.random(in: 20...48, using: &generator)) << 20
      var tar = TarWriter.file(name + "/summary.txt", Array("sysdiagnose\n".utf8))
      var files = writer.archiveFiles(written)
      for index in 0..<count {
        let path = (before ? "00/" : "FF/") + String(format: "%030X", index + 1)
        files[path] = [UInt8](repeating: UInt8(index), count: total / count)
      }
      for (relative, bytes) in files.sorted(by: { $0.key < $1.key }) {
        tar += TarWriter.file(name + "/system_logs.logarchive/" + relative, bytes)
      }
      tar += [UInt8](repeating: 0, count: 1024)
      let path = folder.path + "/member-\(member).tar"
      try Data(tar).write(to: URL(fileURLWithPath: path))

      let (read, summary) = try ArchiveRoundTripTests.read(path)
      let label = "member \(member): \(count) files of \(total >> 20) MB, before: \(before)"
      #expect(read.map { LogShowFormat.message($0) } == expected, "\(label)")
      // Strings files are kept in the tarball's order while they fit in what is left of the
      // budget: the archive's own is loaded unless the others took it first.
      var left = UnifiedLogReader.stringsBudget
      var ownLoaded = false
      var anySkipped = false
      for (relative, bytes) in files.sorted(by: { $0.key < $1.key })
      where UnifiedLogReader.isStringsFile(relative) {
        let kept = bytes.count <= left
        if kept { left -= bytes.count } else { anySkipped = true }
        if relative == writer.uuidTextPath { ownLoaded = kept }
      }
      #expect(read.allSatisfy { ($0.formatString != nil) == ownLoaded }, "\(label)")
      let skipped = summary.problems.filter { $0.code == "strings_not_loaded" }
      #expect(skipped.count == (anySkipped ? 1 : 0), "\(label): \(summary.problems)")
      #expect(!summary.problems.contains { $0.isDamage }, "\(label): \(summary.problems)")
    }
  }
}
