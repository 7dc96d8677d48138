import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import StoreFixtures
import TestSupport
import Testing

#if os(Linux)
  /// Phones that are full are common among these users: a full disk under the library, or no room for
  /// the private snapshot, changes nothing, counts no attempt, and the next run with space completes.
  /// A small tmpfs is mounted for each case: CI runs as root; elsewhere these tests fail, they do
  /// not skip.
  @Suite(.serialized)
  struct FullDiskTests {
    /// A small tmpfs mounted for one test, unmounted after.
    final class SmallDisk {
      let path: String
      init(_ folder: TemporaryDirectory, kilobytes: Int) throws {
        try #require(getuid() == 0, "mounting a tmpfs needs root (CI runs as root)")
        path = folder.appending("disk")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try ToolRun.system([
          "/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path,
        ])
        guard mount == 0 else { throw CocoaError(.fileWriteUnknown) }
      }
      deinit { _ = try? ToolRun.system(["/bin/umount", path]) }

      /// Fills the disk with a file of ours until at most `leaving` bytes are free.
      func fill(leaving: Int) throws {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { throw CocoaError(.fileReadUnknown) }
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        guard free > leaving else { return }
        try Data(count: free - leaving).write(to: URL(fileURLWithPath: path + "/filler"))
      }

      func emptyFiller() throws { try FileManager.default.removeItem(atPath: path + "/filler") }
    }

    func flags(_ container: String) throws -> MigrationFlags {
      try AppGroupDefaults(path: ContainerLayout(container: container).defaultsPath).readFlags()
    }

    @Test func aFullDiskUnderTheLibraryIsALibraryErrorAndChangesNothing() throws {
      let folder = try TemporaryDirectory("full-disk")
      let container = folder.appending("device")
      let spec = FixtureContent.make(categories: 20, dittosPerCategory: 60, seed: 5)
      try ContainerBuilder(root: container).writeStore(spec)
      let disk = try SmallDisk(folder, kilobytes: 1024)
      let library = try LibraryFixtures.copy(.empty, toFolder: disk.path)
      try disk.fill(leaving: 48 * 1024)
      let before = try FileHashes(of: disk.path)
      let legacy = try FileHashes(of: container)
      let contentBefore = try DittoStoreFile.content(at: library)
      let summaryBefore = try DittoStoreFile.summary(at: library)

      let run = ToolRunner.run([
        "migrate", "--container", container, "--library", library, "--json",
      ])
      #expect(run.exitCode == 74, "\(run.standardError)")
      #expect(run.json?["outcome"] as? String == "library_error")
      #expect(run.json?["errorCode"] as? String == "library_write_failed")
      #expect(run.outcomeLines.count == 1)
      #expect(run.outcomeLines.first?.contains("outcome=library_error") == true)
      // The store is as before: its main file byte for byte, and what SQLite reads from it (a failed
      // transaction may leave uncommitted frames in -wal, which no reader ever sees).
      let changed = try FileHashes(of: disk.path).changes(since: before).filter {
        $0 != "/Ditto.store-wal" && $0 != "/Ditto.store-shm"
      }
      #expect(changed.isEmpty, "\(changed)")
      #expect(try DittoStoreFile.content(at: library) == contentBefore)
      #expect(try DittoStoreFile.summary(at: library) == summaryBefore)
      #expect(try flags(container) == MigrationFlags())
      #expect(try FileHashes(of: container).changes(since: legacy).isEmpty)

      try disk.emptyFiller()
      let next = ToolRunner.run([
        "migrate", "--container", container, "--library", library, "--json",
      ])
      #expect(next.exitCode == 0, "\(next.standardError)")
      #expect(next.json?["outcome"] as? String == "success")
      #expect(try DittoStoreFile.content(at: library).dittoCount == spec.readableDittoCount)
      #expect(try flags(container).isComplete)
    }

    @Test func noRoomForTheSnapshotIsNotNowAndCountsForNothing() throws {
      let folder = try TemporaryDirectory("full-tmp")
      chmod(folder.path, 0o755)
      let spec = FixtureContent.make(categories: 20, dittosPerCategory: 60, seed: 6)
      let device = try TransientDevice("full-tmp", spec: spec)
      let disk = try SmallDisk(folder, kilobytes: 64)
      try device.expectNotNowThenSuccess(
        reason: "no_space", environment: ["TMPDIR": disk.path]
      ) {}
      _ = disk
    }
  }
#endif

extension ToolRun {
  /// Runs a system command and returns its exit status.
  static func system(_ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
