import EngineTestSupport
import LegacyStore
import Testing

/// The 2.x stores made outside this repository (Tests/Fixtures/ditto-2x) must read exactly as their
/// expected.json says.
@Suite
struct FixtureTests {
  @Test(arguments: TestFixtures.dittoStores)
  func readsExactlyTheExpectedContent(name: String) throws {
    let folder = try TestFixtures.path("ditto-2x/" + name)
    let before = try FileHashes(of: folder)
    let library = try LegacyStoreReader.read(path: folder + "/Ditto.sqlite")
    let expected = try TestFixtures.expected(name)
    #expect(library.categories.map(\.title) == expected.map(\.title))
    for (read, want) in zip(library.categories, expected) {
      #expect(read.dittos.map(\.text) == want.dittos.map(\.text), "\(want.title)")
      #expect(read.dittos.map(\.useCount) == want.dittos.map(\.useCount), "\(want.title)")
    }
    let after = try FileHashes(of: folder)
    #expect(after == before, "\(after.changes(since: before)) \(after) vs \(before)")
  }

  @Test func walOnlyRowsNeedTheWAL() throws {
    // The main file alone holds no Ditto tables: every row is in the -wal.
    let scratch = try TemporaryDirectory()
    let source = try TestFixtures.path("ditto-2x/wal-only/Ditto.sqlite")
    try FileManagerCopy.copy(source, to: scratch.appending("Ditto.sqlite"))
    #expect(throws: LegacyStoreError.self) {
      try LegacyStoreReader.read(path: scratch.appending("Ditto.sqlite"))
    }
  }

  /// A 2.x store whose category index disagrees with its table (`ZCATEGORY_ZPROFILE_INDEX` built on
  /// `Z_FOK_PROFILE`, still declared on `ZPROFILE`): searched through it, the profile's categories
  /// are none, and every ditto in them would be dropped. The categories are scanned instead, so
  /// everything is read as the intact store reads.
  @Test func aDamagedCategoryIndexHidesNoCategory() throws {
    let scratch = try TemporaryDirectory()
    let store = scratch.appending("Ditto.sqlite")
    try FileManagerCopy.copy(try TestFixtures.path("ditto-2x/intact/Ditto.sqlite"), to: store)
    try DamagedIndex.make(
      "ZCATEGORY_ZPROFILE_INDEX", of: "ZCATEGORY", declared: "ZPROFILE", builtOn: "Z_FOK_PROFILE",
      in: store)
    let library = try LegacyStoreReader.read(path: store)
    let expected = try TestFixtures.expected("intact")
    #expect(library.categories.map(\.title) == expected.map(\.title))
    #expect(
      library.categories.map { $0.dittos.map(\.text) } == expected.map { $0.dittos.map(\.text) })
  }
}
