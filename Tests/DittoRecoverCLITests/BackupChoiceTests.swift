import BackupReader
import DittoStore
import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Which backup a command reads, and what it says when the backup cannot give its dittos: a newer
/// backup holding only the store's `-wal` is the source (never skipped for an older one); a store
/// the manifest lists but the backup lacks is "could not read", with the older backup named; a
/// backup without Ditto is called what it is, and nothing is made for it.
@Suite struct BackupChoiceTests {
  static let older = Date(timeIntervalSince1970: 1_443_702_600)  // 2015-10-01T12:30:00Z
  static let newer = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

  @Test(arguments: [["extract"], ["recover"]])
  func aNewerBackupHoldingOnlyTheWALIsTheSource(command: [String]) throws {
    let folder = try TemporaryDirectory("backup-wal-only")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(at: root + "/old", date: Self.older, deviceName: "Old phone")
    try DittoBackupFixture.build(
      at: root + "/new", date: Self.newer, deviceName: "New phone", storeFiles: ["-wal"])
    let before = try FileHashes(of: root)
    let out = folder.appending(command == ["extract"] ? "out.dittorecovery" : "out")
    let run = ToolRunner.run(["backup"] + command + [root, "--out", out])
    #expect(
      run.standardError.contains("using \(shown(root))/new (New phone"),
      "\(command): \(run.standardError)")
    #expect(!run.standardError.contains("using \(shown(root))/old"))
    // Its dittos are rebuilt from the -wal, or the command that rebuilds them is named.
    #expect(run.exitCode == 0, "\(command): \(run.standardError)")
    if command == ["extract"] {
      #expect(run.standardError.contains("note: salvage rebuilds 6 more dittos"))
      #expect(run.standardError.contains("--salvage"))
    } else {
      #expect(run.standardOutput.contains("salvaged: 6 dittos"), "\(run.standardOutput)")
    }
    #expect(try FileHashes(of: root) == before)
  }

  @Test(arguments: [["extract"], ["recover"]])
  func aListedStoreTheBackupLacksIsCouldNotReadAndTheOlderOneIsNamed(command: [String]) throws {
    let folder = try TemporaryDirectory("backup-listed-missing")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(at: root + "/old", date: Self.older, deviceName: "Old phone")
    let newer = try BackupBuilder(root: root + "/new")
    try newer.writeStandardPlists(deviceName: "New phone", date: Self.newer)
    try newer.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "Ditto.sqlite",
      contents: Array(repeating: 1, count: 4096), storesContents: false)
    try newer.writeManifest()
    let library = try makeLibrary(folder.appending("library.store"))
    let libraryBefore = try Data(contentsOf: URL(fileURLWithPath: library))
    let out = folder.appending(command == ["extract"] ? "out.dittorecovery" : "out")
    var words = ["backup"] + command + [root, "--out", out]
    if command == ["recover"] { words += ["--library", library] }
    let run = ToolRunner.run(words)
    #expect(run.exitCode == 65, "\(command): \(run.standardError)")
    #expect(run.standardError.contains("could not read the Ditto store of \(shown(root))/new"))
    #expect(!run.standardOutput.contains("No legacy dittos were found on this device"))
    #expect(run.outcomeLines.isEmpty, "\(command): an attempt ran")
    let next = try #require(
      run.standardError.split(separator: "\n").first { $0.hasPrefix("next: ") })
    #expect(next.contains(shown(root) + "/old"), "\(next)")
    #expect(!FileManager.default.fileExists(atPath: out), "\(command): something was made")
    #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == libraryBefore)
    // The named command reads the older backup, and gives its dittos.
    let older = try ToolRun.pasted(String(next.dropFirst("next: ".count)), in: folder.path)
    #expect(older.exitCode == 0, "\(next): \(older.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: out), "\(command): the older backup gave nothing")
  }

  @Test(arguments: [["extract"], ["recover"]])
  func anotherAppsBackupIsCalledWhatItIsAndNothingIsMade(command: [String]) throws {
    let folder = try TemporaryDirectory("backup-other-app")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(
      at: root + "/other", date: Self.newer, deviceName: "Someone's iPad", includesDitto: false)
    let out = folder.appending(command == ["extract"] ? "out.dittorecovery" : "out")
    let run = ToolRunner.run(["backup"] + command + [root, "--out", out])
    #expect(run.exitCode == 66, "\(command): \(run.standardError)")
    #expect(run.standardError.contains("lists no file of Ditto"), "\(run.standardError)")
    #expect(!run.standardError.contains("before Ditto 3.0"))
    #expect(!FileManager.default.fileExists(atPath: out), "\(command): something was made")
  }
}
