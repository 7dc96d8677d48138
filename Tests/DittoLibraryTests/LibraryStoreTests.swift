import Foundation
import LegacyStore
import SQLiteDB
import StoreFixtures
import TestSupport
import Testing

@testable import DittoLibrary

@Suite struct LibraryStoreTests {
  func items(_ categories: [(String, [String])]) -> LegacyItemSource {
    { sink in
      for (title, texts) in categories {
        try sink(.category(title: title, origin: .other("test")))
        for (index, text) in texts.enumerated() {
          try sink(.ditto(LegacyDitto(text: text, useCount: Int64(index * 10))))
        }
      }
    }
  }

  func contents(_ store: LibraryStore) throws -> [(String, [String])] {
    try store.load().categories.map { ($0.title, $0.dittos.map(\.text)) }
  }

  @Test func createsAVersionedLibraryAndReopensIt() throws {
    let folder = try TemporaryDirectory("library")
    let path = folder.appending("DittoLibrary.sqlite")
    let store = try LibraryStore(path: path)
    #expect(try store.schemaVersion() == LibrarySchema.currentVersion)
    try store.close()
    let again = try LibraryStore(path: path, createIfMissing: false)
    #expect(try again.load().categories.isEmpty)
  }

  @Test func mergesByTitleSkipsDuplicatesAndKeepsOrderAndUseCounts() throws {
    let folder = try TemporaryDirectory("merge")
    let store = try LibraryStore(path: folder.appending("DittoLibrary.sqlite"))
    _ = try store.importItems(items([("Work", ["a", "b"]), ("Home", ["h"])]))
    let counts = try store.importItems(
      items([("New", ["n1", "n2"]), ("Work", ["b", "c", "c"]), ("Home", ["h"])]))
    #expect(counts.categoriesRead == 3)
    #expect(counts.dittosRead == 6)
    #expect(counts.insertedCategories == 1)
    #expect(counts.inserted == 3)
    #expect(counts.skipped == 3)
    #expect(counts.inserted + counts.skipped == counts.dittosRead)
    let library = try store.load()
    #expect(library.categories.map(\.title) == ["Work", "Home", "New"])
    #expect(library.categories[0].dittos.map(\.text) == ["a", "b", "c"])
    #expect(library.categories[0].dittos.map(\.useCount) == [0, 10, 10])
    #expect(library.categories[2].dittos.map(\.useCount) == [0, 10])
  }

  @Test func importingTwiceInsertsNothingTheSecondTime() throws {
    let folder = try TemporaryDirectory("idempotent")
    let store = try LibraryStore(path: folder.appending("DittoLibrary.sqlite"))
    let source = items([("Work", ["a", "b"]), ("Empty", [])])
    let first = try store.importItems(source)
    let second = try store.importItems(source)
    #expect(first.inserted == 2)
    #expect(second.inserted == 0)
    #expect(second.skipped == 2)
    #expect(second.insertedCategories == 0)
    #expect(try store.load().dittoCount == 2)
  }

  @Test func anImportThatFailsHalfwayWritesNothing() throws {
    struct Boom: Error {}
    let folder = try TemporaryDirectory("atomic")
    let store = try LibraryStore(path: folder.appending("DittoLibrary.sqlite"))
    _ = try store.importItems(items([("Keep", ["k"])]))
    #expect(throws: Boom.self) {
      try store.importItems { sink in
        try sink(.category(title: "Half", origin: .other("")))
        try sink(.ditto(LegacyDitto(text: "one")))
        throw Boom()
      }
    }
    #expect(try contents(store).map(\.0) == ["Keep"])
  }

  @Test func aSourceWithoutDittosWritesNothing() throws {
    let folder = try TemporaryDirectory("empty")
    let store = try LibraryStore(path: folder.appending("DittoLibrary.sqlite"))
    let counts = try store.importItems(items([("Empty", [])]))
    #expect(counts.dittosRead == 0)
    #expect(try store.load().categories.isEmpty)
  }

  @Test func previewCountsWhatAnImportWouldDoAndWritesNothing() throws {
    let folder = try TemporaryDirectory("preview")
    let path = folder.appending("DittoLibrary.sqlite")
    let store = try LibraryStore(path: path)
    _ = try store.importItems(items([("Work", ["a"])]))
    try store.close()
    let before = try FileHashes(of: folder.path)
    let source = items([
      ("Work", ["a", "b", "b"]), ("New", ["x", "x", "y"]), ("New", ["y", "z"]),
    ])
    let preview = try LibraryStore.openReadOnly(path: path).previewImport(source)
    let after = try FileHashes(of: folder.path)
    #expect(after.preserves(before), "\(after.changes(since: before)) \(after)")
    let real = try LibraryStore(path: path).importItems(source)
    #expect(preview == real)
  }

  @Test func previewWithoutALibraryDoesNotCreateOne() throws {
    let folder = try TemporaryDirectory("nolibrary")
    let path = folder.appending("DittoLibrary.sqlite")
    let counts = try LibraryStore.openReadOnly(path: path).previewImport(
      items([("A", ["1", "2"])]))
    #expect(counts.inserted == 2)
    #expect(counts.insertedCategories == 1)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func refusesFilesThatAreNotItsOwnAndLeavesThemUntouched() throws {
    let folder = try TemporaryDirectory("foreign")
    let builder = try ContainerBuilder(root: folder.path)
    try builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1), journal: .walOnly)
    try builder.writeGarbage(count: 4096, seed: 2, at: "garbage.sqlite")
    let other = Database.self
    let plain = try other.init(path: folder.appending("plain.sqlite"), mode: .readWriteCreate)
    try plain.execute(sql: "CREATE TABLE t (x)")
    try plain.close()
    let before = try FileHashes(of: folder.path)
    for name in ["Ditto.sqlite", "garbage.sqlite", "plain.sqlite"] {
      #expect(throws: LibraryError.self, "\(name)") {
        try LibraryStore(path: folder.appending(name))
      }
    }
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func adoptsAnEmptyFile() throws {
    let folder = try TemporaryDirectory("adopt")
    let path = folder.appending("DittoLibrary.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let store = try LibraryStore(path: path)
    #expect(try store.schemaVersion() == LibrarySchema.currentVersion)
  }

  @Test func refusesANewerSchema() throws {
    let folder = try TemporaryDirectory("newer")
    let path = folder.appending("DittoLibrary.sqlite")
    let store = try LibraryStore(path: path)
    try store.database.execute(sql: "PRAGMA user_version = 99")
    try store.close()
    #expect(
      throws: LibraryError.newerSchema(
        file: path, found: 99, supported: LibrarySchema.currentVersion)
    ) {
      try LibraryStore(path: path)
    }
  }

  @Test func concurrentImportsNeverInsertTwice() async throws {
    let folder = try TemporaryDirectory("concurrent")
    let path = folder.appending("DittoLibrary.sqlite")
    try LibraryStore(path: path).close()
    let texts = (0..<200).map { "text \($0)" }
    let results = try await withThrowingTaskGroup(of: ImportCounts.self) { group in
      for _ in 0..<4 {
        group.addTask {
          let store = try LibraryStore(path: path)
          return try store.importItems { sink in
            try sink(.category(title: "Shared", origin: .other("")))
            for text in texts { try sink(.ditto(LegacyDitto(text: text))) }
          }
        }
      }
      var all: [ImportCounts] = []
      for try await counts in group { all.append(counts) }
      return all
    }
    #expect(results.reduce(0) { $0 + $1.inserted } == 200)
    #expect(results.reduce(0) { $0 + $1.insertedCategories } == 1)
    let library = try LibraryStore(path: path).load()
    #expect(library.categories.count == 1)
    #expect(library.dittoCount == 200)
  }
}
