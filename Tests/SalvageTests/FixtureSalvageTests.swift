import EngineTestSupport
import Foundation
import LegacyStore
import Testing

@testable import Salvage

/// The real Ditto 2.x fixtures in Tests/Fixtures/ditto-2x (never written to).
enum DittoFixtures {
  static let names = TestFixtures.dittoStores

  /// The fixture's folder; throws (failing the test) when it is missing.
  static func folder(_ name: String) throws -> String {
    try TestFixtures.path("ditto-2x/\(name)")
  }

  /// Copies the fixture's `Ditto.sqlite<suffix>` files into `folder` (writable copies we may damage);
  /// a listed file that is missing fails the test.
  static func copy(_ name: String, to folder: String, suffixes: [String]) throws {
    for suffix in suffixes {
      let source = try Self.folder(name) + "/Ditto.sqlite" + suffix
      let target = folder + "/Ditto.sqlite" + suffix
      try FileManager.default.copyItem(atPath: source, toPath: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
    }
  }
}

@Test(arguments: DittoFixtures.names)
func salvageOfFixtureEqualsReader(name: String) throws {
  let folder = try DittoFixtures.folder(name)
  let before = try FileHashes(folder: folder)
  let expected = try LegacyStoreReader.read(path: folder + "/Ditto.sqlite")
  let result = try Salvager.salvage(path: folder + "/Ditto.sqlite", options: SalvageOptions())
  #expect(result.library == expected)
  #expect(result.usedSQLite)
  #expect(try FileHashes(folder: folder) == before)
}

/// The assembler, given the rows SQLite reads, orders them exactly as LegacyStoreReader does.
@Test(arguments: DittoFixtures.names)
func assemblerAgreesWithReaderOnFixture(name: String) throws {
  let path = try DittoFixtures.folder(name) + "/Ditto.sqlite"
  let reading = SQLiteReading.read(path: path)
  #expect(reading.completeTables == Set(DittoTable.allCases))
  #expect(LibraryAssembler.assemble(reading.rows) == (try LegacyStoreReader.read(path: path)))
}

/// With the header zeroed SQLite cannot open the store: the decoder alone must give the same library.
@Test(arguments: ["intact", "reordered-ios8"])
func decoderAloneEqualsReaderOnFixture(name: String) throws {
  let expected = try LegacyStoreReader.read(path: DittoFixtures.folder(name) + "/Ditto.sqlite")
  let scratch = try TestFolder()
  try DittoFixtures.copy(name, to: scratch.path, suffixes: [""])
  let store = scratch.path + "/Ditto.sqlite"
  var bytes = try scratch.bytes(store)
  for index in 0..<100 { bytes[index] = 0 }
  try scratch.write(bytes, to: store)
  let before = try FileHashes(folder: scratch.path)
  let result = try Salvager.salvage(path: store, options: SalvageOptions())
  #expect(!result.usedSQLite)
  #expect(result.library == expected)
  #expect(try FileHashes(folder: scratch.path) == before)
}

/// The wal-only fixture's -wal alone (no main file, or a zero-length one) gives the whole library.
@Test(arguments: [false, true])
func walOnlyFixtureWithoutMainFile(zeroLengthMain: Bool) throws {
  let expected = try LegacyStoreReader.read(
    path: DittoFixtures.folder("wal-only") + "/Ditto.sqlite")
  let scratch = try TestFolder()
  try DittoFixtures.copy("wal-only", to: scratch.path, suffixes: ["-wal"])
  if zeroLengthMain { try scratch.write([], to: scratch.path + "/Ditto.sqlite") }
  let before = try FileHashes(folder: scratch.path)
  let result = try Salvager.salvage(path: scratch.path + "/Ditto.sqlite", options: SalvageOptions())
  #expect(result.library == expected)
  #expect(result.sources.map(\.kind) == [.wal])
  #expect(try FileHashes(folder: scratch.path) == before)
  #expect(Salvager.hasValidFrames(walPath: scratch.path + "/Ditto.sqlite-wal"))
}
