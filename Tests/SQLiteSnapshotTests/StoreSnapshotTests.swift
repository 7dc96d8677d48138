import EngineTestSupport
import Foundation
import RunCleanup
import SQLiteDB
import SQLiteSnapshot
import SafeFiles
import StoreFixtures
import Testing

/// Every store is read on a private copy of it and its -wal: the original is never opened, the
/// copy reads what SQLite reads, and it is gone once removed.
@Suite struct StoreSnapshotTests {
  static func store(in folder: TemporaryDirectory, journal: LegacyStoreWriter.Journal) throws
    -> String
  {
    let path = folder.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 8), to: path, journal: journal)
    return path
  }

  @Test func theCopyHoldsTheWALAndTheOriginalIsUntouched() throws {
    let folder = try TemporaryDirectory("snapshot-wal")
    let path = try Self.store(in: folder, journal: .walOnly)
    let before = try FileHashes(of: folder.path)
    let snapshot = try StoreSnapshot(of: path)
    #expect(snapshot.hasWAL)
    #expect(snapshot.directory != folder.path)
    let database = try snapshot.open(displayName: path)
    let dittos = try database.makeStatement(sql: "SELECT count(*) FROM ZDITTO").scalarInt64()
    #expect(dittos == 6)
    // Read in WAL mode (its rows are only in the -wal), its index in memory: no -shm made.
    let copy = try Data(contentsOf: URL(fileURLWithPath: snapshot.mainCopy))
    #expect(copy[18] == 2 && copy[19] == 2)
    #expect(try FileStatus.of(path: snapshot.mainCopy + "-shm") == nil)
    try database.close()
    snapshot.remove()
    #expect(try FileStatus.of(path: snapshot.directory) == nil)
    #expect(try FileHashes(of: folder.path) == before)
  }

  /// A WAL store whose every page is in its main file (no `-wal` beside it) reads the same from
  /// its copy, and reading the copy makes nothing beside it: the copy is marked as a
  /// rollback-journal database, the original keeps its header and every byte.
  @Test func aCheckpointedWALStoreIsReadWithNothingMadeBesideTheCopy() throws {
    let folder = try TemporaryDirectory("snapshot-checkpointed")
    let path = try Self.store(in: folder, journal: .walCheckpointed)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(original[18] == 2 && original[19] == 2)
    let before = try FileHashes(of: folder.path)
    let snapshot = try StoreSnapshot(of: path)
    #expect(!snapshot.hasWAL)
    let database = try snapshot.open(displayName: path)
    let dittos = try database.makeStatement(sql: "SELECT count(*) FROM ZDITTO").scalarInt64()
    #expect(dittos == 6)
    let copy = try Data(contentsOf: URL(fileURLWithPath: snapshot.mainCopy))
    #expect(copy[18] == 1 && copy[19] == 1)
    #expect(copy.count == original.count)
    #expect(copy.prefix(18) == original.prefix(18))
    #expect(copy.dropFirst(20) == original.dropFirst(20))
    let beside = try FileManager.default.contentsOfDirectory(atPath: snapshot.directory)
      .filter { $0.hasPrefix("Ditto.sqlite") }
    #expect(beside == ["Ditto.sqlite"])
    try database.close()
    snapshot.remove()
    #expect(try FileHashes(of: folder.path) == before)
  }

  /// A copy for a decoder (no header check: salvage) keeps every byte, the WAL marks included.
  @Test func aCopyForADecoderIsTheFileByteForByte() throws {
    let folder = try TemporaryDirectory("snapshot-raw")
    let path = try Self.store(in: folder, journal: .walCheckpointed)
    let snapshot = try StoreSnapshot(of: path, requireSQLiteHeader: false)
    defer { snapshot.remove() }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: snapshot.mainCopy))
        == Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func aFileWithoutTheSQLiteHeaderIsRefusedWithoutACopyLeft() throws {
    let folder = try TemporaryDirectory("snapshot-garbage")
    let path = folder.appending("Ditto.sqlite")
    try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: path))
    let before = try FileHashes(of: folder.path)
    RunCleanup.install()
    #expect(throws: SnapshotError.self) { _ = try StoreSnapshot(of: path) }
    // Nothing recorded for removal inside the folder, and the folder as it was.
    #expect(!RunCleanup.recordedPaths.contains { $0.hasPrefix(folder.path + "/") })
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func aMissingStoreIsAnErrorNamingIt() throws {
    let folder = try TemporaryDirectory("snapshot-missing")
    let path = folder.appending("Ditto.sqlite")
    do {
      _ = try StoreSnapshot(of: path)
      Issue.record("a missing store gave a snapshot")
    } catch {
      #expect("\(error)".contains(path))
    }
  }
}
