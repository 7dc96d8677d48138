import Foundation
import LegacyStore
import Testing

@testable import Salvage

/// The real Ditto 2.x fixtures in shared/fixtures/ditto-2x (read-only).
enum SharedFixtures {
  static let names = ["intact", "reordered-ios8", "wal-only"]

  static func folder(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../shared/fixtures/ditto-2x/\(name)").standardized.path
  }

  /// Copies a fixture's files into `folder` (writable copies we may damage).
  static func copy(_ name: String, to folder: String, suffixes: [String] = ["", "-wal", "-shm"])
    throws
  {
    for suffix in suffixes {
      let source = Self.folder(name) + "/Ditto.sqlite" + suffix
      guard FileManager.default.fileExists(atPath: source) else { continue }
      let target = folder + "/Ditto.sqlite" + suffix
      try FileManager.default.copyItem(atPath: source, toPath: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
    }
  }
}

@Test(arguments: SharedFixtures.names)
func salvageOfSharedFixtureEqualsReader(name: String) throws {
  let folder = SharedFixtures.folder(name)
  let before = try FileHashes(folder: folder)
  let expected = try DittoStoreReader.read(path: folder + "/Ditto.sqlite")
  let result = try Salvager.salvage(path: folder + "/Ditto.sqlite", options: SalvageOptions())
  #expect(result.library == expected)
  #expect(result.usedSQLite)
  #expect(try FileHashes(folder: folder) == before)
}

/// The assembler, given the rows SQLite reads, orders them exactly as DittoStoreReader does.
@Test(arguments: SharedFixtures.names)
func assemblerAgreesWithReaderOnSharedFixture(name: String) throws {
  let path = SharedFixtures.folder(name) + "/Ditto.sqlite"
  let reading = SQLiteReading.read(path: path)
  #expect(reading.completeTables == Set(DittoTable.allCases))
  #expect(LibraryAssembler.assemble(reading.rows) == (try DittoStoreReader.read(path: path)))
}

/// With the header zeroed SQLite cannot open the store: the decoder alone must give the same library.
@Test(arguments: ["intact", "reordered-ios8"])
func decoderAloneEqualsReaderOnSharedFixture(name: String) throws {
  let expected = try DittoStoreReader.read(path: SharedFixtures.folder(name) + "/Ditto.sqlite")
  let scratch = try TestFolder()
  try SharedFixtures.copy(name, to: scratch.path, suffixes: [""])
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
func sharedWALOnlyFixtureWithoutMainFile(zeroLengthMain: Bool) throws {
  let expected = try DittoStoreReader.read(
    path: SharedFixtures.folder("wal-only") + "/Ditto.sqlite")
  let scratch = try TestFolder()
  try SharedFixtures.copy("wal-only", to: scratch.path, suffixes: ["-wal"])
  if zeroLengthMain { try scratch.write([], to: scratch.path + "/Ditto.sqlite") }
  let before = try FileHashes(folder: scratch.path)
  let result = try Salvager.salvage(path: scratch.path + "/Ditto.sqlite", options: SalvageOptions())
  #expect(result.library == expected)
  #expect(result.sources.map(\.kind) == [.wal])
  #expect(try FileHashes(folder: scratch.path) == before)
  #expect(Salvager.hasValidFrames(walPath: scratch.path + "/Ditto.sqlite-wal"))
}
