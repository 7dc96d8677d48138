import EngineTestSupport
import Foundation
import LegacyStore
import SQLiteDB
import SafeFiles
import StoreFixtures
import Testing

@Suite struct LegacyStoreReaderTests {
  typealias Ditto = LegacyStoreSpec.Ditto
  typealias Category = LegacyStoreSpec.Category

  func write(_ spec: LegacyStoreSpec, journal: LegacyStoreWriter.Journal = .walCheckpointed)
    throws -> (TemporaryDirectory, String)
  {
    let folder = try TemporaryDirectory("reader")
    let path = folder.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(spec, to: path, journal: journal, seed: 7)
    return (folder, path)
  }

  @Test func readsCategoriesAndDittosInOrderKeyOrderNotPrimaryKeyOrder() throws {
    let spec = FixtureContent.make(categories: 5, dittosPerCategory: 9, seed: 3)
    let (folder, path) = try write(spec)
    let library = try LegacyStoreReader.read(path: path)
    let expected = FixtureContent.expectedCategories(of: spec)
    #expect(library.categories.map(\.title) == expected.map(\.title))
    #expect(
      library.categories.map { $0.dittos.map(\.text) } == expected.map { $0.dittos.map(\.text) })
    #expect(
      library.categories.map { $0.dittos.map(\.useCount) }
        == expected.map { $0.dittos.map(\.useCount) })
    _ = folder
  }

  @Test func rowsOnlyInTheWALAreRead() throws {
    let spec = FixtureContent.make(categories: 3, dittosPerCategory: 4, seed: 5)
    let (folder, path) = try write(spec, journal: .walOnly)
    let before = try FileHashes(of: folder.path)
    #expect(try FileStatusSize.of(path + "-wal") > 0)
    let library = try LegacyStoreReader.read(path: path)
    #expect(library.dittoCount == 12)
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func orphansSeveralProfilesNullsAndTies() throws {
    let spec = LegacyStoreSpec(
      categories: [
        Category(title: "P2 first", dittos: [Ditto(text: "b")], profile: 2, orderKey: 2048),
        Category(title: "P1 second", dittos: [], profile: 1, orderKey: 5000),
        Category(
          title: nil,
          dittos: [
            Ditto(text: "null order", useCount: 1, orderKey: nil),
            Ditto(text: "third", useCount: nil, orderKey: 9000),
            Ditto(text: "first", useCount: 4, orderKey: 100),
            Ditto(text: nil, useCount: 1, orderKey: 50),
            Ditto(text: "", useCount: 1, orderKey: 60),
          ], profile: 1, orderKey: 3000),
        Category(title: "Loose", dittos: [Ditto(text: "loose one")], profile: nil),
        Category(title: "Dangling profile", dittos: [Ditto(text: "x")], profile: 9, orderKey: 1),
      ],
      dittosWithoutCategory: [Ditto(text: "orphan", useCount: 3), Ditto(text: nil)],
      profileCount: 2, shufflesPrimaryKeys: false)
    var patched = spec
    patched.categories[2].dittos[0].hasNullOrderKey = true
    let (folder, path) = try write(patched)
    let library = try LegacyStoreReader.read(path: path)
    #expect(
      library.categories.map(\.title) == [
        "Untitled", "P1 second", "P2 first", "Loose", "Dangling profile", "Recovered",
      ])
    #expect(library.categories[0].dittos.map(\.text) == ["first", "third", "null order"])
    #expect(library.categories[0].dittos.map(\.useCount) == [4, 0, 1])
    #expect(library.categories[5].dittos == [LegacyDitto(text: "orphan", useCount: 3)])
    #expect(library.skippedEmptyTexts == 3)
    #expect(library.categories[0].origin == .profile(1))
    #expect(library.categories[3].origin == .withoutProfile)
    #expect(library.categories[5].origin == .recovered)
    _ = folder
  }

  @Test func aStoreWithNoDittosIsEmptyNotAnError() throws {
    let (folder, path) = try write(LegacyStoreSpec(categories: [Category(title: "Only")]))
    let library = try LegacyStoreReader.read(path: path)
    #expect(library.isEmpty)
    #expect(library.categories.map(\.title) == ["Only"])
    _ = folder
  }

  @Test func unreadableFilesThrowNamedErrors() throws {
    let folder = try TemporaryDirectory("bad")
    let builder = try ContainerBuilder(root: folder.path)
    try builder.writeBytes([], at: "zero.sqlite")
    try builder.writeGarbage(count: 8192, seed: 1, at: "garbage.sqlite")
    try builder.writeBytes(
      Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 84), at: "header-only.sqlite")
    try builder.makeFIFO(at: "fifo.sqlite")
    let before = try FileHashes(of: folder.path)

    func error(_ name: String) -> LegacyStoreError? {
      do {
        _ = try LegacyStoreReader.read(path: folder.appending(name))
        return nil
      } catch {
        return error
      }
    }
    #expect(error("zero.sqlite")?.code == "not_a_database")
    #expect(error("garbage.sqlite")?.code == "not_a_database")
    #expect(error("header-only.sqlite") != nil)
    #expect(
      error("fifo.sqlite") == .notARegularFile(file: folder.appending("fifo.sqlite"), kind: .fifo))
    #expect(error("missing.sqlite") == .notFound(file: folder.appending("missing.sqlite")))
    #expect(error("zero.sqlite")?.description.contains(folder.appending("zero.sqlite")) == true)
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func aSymbolicLinkIsNotFollowed() throws {
    let folder = try TemporaryDirectory("link")
    let (store, path) = try write(FixtureContent.make(categories: 1, dittosPerCategory: 1, seed: 1))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("Ditto.sqlite"), withDestinationPath: path)
    #expect(
      throws: LegacyStoreError.notARegularFile(
        file: folder.appending("Ditto.sqlite"), kind: .symbolicLink)
    ) {
      try LegacyStoreReader.read(path: folder.appending("Ditto.sqlite"))
    }
    _ = store
  }

  @Test func otherSQLiteDatabasesAreNotDittoStores() throws {
    let folder = try TemporaryDirectory("other")
    let plain = folder.appending("plain.sqlite")
    let database = try Database(path: UserPath.resolvingFolder(of: plain), mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    try database.close()
    #expect(throws: LegacyStoreError.notACoreDataStore(file: plain, missing: ["Z_PRIMARYKEY"])) {
      try LegacyStoreReader.read(path: plain)
    }
    let kik = try TestFixtures.path("real-coredata/plaso/ios/kik.sqlite")
    #expect(
      throws: LegacyStoreError.notADittoStore(
        file: kik, missing: ["entity Category", "entity Ditto"])
    ) {
      try LegacyStoreReader.read(path: kik)
    }
  }

  @Test func viewsPosingAsDittoTablesAreRefused() throws {
    let folder = try TemporaryDirectory("views")
    let path = folder.appending("Ditto.sqlite")
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try database.execute(
      sql: """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 0), (2, 'Ditto', 0, 0);
        CREATE TABLE real (x);
        CREATE VIEW ZCATEGORY AS SELECT 1 AS Z_PK, 'x' AS ZTITLE;
        CREATE VIEW ZDITTO AS SELECT 1 AS Z_PK, 'y' AS ZTEXT;
        """)
    try database.close()
    #expect(throws: LegacyStoreError.self) { try LegacyStoreReader.read(path: path) }
  }

  @Test func theSnapshotFolderIsRemoved() throws {
    let (folder, path) = try write(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1))
    let store = try CoreDataStore(path: path)
    let snapshot = store.snapshot.directory
    #expect(FileManager.default.fileExists(atPath: snapshot))
    store.snapshot.remove()
    #expect(!FileManager.default.fileExists(atPath: snapshot))
    _ = folder
  }
}

enum FileStatusSize {
  static func of(_ path: String) throws -> Int64 {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
  }
}
