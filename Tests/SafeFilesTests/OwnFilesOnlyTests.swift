import BackupReader
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SQLiteSnapshot
import SafeFiles
import Salvage
import StoreFixtures
import Testing

@testable import ContainerFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every call that deletes, renames or truncates a file touches only files this process created:
/// each test puts legacy files where a careless removal would reach them, runs the removal, and
/// checks every legacy file is still there, byte for byte.
@Suite struct OwnFilesOnlyTests {
  /// A container holding a 2.x store with every sidecar, the App Group defaults and a 1.x plist.
  func legacyContainer(_ folder: TemporaryDirectory) throws -> (root: String, store: String) {
    let root = folder.appending("device")
    let builder = try ContainerBuilder(root: root)
    try builder.writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 9), journal: .walOnly)
    try builder.writeBytes(Array("journal bytes".utf8), at: "Ditto.sqlite-journal")
    try builder.writeDefaults(["dittos": ["a 1.x ditto"]])
    return (root, root + "/Ditto.sqlite")
  }

  // MARK: - PrivateDirectory (StoreSnapshot, SalvageSnapshot, PrivateFolder, fixtures, tests)

  @Test func aPrivateDirectoryRemovesLinksNotWhatTheyPointAt() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, store) = try legacyContainer(folder)
    let before = try FileHashes(of: root)
    let directory = try PrivateDirectory(prefix: "ditto-own-", in: folder.path)
    // What a careless recursive removal would follow out of the folder.
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/store-link", withDestinationPath: store)
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/container-link", withDestinationPath: root)
    try FileManager.default.createDirectory(
      atPath: directory.path + "/nested/deeper", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/nested/deeper/up", withDestinationPath: root)
    #expect(link(store, directory.path + "/nested/hard-link") == 0)
    // A name that is not UTF-8, and a folder we may not write (both must still go).
    let odd: [CChar] = Array((directory.path + "/odd-").utf8CString.dropLast()) + [-1, 0]
    let fd = open(odd, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    #expect(fd >= 0)
    close(fd)
    #expect(chmod(directory.path + "/nested/deeper", 0o500) == 0)

    #expect(directory.remove())
    #expect(try FileStatus.of(path: directory.path) == nil)
    #expect(try FileHashes(of: root) == before)
  }

  @Test func aPrivateDirectorySwappedForAnotherFolderIsLeftAlone() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, _) = try legacyContainer(folder)
    let directory = try PrivateDirectory(prefix: "ditto-own-", in: folder.path)
    let moved = folder.appending("moved-away")
    #expect(rename(directory.path, moved) == 0)
    #expect(rename(root, directory.path) == 0)  // the legacy container now has our folder's name
    let before = try FileHashes(of: directory.path)
    #expect(!directory.remove())
    #expect(try FileHashes(of: directory.path) == before)
  }

  @Test func aStoreSnapshotRemovesOnlyItsCopies() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, store) = try legacyContainer(folder)
    let before = try FileHashes(of: root)
    let snapshot = try StoreSnapshot(of: store)
    // The -shm is rebuilt from the -wal on the copy, never copied (other readers change it).
    #expect(snapshot.copiedBytes.keys.sorted() == ["", "-journal", "-wal"])
    try FileManager.default.createSymbolicLink(
      atPath: snapshot.directory + "/original", withDestinationPath: store)
    try FileManager.default.createSymbolicLink(
      atPath: snapshot.directory + "/container", withDestinationPath: root)
    snapshot.remove()
    #expect(try FileStatus.of(path: snapshot.directory) == nil)
    #expect(try FileHashes(of: root) == before)
  }

  @Test func aSalvageOfAnOrphanedWALRemovesOnlyItsCopy() throws {
    let folder = try TemporaryDirectory("own-files")
    let root = folder.appending("device")
    let builder = try ContainerBuilder(root: root)
    try builder.writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 4), journal: .walOnly)
    #expect(unlink(root + "/Ditto.sqlite") == 0)  // what 3.0.0 did; the -wal survived
    let before = try FileHashes(of: root)
    let result = try Salvager.salvage(path: root + "/Ditto.sqlite", options: SalvageOptions())
    #expect(result.library.dittoCount == 6)
    #expect(try FileHashes(of: root) == before)
  }

  // MARK: - CreatedFile (ReadOnlyFile.copy, DecryptingCopy, AppGroupDefaults)

  @Test func aCopyNeverWritesOverAnExistingFile() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, store) = try legacyContainer(folder)
    let before = try FileHashes(of: root)
    let source = try ReadOnlyFile(path: store + "-wal")
    #expect(throws: FileAccessError.self) { try source.copy(to: store) }
    #expect(throws: FileAccessError.self) { _ = try CreatedFile(path: store + "-shm") }
    #expect(try FileHashes(of: root) == before)
  }

  @Test func aSparseCopyExtendsOnlyItsOwnNewFile() throws {
    let folder = try TemporaryDirectory("own-files")
    let sparse = folder.appending("sparse.sqlite")
    try Data("SQLite format 3\0".utf8).write(to: URL(fileURLWithPath: sparse))
    #expect(truncate(sparse, 8 << 20) == 0)
    let before = try FileHashes(of: folder.path)
    let copy = folder.appending("copy/sparse.sqlite")
    try FileManager.default.createDirectory(
      atPath: folder.appending("copy"), withIntermediateDirectories: false)
    #expect(try ReadOnlyFile(path: sparse).copy(to: copy) == 8 << 20)
    #expect(try FileStatus.of(path: copy)?.size == 8 << 20)
    let after = try FileHashes(of: folder.path)
    #expect(after.entries.filter { !$0.key.hasPrefix("/copy") } == before.entries)
  }

  @Test func aCreatedFileSwappedForAnotherIsNotDiscarded() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, store) = try legacyContainer(folder)
    let created = try CreatedFile(path: folder.appending("ours.tmp"))
    created.close()
    // Someone else's file now has our file's name.
    #expect(unlink(created.path) == 0)
    #expect(link(store, created.path) == 0)
    let before = try FileHashes(of: root)
    #expect(!created.discard())
    #expect(try FileStatus.of(path: created.path)?.kind == .regular)
    #expect(try FileHashes(of: root) == before)
    // And a file that is still ours is removed.
    let ours = try CreatedFile(path: folder.appending("ours-2.tmp"))
    #expect(ours.discard())
    #expect(try FileStatus.of(path: ours.path) == nil)
  }

  /// The same check for a path given as bytes (a name that is not valid UTF-8): a file that took
  /// our file's name is left, byte for byte; our own is removed.
  @Test func aFileNamedByBytesSwappedForAnotherIsNotRemoved() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, store) = try legacyContainer(folder)
    let name = Array(folder.appending("ours").utf8) + [0xFF] + Array(".tmp".utf8)
    let made = open(UserPath.cPath(name), O_WRONLY | O_CREAT | O_EXCL, 0o600)
    try #require(made >= 0, "this file system refuses names that are not UTF-8")
    let identity = try FileStatus.of(descriptor: made, path: "ours").identity
    close(made)
    #expect(unlink(UserPath.cPath(name)) == 0)
    #expect(link(store, UserPath.cPath(name)) == 0)
    let before = try FileHashes(of: root)
    #expect(!CreatedFile.removeFile(atBytes: name, identity: identity))
    #expect(try FileHashes(of: root) == before)
    var info = stat()
    #expect(lstat(UserPath.cPath(name), &info) == 0, "the file that took the name was removed")
    // A file that is still ours is removed.
    #expect(unlink(UserPath.cPath(name)) == 0)
    let again = open(UserPath.cPath(name), O_WRONLY | O_CREAT | O_EXCL, 0o600)
    try #require(again >= 0)
    let ours = try FileStatus.of(descriptor: again, path: "ours").identity
    close(again)
    #expect(CreatedFile.removeFile(atBytes: name, identity: ours))
    #expect(lstat(UserPath.cPath(name), &info) != 0)
  }

  @Test func aFailedDefaultsUpdateRemovesOnlyItsTemporaryFile() throws {
    let folder = try TemporaryDirectory("own-files")
    let (root, _) = try legacyContainer(folder)
    let layout = ContainerLayout(container: root)
    let before = try FileHashes(of: root)
    struct Refusing: TemporaryFilePublishing {
      func publish(_ temporary: String, as path: String) -> Int32 { EACCES }
    }
    /// Swaps a foreign file in for the temporary one, then fails.
    struct Swapping: TemporaryFilePublishing {
      let foreign: String
      func publish(_ temporary: String, as path: String) -> Int32 {
        unlink(temporary)
        link(foreign, temporary)
        return EACCES
      }
    }

    let defaults = AppGroupDefaults(path: layout.defaultsPath, publishing: Refusing())
    #expect(throws: DefaultsError.self) { try defaults.update(["someFlag": true]) }
    #expect(try FileHashes(of: root) == before, "defaults changed or a temporary file was left")

    // The temporary file replaced by another file before the failure: that file survives.
    let foreign = folder.appending("foreign.plist")
    try Data("not ours".utf8).write(to: URL(fileURLWithPath: foreign))
    let swapping = AppGroupDefaults(
      path: layout.defaultsPath, publishing: Swapping(foreign: foreign))
    #expect(throws: DefaultsError.self) { try swapping.update(["someFlag": true]) }
    let after = try FileHashes(of: root)
    #expect(after.changes(since: before).isEmpty)
    let left = Set(after.entries.keys).subtracting(before.entries.keys)
    #expect(left.count == 1, "\(left)")
    #expect(left.allSatisfy { $0.hasPrefix("/Library/Preferences/.group.io.kern.ditto.plist.") })
    #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not ours")
  }

  // MARK: - BackupRebuilder

  /// A copy that fails after another writer created the destination: the rebuilder used to unlink
  /// the destination itself; now only a copy that created it may remove it.
  struct FailingAfterSomeoneElseWrote: BackupContentReader {
    func copy(_ entry: ManifestEntry, from source: ReadOnlyFile, to destination: String) throws
      -> Int64
    {
      try Data("someone else's file".utf8).write(to: URL(fileURLWithPath: destination))
      return try source.copy(to: destination)  // fails: the file exists
    }
  }

  @Test func aFailedRebuildCopyLeavesFilesItDidNotCreate() throws {
    let folder = try TemporaryDirectory("own-files")
    let builder = try DittoBackupFixture.build(
      at: folder.appending("udid"), date: Date(timeIntervalSince1970: 1_700_000_000))
    let backupBefore = try FileHashes(of: builder.root)
    let output = folder.appending("out")
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
    let backup = Backup(path: builder.root)
    let report = BackupRebuilder(backup: backup, output: output).rebuild(
      try backup.readListing(), contents: FailingAfterSomeoneElseWrote())
    // The rows our reader ran on (stored files present), each failed on "File exists".
    let failed = report.files.filter { $0.reason?.contains("File exists") == true }
    #expect(failed.count >= 3, "\(report.files.map { ($0.relativePath, $0.reason ?? "") })")
    for file in failed {
      let path = output + "/" + file.domain + "/" + file.relativePath
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's file")
    }
    #expect(try FileHashes(of: builder.root) == backupBefore)
  }
}
