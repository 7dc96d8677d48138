import BackupReader
import EngineTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Rebuilding Ditto's containers from stored files: byte-identical copies, sizes checked, unsafe paths
/// refused, the backup never written.
@Suite struct RebuildTests {
  let folder: TemporaryDirectory
  let builder: BackupBuilder
  let output: String

  init() throws {
    folder = try TemporaryDirectory("rebuild")
    builder = try BackupBuilder(root: folder.appending("backup"))
    try builder.writeStandardPlists(date: ManifestTests.date)
    output = folder.appending("out")
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
  }

  func rebuild() throws -> RebuildReport {
    try builder.writeManifest()
    let backup = Backup(path: builder.root)
    return BackupRebuilder(backup: backup, output: output).rebuild(try backup.readListing())
  }

  func contents(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: output + "/" + relative)))
  }

  @Test func everyDittoFileIsRebuiltByteForByte() throws {
    let full = try TemporaryDirectory("full")
    let fixture = try DittoBackupFixture.build(at: full.appending("udid"), date: ManifestTests.date)
    let before = try FileHashes(of: fixture.root)
    let backup = Backup(path: fixture.root)
    let out = full.appending("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let report = BackupRebuilder(backup: backup, output: out).rebuild(try backup.readListing())
    #expect(report.files.count == 6)
    #expect(report.files.allSatisfy { $0.status == .copied })
    #expect(report.failedEngineInputs.isEmpty)
    #expect(report.container == out + "/AppDomainGroup-group.io.kern.ditto")
    #expect(report.home == out + "/AppDomain-io.kern.Ditto")
    #expect(report.folders == 3)
    for row in fixture.rows where row.flags == 1 && DittoDomain.of(row.domain ?? "") != nil {
      let stored = try Data(
        contentsOf: URL(
          fileURLWithPath: fixture.root + "/" + row.fileID.prefix(2) + "/" + row.fileID))
      let rebuilt = try Data(
        contentsOf: URL(
          fileURLWithPath: out + "/" + (row.domain ?? "") + "/" + (row.relativePath ?? "")))
      #expect(stored == rebuilt)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(names == ["AppDomain-io.kern.Ditto", "AppDomainGroup-group.io.kern.ditto"])
    #expect(
      FileManager.default.fileExists(atPath: out + "/AppDomain-io.kern.Ditto/Documents"))
    #expect(try FileHashes(of: fixture.root) == before)
  }

  /// The app's home is rebuilt under `AppDomain-io.kern.Ditto/` whichever way the backup spells the
  /// domain without a team prefix; a team-prefixed domain keeps its own name.
  @Test(arguments: [
    ("AppDomain-io.kern.Ditto", "AppDomain-io.kern.Ditto"),
    ("AppDomain-io.kern.ditto", "AppDomain-io.kern.Ditto"),
    ("AppDomain-ABCDE12345.io.kern.Ditto", "AppDomain-ABCDE12345.io.kern.Ditto"),
  ])
  func theAppHomeIsFoundInEitherSpelling(domain: String, folderName: String) throws {
    try builder.addFolder(domain: domain, relativePath: "Documents")
    try builder.addFile(domain: domain, relativePath: "Documents/Ditto.sqlite", contents: [4, 2])
    let report = try rebuild()
    #expect(report.home == output + "/" + folderName)
    #expect(report.files.map(\.status) == [.copied])
    #expect(try contents(folderName + "/Documents/Ditto.sqlite") == [4, 2])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [
        folderName, "AppDomainGroup-group.io.kern.ditto",
      ])
  }

  /// Both spellings in one manifest share the folder: the real spelling's copy is used, the other
  /// skipped (never a failure that would stop the recovery).
  @Test func bothSpellingsShareOneFolderAndTheRealOneWins() throws {
    try builder.addFile(
      domain: "AppDomain-io.kern.ditto", relativePath: "Documents/Ditto.sqlite", contents: [1])
    try builder.addFile(
      domain: "AppDomain-io.kern.ditto", relativePath: "Documents/other", contents: [3])
    try builder.addFile(
      domain: DittoDomain.appDomain, relativePath: "Documents/Ditto.sqlite", contents: [2, 2])
    let report = try rebuild()
    #expect(report.home == output + "/AppDomain-io.kern.Ditto")
    let statuses = Dictionary(
      uniqueKeysWithValues: report.files.map { ($0.domain + "/" + $0.relativePath, $0.status) })
    #expect(
      statuses == [
        "AppDomain-io.kern.Ditto/Documents/Ditto.sqlite": .copied,
        "AppDomain-io.kern.ditto/Documents/Ditto.sqlite": .skipped,
        "AppDomain-io.kern.ditto/Documents/other": .copied,
      ])
    #expect(report.failedEngineInputs.isEmpty)
    #expect(try contents("AppDomain-io.kern.Ditto/Documents/Ditto.sqlite") == [2, 2])
    #expect(try contents("AppDomain-io.kern.Ditto/Documents/other") == [3])
  }

  @Test func aSizeMismatchIsReportedAndTheFileKept() throws {
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "Ditto.sqlite", contents: [1, 2, 3, 4, 5],
      blob: try BackupBuilder.archive(.init(size: 10, mode: 0o100644)))
    let report = try rebuild()
    let file = try #require(report.files.first)
    #expect(file.status == .sizeMismatch)
    #expect(file.expectedBytes == 10)
    #expect(file.copiedBytes == 5)
    #expect(file.reason?.contains("5 bytes, the manifest says 10") == true)
    #expect(try contents("AppDomainGroup-group.io.kern.ditto/Ditto.sqlite") == [1, 2, 3, 4, 5])
    #expect(report.failedEngineInputs.isEmpty)
  }

  @Test func aMissingStoredFileIsReportedAsAFailedEngineInput() throws {
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "Ditto.sqlite", contents: [1],
      storesContents: false)
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "notes.txt", contents: [1],
      storesContents: false)
    let report = try rebuild()
    #expect(report.files.map(\.status) == [.missing, .missing])
    #expect(report.failedEngineInputs.map(\.relativePath) == ["Ditto.sqlite"])
  }

  @Test func unsafePathsAreRefusedAndNothingIsWrittenOutside() throws {
    let group = DittoDomain.appGroupDomain
    // "../\u{301}escaped": a combining mark joined to the "/" must not hide the "..".
    for path in [
      "../escaped", "Library/../../escaped", "/tmp/escaped-absolute", "../\u{301}escaped",
    ] {
      builder.addRow(
        .init(
          fileID: BackupBuilder.fileID(domain: group, relativePath: path), domain: group,
          relativePath: path, flags: 1, blob: nil))
      try builder.writeBytes(
        [0x41],
        at: String(BackupBuilder.fileID(domain: group, relativePath: path).prefix(2)) + "/"
          + BackupBuilder.fileID(domain: group, relativePath: path))
    }
    builder.addRow(
      .init(fileID: "../../Info.plist", domain: group, relativePath: "x", flags: 1, blob: nil))
    let report = try rebuild()
    #expect(report.files.map(\.status) == [.refused, .refused, .refused, .refused, .refused])
    #expect(!FileManager.default.fileExists(atPath: folder.appending("escaped")))
    #expect(!FileManager.default.fileExists(atPath: output + "/escaped"))
    #expect(!FileManager.default.fileExists(atPath: output + "/\u{301}escaped"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/escaped-absolute"))
  }

  @Test func aFIFOInThePlaceOfAStoredFileFailsWithoutBlocking() throws {
    let group = DittoDomain.appGroupDomain
    let id = try builder.addFile(
      domain: group, relativePath: "Ditto.sqlite", contents: [], storesContents: false)
    try FileManager.default.createDirectory(
      atPath: builder.root + "/" + id.prefix(2), withIntermediateDirectories: true)
    #expect(mkfifo(builder.root + "/" + id.prefix(2) + "/" + id, 0o644) == 0)
    let report = try rebuild()
    #expect(report.files.first?.status == .failed)
    #expect(report.files.first?.reason?.contains("FIFO") == true)
    #expect(report.failedEngineInputs.count == 1)
  }

  @Test func theFlatLayoutOfOldBackupsIsAFallback() throws {
    let group = DittoDomain.appGroupDomain
    let id = try builder.addFile(
      domain: group, relativePath: "Ditto.sqlite", contents: [7, 7], storesContents: false)
    try builder.writeBytes([7, 7], at: id)
    let report = try rebuild()
    #expect(report.files.first?.status == .copied)
    #expect(try contents("AppDomainGroup-group.io.kern.ditto/Ditto.sqlite") == [7, 7])
  }

  @Test func linksAreSkippedAndDuplicatesNeverOverwrite() throws {
    let group = DittoDomain.appGroupDomain
    try builder.addFile(
      domain: group, relativePath: "link", contents: [1],
      blob: try BackupBuilder.archive(.init(size: 1, mode: 0o120755)))
    try builder.addFile(domain: group, relativePath: "Ditto.sqlite", contents: [1, 1])
    builder.addRow(
      .init(
        fileID: "ff" + String(repeating: "e", count: 38), domain: group,
        relativePath: "Ditto.sqlite", flags: 1, blob: nil))
    try builder.writeBytes([2, 2, 2], at: "ff/ff" + String(repeating: "e", count: 38))
    let report = try rebuild()
    let byStatus = Dictionary(grouping: report.files, by: \.status)
    #expect(byStatus[.skipped]?.map(\.relativePath) == ["link"])
    #expect(byStatus[.copied]?.count == 1)
    #expect(byStatus[.failed]?.first?.reason?.contains("listed twice") == true)
    #expect(try contents("AppDomainGroup-group.io.kern.ditto/Ditto.sqlite").count >= 2)
  }

  @Test func anEmptyManifestStillGivesAContainerToProbe() throws {
    let report = try rebuild()
    #expect(report.files.isEmpty)
    #expect(report.home == nil)
    #expect(FileManager.default.fileExists(atPath: report.container))
  }
}
