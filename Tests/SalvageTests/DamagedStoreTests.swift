import Foundation
import LegacyStore
import StoreFixtures
import Testing

@testable import Salvage

/// Checkpointed stores written by real SQLite, then damaged on a copy.
struct DamagedStoreTests {
  /// A closed (checkpointed) store of `categories` × `perCategory` dittos; returns its reader library.
  static func closedStore(
    in scratch: TestFolder, categories: Int = 5, perCategory: Int = 60, longEvery: Int = 11
  )
    throws -> (expected: LegacyLibrary, path: String)
  {
    let folder = try scratch.subfolder("store")
    let builder = try DittoStoreBuilder(folder: folder)
    try builder.add(
      DittoStoreBuilder.sample(
        categories: categories, perCategory: perCategory, longEvery: longEvery))
    try builder.close()
    return (try LegacyStoreReader.read(path: builder.path), builder.path)
  }

  /// Every salvaged ditto is a real one, in its real category, with its real use count, in order.
  static func expectFaithful(_ library: LegacyLibrary, to expected: LegacyLibrary) {
    var place: [String: (title: String, index: Int, useCount: Int64)] = [:]
    for category in expected.categories {
      for (index, ditto) in category.dittos.enumerated() {
        place[ditto.text] = (category.title, index, ditto.useCount)
      }
    }
    for category in library.categories {
      var last = -1
      for ditto in category.dittos {
        guard let original = place[ditto.text] else {
          Issue.record("salvage returned a text the store never held")
          continue
        }
        #expect(ditto.useCount == original.useCount)
        if category.title != LegacyStoreReader.recoveredTitle {
          #expect(category.title == original.title)
          #expect(original.index > last)
          last = original.index
        }
      }
    }
  }

  @Test func zeroedHeaderGivesWholeLibrary() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(in: scratch)
    var bytes = try scratch.bytes(path)
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: path)
    let before = try FileHashes(folder: scratch.path + "/store")
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(!result.usedSQLite)
    #expect(result.library == expected)
    #expect(try FileHashes(folder: scratch.path + "/store") == before)
  }

  /// Without a header the page size is inferred from where b-tree pages start.
  /// A damaged store extended by a 16 MiB hole (a sparse file): the same dittos come back, and
  /// pages wholly inside the hole are never read (a 2 GiB sparse file used to cost 524,288 reads).
  @Test func holesOfASparseStoreAreSkipped() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(in: scratch)
    var bytes = try scratch.bytes(path)
    let storedPages = bytes.count / 4096
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: path)
    guard truncate(path, off_t(bytes.count + (16 << 20))) == 0 else {
      Issue.record("cannot make a sparse file here")
      return
    }
    let before = try FileHashes(folder: scratch.path + "/store")
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(result.library == expected)
    let mainPages = try #require(result.sources.first { $0.kind == .main }).pages
    #expect(mainPages <= storedPages)
    #expect(try FileHashes(folder: scratch.path + "/store") == before)
  }

  @Test(arguments: [1024, 8192, 65536])
  func zeroedHeaderWithOtherPageSizes(pageSize: Int) throws {
    let scratch = try TestFolder()
    let folder = try scratch.subfolder("store")
    let builder = try DittoStoreBuilder(folder: folder, pageSize: pageSize)
    try builder.add(DittoStoreBuilder.sample(categories: 4, perCategory: 50, longEvery: 9))
    try builder.close()
    let expected = try LegacyStoreReader.read(path: builder.path)
    var bytes = try scratch.bytes(builder.path)
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: builder.path)
    let result = try Salvager.salvage(path: builder.path, options: SalvageOptions())
    #expect(result.library == expected)
    #expect(result.notes.contains { $0.contains("page size \(pageSize) inferred") })
  }

  @Test func truncatedStoreGivesWhatSurvives() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(in: scratch)
    let bytes = try scratch.bytes(path)
    let kept = Array(bytes.prefix(bytes.count * 6 / 10))
    try scratch.write(kept, to: path)
    let before = try FileHashes(folder: scratch.path + "/store")
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    Self.expectFaithful(result.library, to: expected)
    // Every short text whose bytes are still in the file comes back.
    let survivors = expected.categories.flatMap(\.dittos).filter { ditto in
      ditto.text.utf8.count < 1000 && Self.contains(kept, Array(ditto.text.utf8))
    }
    let found = Set(result.library.categories.flatMap(\.dittos).map(\.text))
    #expect(!survivors.isEmpty)
    #expect(survivors.allSatisfy { found.contains($0.text) })
    #expect(try FileHashes(folder: scratch.path + "/store") == before)
  }

  @Test func overwrittenInteriorPagesLoseOnlyTheirRows() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(in: scratch)
    var bytes = try scratch.bytes(path)
    let pages = bytes.count / 4096
    var generator = SeededGenerator(seed: 7)
    for page in [pages / 3, pages / 2, pages - 2] {
      for index in (page - 1) * 4096..<page * 4096 {
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
    }
    try scratch.write(bytes, to: path)
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    Self.expectFaithful(result.library, to: expected)
    #expect(result.library.dittoCount >= expected.dittoCount - 3 * 60)
    #expect(result.library.dittoCount > 0)
  }

  @Test func overwrittenDittoRootPageLosesNothing() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(in: scratch)
    let root = try Self.rootPage(of: "ZDITTO", in: path)
    var bytes = try scratch.bytes(path)
    var generator = SeededGenerator(seed: 11)
    for index in (root - 1) * 4096..<root * 4096 {
      bytes[index] = UInt8.random(in: 0...255, using: &generator)
    }
    try scratch.write(bytes, to: path)
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(result.library == expected)
    #expect(result.notes.contains { $0.contains("assigned by record shape") })
  }

  /// Texts of several pages (overflow chains) come back exactly when the header is gone.
  @Test func overflowTextsSurviveLostHeader() throws {
    let scratch = try TestFolder()
    let (expected, path) = try Self.closedStore(
      in: scratch, categories: 2, perCategory: 20, longEvery: 2)
    #expect(expected.categories.flatMap(\.dittos).filter { $0.text.utf8.count > 4096 }.count >= 10)
    var bytes = try scratch.bytes(path)
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: path)
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(result.library == expected)
  }

  // MARK: - Helpers

  static func rootPage(of table: String, in path: String) throws -> Int {
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    let statement = try store.database.makeStatement(
      sql: "SELECT rootpage FROM sqlite_master WHERE name = ?")
    try statement.bind(.text(table))
    return Int(try statement.scalarInt64() ?? 0)
  }

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    let first = needle[0]
    var index = 0
    while index <= haystack.count - needle.count {
      if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return true
      }
      index += 1
    }
    return false
  }
}
