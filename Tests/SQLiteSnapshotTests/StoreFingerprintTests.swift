import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import Testing

@testable import SQLiteSnapshot

/// A snapshot opens each file of a store once: its fingerprints read the headers through the
/// descriptors the copy reads. A fingerprint says so only while the paths name exactly the files
/// opened; a sidecar that appeared or went, or a file replaced under its name, makes that try a
/// moving store's (copied again), never a copy of other files than the fingerprint describes.
@Suite struct StoreFingerprintTests {
  static func store(in folder: TemporaryDirectory) throws -> String {
    let path = folder.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 3), to: path,
      journal: .delete)
    return path
  }

  @Test func theFilesOpenedAreTheFilesNamed() throws {
    let folder = try TemporaryDirectory("fingerprint-same")
    let path = try Self.store(in: folder)
    let opened = ["": try ReadOnlyFile(path: path)]
    let fingerprint = try StoreFingerprint(of: path, opened: opened)
    #expect(fingerprint.matchesOpened)
    #expect(try StoreFingerprint(of: path, opened: opened) == fingerprint)
  }

  @Test func aSidecarThatAppearedIsNotAFileOpened() throws {
    let folder = try TemporaryDirectory("fingerprint-appeared")
    let path = try Self.store(in: folder)
    let opened = ["": try ReadOnlyFile(path: path)]
    try Data(repeating: 1, count: 32).write(to: URL(fileURLWithPath: path + "-wal"))
    #expect(!(try StoreFingerprint(of: path, opened: opened).matchesOpened))
  }

  @Test func aSidecarThatWentWasAFileOpened() throws {
    let folder = try TemporaryDirectory("fingerprint-went")
    let path = try Self.store(in: folder)
    try Data(repeating: 1, count: 32).write(to: URL(fileURLWithPath: path + "-journal"))
    let opened = [
      "": try ReadOnlyFile(path: path), "-journal": try ReadOnlyFile(path: path + "-journal"),
    ]
    #expect(try StoreFingerprint(of: path, opened: opened).matchesOpened)
    try FileManager.default.removeItem(atPath: path + "-journal")
    #expect(!(try StoreFingerprint(of: path, opened: opened).matchesOpened))
  }

  @Test func aMainFileReplacedUnderItsNameIsNotTheFileOpened() throws {
    let folder = try TemporaryDirectory("fingerprint-replaced")
    let path = try Self.store(in: folder)
    let opened = ["": try ReadOnlyFile(path: path)]
    let other = folder.appending("other.sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: other)
    #expect(rename(other, path) == 0)
    #expect(!(try StoreFingerprint(of: path, opened: opened).matchesOpened))
  }
}
