import DittoLibrary
import Foundation
import LegacyMigration
import LegacyStore
import SQLiteDB
import StoreFixtures
import TestSupport
import Testing

/// The SQL copy of a store (`importItems(bulk:)`) must do exactly what the row-by-row import of its
/// walk does: same rows, order, use counts and counts, including merges and duplicates.
@Suite struct BulkImportTests {
  typealias Ditto = LegacyStoreSpec.Ditto

  static let spec: LegacyStoreSpec = {
    var spec = LegacyStoreSpec(
      categories: [
        .init(
          title: "Work",
          dittos: [
            Ditto(text: "a", useCount: 3), Ditto(text: "b", useCount: nil),
            Ditto(text: "a", useCount: 9),
            Ditto(text: nil), Ditto(text: ""), Ditto(text: "c", useCount: 1, orderKey: 10),
          ]),
        .init(
          title: "Existing",
          dittos: [Ditto(text: "old"), Ditto(text: "new 1"), Ditto(text: "new 2")]),
        .init(title: "Work", dittos: [Ditto(text: "b"), Ditto(text: "d")], profile: 2),
        .init(title: nil, dittos: [Ditto(text: "untitled one")]),
        .init(title: "All old", dittos: [Ditto(text: "x"), Ditto(text: "y")], profile: nil),
      ],
      dittosWithoutCategory: [Ditto(text: "lost", useCount: 4), Ditto(text: "")],
      profileCount: 2, shufflesPrimaryKeys: true)
    spec.categories[0].dittos[1].hasNullOrderKey = true
    return spec
  }()

  func seededLibrary(_ path: String) throws -> LibraryStore {
    let library = try LibraryStore(path: path)
    _ = try library.importItems { sink in
      try sink(.category(title: "Existing", origin: .other("app")))
      try sink(.ditto(LegacyDitto(text: "old", useCount: 1)))
      try sink(.category(title: "All old", origin: .other("app")))
      try sink(.ditto(LegacyDitto(text: "y")))
      try sink(.ditto(LegacyDitto(text: "x")))
    }
    return library
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func bulkCopyMatchesTheRowByRowImport(seed: UInt64) throws {
    let folder = try TemporaryDirectory("bulk")
    let store = folder.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(
      Self.spec, to: store, journal: seed % 2 == 0 ? .walOnly : .walCheckpointed, seed: seed)
    let opened = try CoreDataStore(path: store)
    defer { opened.snapshot.remove() }
    let reader = try DittoStoreReader(store: opened)

    let rowLibrary = try seededLibrary(folder.appending("rows.sqlite"))
    let preview = try LibraryStore.openReadOnly(path: folder.appending("rows.sqlite")).previewImport
    { try reader.walk($0) }
    let rowCounts = try rowLibrary.importItems { try reader.walk($0) }
    let bulkLibrary = try seededLibrary(folder.appending("bulk.sqlite"))
    let bulkCounts = try bulkLibrary.importItems(bulk: try #require(try reader.makeBulkSource()))

    #expect(bulkCounts.dittosRead == rowCounts.dittosRead)
    #expect(bulkCounts.inserted == rowCounts.inserted)
    #expect(bulkCounts.skipped == rowCounts.skipped)
    #expect(bulkCounts.insertedCategories == rowCounts.insertedCategories)
    #expect(bulkCounts.categoriesRead == rowCounts.categoriesRead)
    #expect(bulkCounts.categoriesReceivingDittos == rowCounts.categoriesReceivingDittos)
    #expect(preview == rowCounts)
    let rows = try rowLibrary.load()
    let bulk = try bulkLibrary.load()
    #expect(bulk.categories.map(\.title) == rows.categories.map(\.title))
    #expect(
      bulk.categories.map { $0.dittos.map(\.text) } == rows.categories.map { $0.dittos.map(\.text) }
    )
    #expect(
      bulk.categories.map { $0.dittos.map(\.useCount) }
        == rows.categories.map { $0.dittos.map(\.useCount) })
    #expect(
      rows.categories.map(\.title) == ["Existing", "All old", "Work", "Untitled", "Recovered"])
    #expect(rows.categories[2].dittos.map(\.text) == ["c", "a", "b", "d"])
    #expect(rows.categories[2].dittos.map(\.useCount) == [1, 3, 0, 0])

    // Again: everything is a duplicate now, on both paths.
    let again = try bulkLibrary.importItems(bulk: try #require(try reader.makeBulkSource()))
    #expect(again.inserted == 0)
    #expect(again.skipped == again.dittosRead)
  }

  /// A text holding NUL bytes: the row-by-row import cut it at the first NUL while the SQL copy kept
  /// it whole (found by Fuzz/Sources/fuzz-bulk-import). Both now keep it, and tell it from its prefix.
  @Test func textsWithNULBytesAreKeptWholeOnBothPaths() throws {
    let folder = try TemporaryDirectory("bulk-nul")
    let store = folder.appending("Ditto.sqlite")
    let spec = LegacyStoreSpec(
      categories: [.init(title: "Work", dittos: [Ditto(text: "before"), Ditto(text: "x")])])
    try LegacyStoreWriter.write(spec, to: store, journal: .delete)
    let writer = try Database(path: store, mode: .readWrite)
    try writer.execute(
      sql: "UPDATE ZDITTO SET ZTEXT = 'before' || char(0) || 'after' WHERE ZTEXT = 'x'")
    try writer.close()
    let opened = try CoreDataStore(path: store)
    defer { opened.snapshot.remove() }
    let reader = try DittoStoreReader(store: opened)
    let rowLibrary = try LibraryStore(path: folder.appending("rows.sqlite"))
    let rowCounts = try rowLibrary.importItems { try reader.walk($0) }
    let bulkLibrary = try LibraryStore(path: folder.appending("bulk.sqlite"))
    let bulkCounts = try bulkLibrary.importItems(bulk: try #require(try reader.makeBulkSource()))
    #expect(rowCounts == bulkCounts)
    #expect(rowCounts.inserted == 2)
    let expected = ["before", "before\u{0}after"]
    #expect(try rowLibrary.load().categories.map { $0.dittos.map(\.text) } == [expected])
    #expect(try bulkLibrary.load().categories.map { $0.dittos.map(\.text) } == [expected])
  }

  /// "Everything is already there" is decided with fingerprints (two sequential scans) below
  /// `fingerprintPrecheckLimit` and by index probes above it: both must give the same answer as
  /// SQL's equality, down to one byte, the category, NUL bytes and values that are not TEXT.
  @Test func fingerprintsAndIndexProbesAgreeOnWhatIsAlreadyThere() throws {
    let folder = try TemporaryDirectory("bulk-presence")
    let store = folder.appending("Ditto.sqlite")
    let spec = LegacyStoreSpec(
      categories: [
        .init(title: "Work", dittos: [Ditto(text: "a"), Ditto(text: "ab"), Ditto(text: "n")]),
        .init(title: "Home", dittos: [Ditto(text: "b"), Ditto(text: "12345678 and more")]),
      ])
    try LegacyStoreWriter.write(spec, to: store, journal: .delete)
    try Database(path: store, mode: .readWrite).execute(
      sql: "UPDATE ZDITTO SET ZTEXT = 'n' || char(0) || 'ul' WHERE ZTEXT = 'n'")

    let limits = [
      0, try LibraryStore(path: folder.appending("probe.sqlite")).fingerprintPrecheckLimit,
    ]
    func importStore(into library: LibraryStore) throws -> ImportCounts {
      let opened = try CoreDataStore(path: store)
      defer { opened.snapshot.remove() }
      return try library.importItems(
        bulk: try #require(try DittoStoreReader(store: opened).makeBulkSource()))
    }
    let libraries = try limits.enumerated().map { index, limit in
      let library = try LibraryStore(path: folder.appending("library-\(index).sqlite"))
      library.fingerprintPrecheckLimit = limit
      #expect(try importStore(into: library).inserted == 5)
      return library
    }

    /// Changes the store, imports it into both libraries, and checks both counted `inserted`.
    func expectBoth(insert inserted: Int, after change: String, _ comment: Comment) throws {
      if !change.isEmpty {
        try Database(path: store, mode: .readWrite).execute(sql: change)
      }
      for library in libraries {
        let counts = try importStore(into: library)
        #expect(counts.inserted == inserted, comment)
        #expect(counts.skipped == counts.dittosRead - inserted, comment)
      }
    }
    try expectBoth(insert: 0, after: "", "unchanged store: all present")
    try expectBoth(
      insert: 1, after: "UPDATE ZDITTO SET ZTEXT = 'aB' WHERE ZTEXT = 'ab'", "one byte differs")
    try expectBoth(
      insert: 1, after: "UPDATE ZDITTO SET ZTEXT = 'n' || char(0) || 'uL' WHERE ZTEXT LIKE 'n%'",
      "differs after a NUL byte")
    try expectBoth(
      insert: 1,
      after: """
        UPDATE ZDITTO SET ZCATEGORY = (SELECT Z_PK FROM ZCATEGORY WHERE ZTITLE = 'Home')
        WHERE ZTEXT = 'a'
        """, "same text, other category")
    try expectBoth(
      insert: 1, after: "UPDATE ZDITTO SET ZTEXT = '12345678 and more!' WHERE ZTEXT LIKE '1234%'",
      "differs in the last partial word")
    try expectBoth(insert: 0, after: "", "all present again")
    for library in libraries {
      let texts = try library.load().categories.map { $0.dittos.map(\.text) }
      #expect(texts.map { $0.count } == [5, 4])
    }
  }
}
