import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles
import StoreFixtures
import Testing

/// Stores that are not Ditto 3.x libraries, or cannot be written now: refused or failed, and left
/// byte for byte as they were (all three files hashed).
@Suite struct RefusalTests {
  static let sources = [
    MergeSource(
      kind: "v1", categories: [MergeCategory(title: "General", dittos: [MergeDitto(text: "x")])])
  ]

  /// Applies an import to `store` and returns the error; records an issue when it succeeds.
  func importError(_ store: String, busyTimeout: Int32 = 5_000) -> DestinationError? {
    let destination = DittoStoreDestination(path: store, busyTimeoutMilliseconds: busyTimeout)
    do {
      _ = try destination.merge(Self.sources)
      Issue.record("the import into \(store) succeeded")
      return nil
    } catch {
      #expect(error.libraryError != nil, "only the library can fail here: \(error)")
      return error.libraryError
    }
  }

  /// A store written by the fixture writer, then changed by `alter` (tests may run DDL).
  func alteredStore(
    _ folder: TemporaryDirectory, spec: SwiftDataStoreSpec = .presets, alter: String? = nil
  ) throws -> String {
    let store = folder.appending("Ditto.store")
    try SwiftDataStoreWriter.write(spec, to: store, journal: .walOnly)
    if let alter {
      let scratch = try TemporaryDirectory("alter")
      let copy = scratch.appending("Ditto.store")
      try SwiftDataStoreWriter.write(spec, to: copy)
      let database = try Database(path: UserPath.resolvingFolder(of: copy), mode: .readWrite)
      try database.execute(sql: alter)
      try database.close()
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
      try FileManager.default.copyItem(atPath: copy, toPath: store)
    }
    return store
  }

  enum Case: String, CaseIterable, Sendable {
    case unknownColumn, missingColumn, missingTable, viewInsteadOfTable, missingEntity, trigger
    case extraEntity, partialHistory, notCoreData, ditto2x, notSQLite, zeroBytes
  }

  @Test(arguments: Case.allCases)
  func refusedAndUntouched(_ kind: Case) throws {
    let folder = try TemporaryDirectory("refuse")
    var store = folder.appending("Ditto.store")
    var expectedWords: [String]
    switch kind {
    case .unknownColumn:
      var spec = SwiftDataStoreSpec.presets
      spec.extraItemColumn = "ZEMOJI"
      store = try alteredStore(folder, spec: spec)
      expectedWords = ["ZDITTOITEM", "ZEMOJI"]
    case .missingColumn:
      store = try alteredStore(folder, alter: "ALTER TABLE ZDITTOCATEGORY DROP COLUMN ZMODIFIEDAT")
      expectedWords = ["ZDITTOCATEGORY", "ZMODIFIEDAT"]
    case .missingTable:
      store = try alteredStore(folder, alter: "DROP TABLE ZPROFILE")
      expectedWords = ["ZPROFILE", "missing"]
    case .viewInsteadOfTable:
      store = try alteredStore(
        folder,
        alter:
          "DROP TABLE ZPROFILE; CREATE VIEW ZPROFILE AS SELECT 1 AS Z_PK, 3 AS Z_ENT, 1 AS Z_OPT")
      expectedWords = ["ZPROFILE", "view"]
    case .missingEntity:
      store = try alteredStore(folder, alter: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoItem'")
      expectedWords = ["DittoItem"]
    case .trigger:
      store = try alteredStore(
        folder,
        alter: "CREATE TRIGGER t AFTER INSERT ON ZDITTOITEM BEGIN DELETE FROM ZDITTOITEM; END")
      expectedWords = ["trigger"]
    case .extraEntity:
      store = try alteredStore(
        folder, alter: "INSERT INTO Z_PRIMARYKEY VALUES (4, 'Snippet', 0, 0)")
      expectedWords = ["entity"]
    case .partialHistory:
      store = try alteredStore(folder, alter: "DROP TABLE ACHANGE")
      expectedWords = ["history", "ATRANSACTION"]
    case .notCoreData:
      let database = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWriteCreate)
      try database.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('a')")
      try database.close()
      expectedWords = ["Core Data", "Z_PRIMARYKEY"]
    case .ditto2x:
      try LegacyStoreWriter.write(
        LegacyStoreSpec(categories: [.init(title: "General", dittos: [.init(text: "a")])]),
        to: store)
      expectedWords = ["2.x", "DittoCategory"]
    case .notSQLite:
      try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: store))
      expectedWords = ["not an SQLite database"]
    case .zeroBytes:
      try Data().write(to: URL(fileURLWithPath: store))
      expectedWords = ["not an SQLite database"]
    }
    let before = try FileHashes(of: folder.path)
    let error = try #require(importError(store))
    #expect(error.kind == .refused, "\(error)")
    #expect(error.file == store)
    for word in expectedWords { #expect(error.reason.contains(word), "\(error.reason)") }
    let after = try FileHashes(of: folder.path)
    #expect(after == before, "\(after.changes(since: before))")
    // The user's text never appears in a reason.
    #expect(!error.reason.contains("Welcome"))
  }

  @Test func aMissingFileIsNoLibraryAndNothingIsCreated() throws {
    let folder = try TemporaryDirectory("refuse-missing")
    let store = folder.appending("Ditto.store")
    let error = try #require(importError(store))
    #expect(error.kind == .noLibrary)
    #expect(error.reason.contains("no Ditto 3.x library"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aReadOnlyFileFailsToWriteAndStaysAsItWas() throws {
    let folder = try TemporaryDirectory("refuse-readonly")
    let store = try Fixtures.copy("presets", into: folder)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
    }
    let before = try FileHashes(of: folder.path)
    let error = try #require(importError(store))
    #expect(error.kind == .writeFailed, "\(error)")
    #expect(error.reason.contains("read-only"))
    #expect(error.cause == .readOnly)
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func aLockedStoreFailsAfterTheBusyTimeoutAndStaysAsItWas() throws {
    let folder = try TemporaryDirectory("refuse-locked")
    let store = try Fixtures.copy("cloudkit-gaps", into: folder)
    let holder = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWrite)
    try holder.setCheckpointsOnClose(false)
    try holder.execute(sql: "BEGIN IMMEDIATE")
    let mainAndWAL = { () throws -> [String: String] in
      try FileHashes(of: folder.path).entries.filter { !$0.key.hasSuffix("-shm") }
    }
    let before = try mainAndWAL()
    let error = try #require(importError(store, busyTimeout: 50))
    #expect(error.kind == .writeFailed, "\(error)")
    #expect(error.reason.contains("locked"))
    #expect(try mainAndWAL() == before)
    try holder.execute(sql: "ROLLBACK")
    try holder.close()
    // Once the lock is gone the same import goes through.
    let plan = try DittoStoreDestination(path: store).merge(Self.sources)
    #expect(plan.counts.inserted == 1)
  }

  @Test func aWriteThatFailsHalfwayRollsEverythingBack() throws {
    // A unique index (the column set is the app's, so the store is accepted) makes the third
    // insert fail after two rows and a category went in.
    let folder = try TemporaryDirectory("refuse-halfway")
    let store = try alteredStore(
      folder, alter: "CREATE UNIQUE INDEX ZTEXT_UNIQUE ON ZDITTOITEM (ZTEXT)")
    let before = try DittoStoreFile.summary(at: store)
    let hashes = try FileHashes(of: folder.path)
    let sources = [
      MergeSource(
        kind: "file",
        categories: [
          MergeCategory(
            title: "New",
            dittos: [
              MergeDitto(text: "a"), MergeDitto(text: "b"), MergeDitto(text: "Welcome to Ditto!"),
            ])
        ])
    ]
    let destination = DittoStoreDestination(path: store)
    do {
      _ = try destination.merge(sources)
      Issue.record("an insert that violates a unique index was written")
    } catch {
      let problem = try #require(error.libraryError)
      #expect(problem.kind == .writeFailed)
      #expect(problem.reason.contains("nothing was written"))
      #expect(!problem.reason.contains("Welcome"))
    }
    #expect(destination.lastReceipt() == nil)
    #expect(try DittoStoreFile.summary(at: store) == before)
    #expect(try FileHashes(of: folder.path) == hashes)
  }

  @Test func aPlanNamingAnUnknownCategoryWritesNothing() throws {
    let folder = try TemporaryDirectory("refuse-plan")
    let store = try Fixtures.copy("presets", into: folder)
    let hashes = try FileHashes(of: folder.path)
    do {
      try DittoStoreDestination(path: store).applyImport { (session) throws(ImportFailure) in
        do throws(DestinationError) {
          try session.insertDitto(text: "x", useCount: 0, sortOrder: 0, in: CategoryID(999))
        } catch {
          throw .library(error)
        }
      }
      Issue.record("a ditto into a category that does not exist was written")
    } catch {
      #expect(error.libraryError?.kind == .writeFailed)
    }
    #expect(try FileHashes(of: folder.path) == hashes)
  }
}

/// The destination keeps a streamed source's failure apart from its own, and undoes the rows that
/// went in before it.
@Suite struct StreamedFailureTests {
  struct Unreadable: Error, CustomStringConvertible {
    var description: String { "Ditto.sqlite: could not be read (I/O error)" }
  }

  struct FailingAfterTwo: MergeSourceStream {
    let kind = "coredata"
    let categoryTitles = ["From 2.x"]
    let dittoCount = 2
    func stream(_ visit: (MergeItem) throws(ImportFailure) -> Void) throws(ImportFailure) {
      try visit(.category(title: "From 2.x"))
      try visit(.ditto(MergeDitto(text: "one")))
      try visit(.ditto(MergeDitto(text: "two")))
      throw .source(SourceReadFailure(Unreadable()))
    }
  }

  @Test(arguments: Fixtures.names)
  func aSourceFailingMidImportRollsBackAndIsNotALibraryError(name: String) throws {
    let folder = try TemporaryDirectory("streamed-failure")
    let store = try Fixtures.copy(name, into: folder)
    let hashes = try FileHashes(of: folder.path)
    let destination = DittoStoreDestination(path: store)
    do {
      _ = try destination.applyImport { (session) throws(ImportFailure) in
        try LibraryMerger.merge([FailingAfterTwo()], into: session)
      }
      Issue.record("an import whose source failed was kept")
    } catch {
      #expect(error.libraryError == nil, "a source failure reported as the library's")
    }
    #expect(destination.lastReceipt() == nil)
    #expect(try FileHashes(of: folder.path) == hashes)
  }
}
