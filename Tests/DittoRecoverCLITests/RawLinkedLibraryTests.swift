import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import Testing

@testable import DittoRecoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A library named with bytes that are not valid UTF-8, reached through a second name of its
/// files (``RawLinkedLibrary``): when the run is over, what it removes is its own private folder
/// and, when it made one, the store's `-wal` it made, never a `-wal` that was there before or a
/// file that took the `-wal`'s name meanwhile; the library keeps every byte.
@Suite struct RawLinkedLibraryTests {
  /// A Ditto 3.x library in `folder` under a name with a byte that is not valid UTF-8, with its
  /// `-wal` when `withWAL`; returns the library's path (bytes) and the run's private folder.
  static func library(in folder: TemporaryDirectory, withWAL: Bool) throws -> (
    path: [UInt8], run: String
  ) {
    let made = folder.appending("made.store")
    try SwiftDataStoreWriter.write(
      .presets, to: made, journal: withWAL ? .walOnly : .walCheckpointed)
    let path = Array(folder.appending("lib").utf8) + [0xFF] + Array(".store".utf8)
    for suffix in withWAL ? ["", "-wal"] : [""] {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: made + suffix)))
      let descriptor = open(
        UserPath.cPath(path + Array(suffix.utf8)), O_WRONLY | O_CREAT | O_EXCL, 0o644)
      try #require(descriptor >= 0, "this file system refuses names that are not UTF-8")
      _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    let run = folder.appending("run")
    try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: false)
    return (path, run)
  }

  static func contents(_ path: [UInt8]) -> Data? {
    let descriptor = open(UserPath.cPath(path), O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
      bytes.append(contentsOf: buffer.prefix(count))
    }
    return bytes
  }

  static func folderNames(_ folder: TemporaryDirectory) throws -> [[UInt8]] {
    try DirectoryWalker.names(in: folder.path).sorted { $0.lexicographicallyPrecedes($1) }
  }

  @Test func theWALItMadeIsRemovedAndNothingElse() throws {
    let folder = try TemporaryDirectory("raw-linked")
    let (path, run) = try Self.library(in: folder, withWAL: false)
    let before = try Self.folderNames(folder)
    let store = Self.contents(path)
    let linked = try RawLinkedLibrary(
      path, number: 0, in: run, currentFolder: Array(folder.path.utf8))
    let wal = path + Array("-wal".utf8)
    #expect(Self.contents(wal) == Data(), "the empty -wal was not made beside the library")
    linked.finish()
    #expect(Self.contents(wal) == nil, "the -wal it made was left")
    #expect(try Self.folderNames(folder) == before)
    #expect(Self.contents(path) == store)
  }

  @Test func aWALThatWasThereBeforeIsKeptByteForByte() throws {
    let folder = try TemporaryDirectory("raw-linked")
    let (path, run) = try Self.library(in: folder, withWAL: true)
    let before = try Self.folderNames(folder)
    let wal = path + Array("-wal".utf8)
    let (store, frames) = (Self.contents(path), Self.contents(wal))
    let linked = try RawLinkedLibrary(
      path, number: 0, in: run, currentFolder: Array(folder.path.utf8))
    linked.finish()
    #expect(Self.contents(wal) == frames)
    #expect(Self.contents(path) == store)
    #expect(try Self.folderNames(folder) == before)
  }

  @Test func aFileThatTookTheWALsNameIsLeftAlone() throws {
    let folder = try TemporaryDirectory("raw-linked")
    let (path, run) = try Self.library(in: folder, withWAL: false)
    let linked = try RawLinkedLibrary(
      path, number: 0, in: run, currentFolder: Array(folder.path.utf8))
    let wal = path + Array("-wal".utf8)
    // Another program replaced the empty -wal with a file of its own.
    #expect(unlink(UserPath.cPath(wal)) == 0)
    let theirs = Data("someone else's file".utf8)
    let descriptor = open(UserPath.cPath(wal), O_WRONLY | O_CREAT | O_EXCL, 0o644)
    try #require(descriptor >= 0)
    _ = theirs.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    linked.finish()
    #expect(Self.contents(wal) == theirs)
  }
}
