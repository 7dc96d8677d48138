import Foundation
import LegacyStore
import StoreFixtures
import Testing

@testable import Salvage

/// Inputs with nothing (or nothing Ditto) to decode, and random damage: never a crash.
struct MalformedInputTests {
  @Test func missingStoreIsNotFound() throws {
    let scratch = try TestFolder()
    #expect(throws: LegacyStoreError.notFound(file: scratch.path + "/Ditto.sqlite")) {
      try Salvager.salvage(path: scratch.path + "/Ditto.sqlite", options: SalvageOptions())
    }
  }

  @Test func emptyMainWithoutWALIsNotADatabase() throws {
    let scratch = try TestFolder()
    try scratch.write([], to: scratch.path + "/Ditto.sqlite")
    #expect(throws: LegacyStoreError.self) {
      try Salvager.salvage(path: scratch.path + "/Ditto.sqlite", options: SalvageOptions())
    }
    do {
      _ = try Salvager.salvage(path: scratch.path + "/Ditto.sqlite", options: SalvageOptions())
    } catch {
      #expect(error.code == "not_a_database")
    }
  }

  @Test(arguments: [1, 100, 4096, 65536, 300_000])
  func randomBytesThrowOrGiveNothing(size: Int) throws {
    let scratch = try TestFolder()
    var generator = SeededGenerator(seed: UInt64(size))
    let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try scratch.write(bytes, to: scratch.path + "/Ditto.sqlite")
    try scratch.write(Array(bytes.prefix(5000)), to: scratch.path + "/Ditto.sqlite-wal")
    let before = try FileHashes(folder: scratch.path)
    do {
      let result = try Salvager.salvage(
        path: scratch.path + "/Ditto.sqlite", options: SalvageOptions(includeDeleted: true))
      #expect(result.library.isEmpty)
    } catch {
      #expect(["not_a_database", "not_a_ditto_store"].contains(error.code))
    }
    #expect(try FileHashes(folder: scratch.path) == before)
  }

  @Test func fifoIsRefusedWithoutBlocking() throws {
    let scratch = try TestFolder()
    let path = scratch.path + "/Ditto.sqlite"
    #expect(mkfifo(path, 0o600) == 0)
    #expect(throws: LegacyStoreError.self) {
      try Salvager.salvage(path: path, options: SalvageOptions())
    }
  }

  @Test func nonDittoDatabaseIsNotADittoStore() throws {
    let scratch = try TestFolder()
    let builder = try DittoStoreBuilder(folder: scratch.path, name: "Other.sqlite")
    try builder.execute(
      "DROP TABLE ZDITTO; DROP TABLE ZCATEGORY; DROP TABLE ZPROFILE; CREATE TABLE notes(a, b); INSERT INTO notes VALUES (1, 'x')"
    )
    try builder.close()
    var bytes = try scratch.bytes(builder.path)
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: builder.path)
    do {
      _ = try Salvager.salvage(path: builder.path, options: SalvageOptions())
      Issue.record("expected an error")
    } catch {
      #expect(error.code == "not_a_ditto_store")
    }
  }

  /// A Ditto store with no dittos is a result (empty library), not an error, even undecodable by SQLite.
  @Test func emptyDittoStoreIsReturnedEmpty() throws {
    let scratch = try TestFolder()
    let builder = try DittoStoreBuilder(folder: scratch.path)
    try builder.close()
    var bytes = try scratch.bytes(builder.path)
    for index in 0..<100 { bytes[index] = 0 }
    try scratch.write(bytes, to: builder.path)
    let result = try Salvager.salvage(path: builder.path, options: SalvageOptions())
    #expect(result.library.isEmpty)
  }

  /// Random byte mutations of a valid store and its -wal: salvage returns or throws, never crashes,
  /// and whatever it returns was in the store.
  @Test func randomMutationsNeverCrash() throws {
    let scratch = try TestFolder()
    let build = try scratch.subfolder("build")
    let builder = try DittoStoreBuilder(folder: build)
    try builder.add(DittoStoreBuilder.sample(categories: 3, perCategory: 25, longEvery: 7))
    let original = try scratch.subfolder("original")
    try builder.copyFiles(to: original)
    try builder.close()
    let texts = Set(
      try LegacyStoreReader.read(path: original + "/Ditto.sqlite").categories.flatMap(\.dittos).map(
        \.text))
    let main = try scratch.bytes(original + "/Ditto.sqlite")
    let wal = try scratch.bytes(original + "/Ditto.sqlite-wal")
    var generator = SeededGenerator(seed: 2024)
    let work = try scratch.subfolder("work")
    for iteration in 0..<60 {
      var mutatedMain = main
      var mutatedWAL = wal
      for _ in 0..<Int.random(in: 1...40, using: &generator) {
        if Bool.random(using: &generator), !mutatedWAL.isEmpty {
          mutatedWAL[Int.random(in: 0..<mutatedWAL.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        } else {
          mutatedMain[Int.random(in: 0..<mutatedMain.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
      }
      if iteration % 5 == 0 {
        mutatedWAL = Array(
          mutatedWAL.prefix(Int.random(in: 0...mutatedWAL.count, using: &generator)))
      }
      try scratch.write(mutatedMain, to: work + "/Ditto.sqlite")
      try scratch.write(mutatedWAL, to: work + "/Ditto.sqlite-wal")
      do {
        let result = try Salvager.salvage(
          path: work + "/Ditto.sqlite", options: SalvageOptions(includeDeleted: true))
        // Mutations may hit a text SQLite then reads (valid UTF-8 but changed); the decoder's own
        // rows are checked in the damaged-store tests. Here: no crash, and a sane shape.
        #expect(result.library.dittoCount <= texts.count + 80)
      } catch {
        #expect(!error.code.isEmpty)
      }
    }
  }
}
