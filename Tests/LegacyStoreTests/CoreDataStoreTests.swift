import EngineTestSupport
import Foundation
import LegacyStore
import SQLiteDB
import SafeFiles
import Testing

/// The generic layer on stores written by Apple's Core Data.
@Suite
struct CoreDataStoreTests {
  static let stores = [
    "PhotoScript/Test-PhotoScript-10.15.7/Photos.sqlite",
    "PhotoScript/Test-PhotoScript-10.15.7-Single-Photo/Photos.sqlite",
    "plaso/ios/kik.sqlite", "plaso/ios/netusage.sqlite", "plaso/macos/knowledgec-10.13.db",
  ]

  /// Row counts per entity from SQLite itself, on a read-write copy of the whole file set
  /// (which applies the -wal), as an independent reference.
  func referenceCounts(_ relative: String) throws -> [String: Int] {
    let scratch = try TemporaryDirectory("reference")
    try FileManagerCopy.copyStore(
      TestFixtures.path("real-coredata/" + relative), into: scratch.path)
    let copy = scratch.appending((relative as NSString).lastPathComponent)
    let database = try Database(path: UserPath.resolvingFolder(of: copy), mode: .readWrite)
    let entities = try database.makeStatement(
      sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
    var rows: [(Int64, String, Int64)] = []
    while try entities.step() {
      rows.append((entities.int64(at: 0), entities.text(at: 1) ?? "", entities.int64(at: 2)))
    }
    entities.reset()
    var counts: [String: Int] = [:]
    for (number, name, _) in rows {
      var root = (number, name)
      var parent = rows.first { $0.0 == number }?.2 ?? 0
      while parent != 0, let next = rows.first(where: { $0.0 == parent }) {
        root = (next.0, next.1)
        parent = next.2
      }
      let table = (root.0 >= 16000 ? "A" : "Z") + root.1.uppercased()
      do {
        let count = try database.makeStatement(
          sql: "SELECT count(*) FROM \(table) WHERE Z_ENT = \(number)")
        counts[name] = Int(try count.scalarInt64() ?? 0)
      } catch {
        counts[name] = nil
      }
    }
    return counts
  }

  @Test(arguments: stores)
  func entitiesAndRowCountsMatchSQLiteWithTheWALApplied(relative: String) throws {
    let path = try TestFixtures.path("real-coredata/" + relative)
    let folder = (path as NSString).deletingLastPathComponent
    let before = try FileHashes(of: folder)
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    let reference = try referenceCounts(relative)
    #expect(!store.entities.isEmpty)
    for entity in store.entities {
      #expect(try store.rowCount(of: entity) == reference[entity.name], "\(entity.name)")
    }
    #expect(store.journalMode == .wal)
    #expect(store.storeUUID?.count == 36)
    #expect(try FileHashes(of: folder) == before)
  }

  @Test func subEntitiesShareTheirRootTable() throws {
    let store = try CoreDataStore(
      path: TestFixtures.path("real-coredata/plaso/macos/knowledgec-10.13.db"))
    defer { store.snapshot.remove() }
    #expect(store.entity(named: "Event")?.table == "ZOBJECT")
    #expect(store.entity(named: "Event")?.superNumber == 8)
    #expect(store.entity(named: "CHANGE")?.table == "ACHANGE")
    let netusage = try CoreDataStore(
      path: TestFixtures.path("real-coredata/plaso/ios/netusage.sqlite"))
    defer { netusage.snapshot.remove() }
    #expect(netusage.entity(named: "App")?.table == "ZPROCESS")
  }

  @Test func aRowOnlyInTheWALIsCounted() throws {
    let store = try CoreDataStore(
      path: TestFixtures.path(
        "real-coredata/PhotoScript/Test-PhotoScript-10.15.7-Single-Photo/Photos.sqlite"))
    defer { store.snapshot.remove() }
    let asset = try #require(
      store.entities.first { $0.table == "ZGENERICASSET" && $0.superNumber == 0 })
    let total = try store.entities.filter { $0.table == asset.table }.reduce(0) {
      $0 + (try store.rowCount(of: $1) ?? 0)
    }
    #expect(total == 1)
    #expect(store.frameworkVersion == 977)
  }
}
