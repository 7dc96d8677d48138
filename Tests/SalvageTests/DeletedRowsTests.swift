import Foundation
import LegacyStore
import Testing

@testable import Salvage

/// Rows the user deleted: found only with includeDeleted, and never put in the library.
struct DeletedRowsTests {
  /// A closed store where one whole category (freed pages) and every fifth other ditto
  /// (freeblocks) were deleted with secure_delete off.
  static func storeWithDeletions(in scratch: TestFolder) throws -> (
    path: String, deleted: Set<String>, live: LegacyLibrary
  ) {
    let folder = try scratch.subfolder("store")
    let builder = try DittoStoreBuilder(folder: folder, secureDelete: false)
    try builder.add(DittoStoreBuilder.sample(categories: 4, perCategory: 80, longEvery: 13))
    let all = try LegacyStoreReader.read(path: builder.path)
    try builder.execute(
      "DELETE FROM ZDITTO WHERE ZCATEGORY = 2 OR Z_PK % 5 = 0; DELETE FROM ZCATEGORY WHERE Z_PK = 2"
    )
    try builder.close()
    let live = try LegacyStoreReader.read(path: builder.path)
    let liveTexts = Set(live.categories.flatMap(\.dittos).map(\.text))
    let deleted = Set(all.categories.flatMap(\.dittos).map(\.text)).subtracting(liveTexts)
    return (builder.path, deleted, live)
  }

  @Test func deletedRowsAreListedApartOnlyWhenAsked() throws {
    let scratch = try TestFolder()
    let (path, deleted, live) = try Self.storeWithDeletions(in: scratch)
    #expect(deleted.count > 100)
    let before = try FileHashes(folder: scratch.path + "/store")

    let plain = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(plain.library == live)
    #expect(plain.deleted.isEmpty)
    #expect(!plain.sources.contains { $0.kind == .freelist })

    let result = try Salvager.salvage(path: path, options: SalvageOptions(includeDeleted: true))
    #expect(result.library == live)
    let found = Set(result.deleted.map(\.text))
    let liveTexts = Set(live.categories.flatMap(\.dittos).map(\.text))
    #expect(found.isSubset(of: deleted))
    #expect(found.isDisjoint(with: liveTexts))
    // Of the deleted texts whose bytes are still in the file, at least 90% are found.
    let file = try scratch.bytes(path)
    let present = deleted.filter { DamagedStoreTests.contains(file, Array($0.utf8)) }
    #expect(present.count * 2 >= deleted.count)
    #expect(
      found.intersection(present).count * 10 >= present.count * 9,
      "found \(found.intersection(present).count) of \(present.count) present")
    #expect(result.sources.first { $0.kind == .freelist }?.rows == result.deleted.count)
    #expect(try FileHashes(folder: scratch.path + "/store") == before)
  }

  /// With secure_delete on, SQLite zeroes freed space: nothing is found, and nothing is made up.
  @Test func secureDeleteLeavesNothingToFind() throws {
    let scratch = try TestFolder()
    let folder = try scratch.subfolder("store")
    let builder = try DittoStoreBuilder(folder: folder, secureDelete: true)
    try builder.add(DittoStoreBuilder.sample(categories: 2, perCategory: 60))
    try builder.execute("DELETE FROM ZDITTO WHERE Z_PK % 3 = 0")
    try builder.close()
    let result = try Salvager.salvage(
      path: builder.path, options: SalvageOptions(includeDeleted: true))
    #expect(result.deleted.isEmpty)
    #expect(result.library == (try LegacyStoreReader.read(path: builder.path)))
  }

  /// Rows deleted after the last checkpoint still sit in older -wal frames.
  @Test func deletedRowsInOlderWALFrames() throws {
    let scratch = try TestFolder()
    let build = try scratch.subfolder("build")
    let builder = try DittoStoreBuilder(folder: build)
    try builder.add(DittoStoreBuilder.sample(categories: 2, perCategory: 40))
    try builder.execute("DELETE FROM ZDITTO WHERE Z_PK <= 10")
    let copy = try scratch.subfolder("copy")
    try builder.copyFiles(to: copy)
    try builder.close()
    try FileManager.default.removeItem(atPath: copy + "/Ditto.sqlite")
    let result = try Salvager.salvage(
      path: copy + "/Ditto.sqlite", options: SalvageOptions(includeDeleted: true))
    #expect(result.library.dittoCount == 70)
    #expect(result.deleted.count == 10)
  }
}
