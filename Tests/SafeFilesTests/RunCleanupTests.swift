import EngineTestSupport
import Foundation
import RunCleanup
import Testing

@testable import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a run made is recorded while it lives and forgotten once removed or kept; leftovers of a
/// stopped run are recognised by their lock; a new file never replaces anything. (Removing
/// everything recorded is only ever done by an interrupted process: InterruptTests drives it.)
@Suite struct RunCleanupTests {
  init() { RunCleanup.install() }

  @Test func nothingIsRecordedUntilTheToolInstallsTheLedger() {
    // Installed: the ledger is the recorder (the app never installs one: then nothing is kept).
    #expect(CreationRecording.recorder != nil)
  }

  @Test func aPrivateFolderIsRecordedWhileItLivesAndForgottenOnceRemoved() throws {
    let folder = try PrivateDirectory(prefix: "ditto-runcleanup-")
    #expect(RunCleanup.recordedPaths.contains(folder.path))
    #expect(folder.remove())
    #expect(!RunCleanup.recordedPaths.contains(folder.path))
    #expect(try FileStatus.of(path: folder.path) == nil)
  }

  @Test func aCreatedFileIsRecordedUntilKeptOrDiscarded() throws {
    let folder = try TemporaryDirectory("runcleanup-files")
    let kept = try CreatedFile(path: folder.appending("kept"))
    #expect(RunCleanup.recordedPaths.contains(kept.path))
    kept.keep()
    #expect(!RunCleanup.recordedPaths.contains(kept.path))
    let discarded = try CreatedFile(path: folder.appending("discarded"))
    #expect(discarded.discard())
    #expect(!RunCleanup.recordedPaths.contains(discarded.path))
    #expect(try FileStatus.of(path: folder.appending("kept")) != nil)
    #expect(try FileStatus.of(path: folder.appending("discarded")) == nil)
  }

  @Test func anOutputInProgressIsRecordedUntilKept() throws {
    let folder = try TemporaryDirectory("runcleanup-output")
    let output = try OutputInProgress.makeFolder(folder.appending("out"))
    #expect(RunCleanup.recordedPaths.contains(output.path))
    output.keep()
    #expect(!RunCleanup.recordedPaths.contains(output.path))
    #expect(try FileStatus.of(path: output.path)?.kind == .directory)
    #expect(throws: FileAccessError.self) { _ = try OutputInProgress.makeFolder(output.path) }
  }

  /// Sets a folder's modification time an hour back.
  static func backdate(_ path: String) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
  }

  @Test func leftoversAreRemovedOnlyWhenTheirLockIsFreeAndTheyAreOld() throws {
    let base = try TemporaryDirectory("runcleanup-leftovers")
    // Live: its owner (this test) holds the lock. Made first: making it looks for leftovers here.
    let live = try PrivateDirectory(prefix: "ditto-snapshot-", in: base.path)
    try Self.backdate(live.path)
    // Abandoned: made by mkdir (no lock held), an hour old.
    // Abandoned: one of ours (its marker written as a run writes it), no lock held, an hour old.
    let abandoned = base.appending("ditto-snapshot-AbCdEf")
    try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
    OwnershipMarker.write(
      in: abandoned, identity: try #require(try FileStatus.of(path: abandoned)).identity)
    try Data("copy".utf8).write(to: URL(fileURLWithPath: abandoned + "/Ditto.sqlite"))
    try Self.backdate(abandoned)
    // The user's own folder with our name and age, holding their file: never ours.
    let users = base.appending("ditto-snapshot-TEST01")
    try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: false)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: users + "/important.txt"))
    try Self.backdate(users)
    // A copy of one of ours (another folder, the marker copied with it): its marker names another
    // folder, so it is not ours either.
    let copied = base.appending("ditto-snapshot-CoPiEd")
    try FileManager.default.createDirectory(atPath: copied, withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      atPath: abandoned + "/" + OwnershipMarker.name, toPath: copied + "/" + OwnershipMarker.name)
    try Self.backdate(copied)
    // A marker that is a link to a real marker: never followed.
    let linked = base.appending("ditto-snapshot-MaRkLk")
    try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: linked + "/" + OwnershipMarker.name,
      withDestinationPath: abandoned + "/" + OwnershipMarker.name)
    try Self.backdate(linked)
    // Young: free, but made a moment ago.
    let young = base.appending("ditto-snapshot-YoUnG1")
    try FileManager.default.createDirectory(atPath: young, withIntermediateDirectories: false)
    // Not ours: another prefix, a name of another length, a link.
    let other = base.appending("other-folder-AbCdEf")
    let longer = base.appending("ditto-snapshot-AbCdEfG")
    for path in [other, longer] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      try Self.backdate(path)
    }
    let target = try TemporaryDirectory("runcleanup-target")
    let link = base.appending("ditto-snapshot-LiNkEd")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)

    let removed = PrivateDirectory.removeLeftovers(in: base.path, prefixes: ["ditto-snapshot-"])
    #expect(removed == [abandoned])
    #expect(RunCleanup.takeLeftoversRemoved().contains(abandoned))
    #expect(try FileStatus.of(path: abandoned) == nil)
    #expect(try String(contentsOfFile: users + "/important.txt", encoding: .utf8) == "mine")
    for kept in [live.path, young, other, longer, link, users, copied, linked] {
      #expect(try FileStatus.of(path: kept) != nil, "\(kept)")
    }
    #expect(try FileStatus.of(path: target.path)?.kind == .directory)
  }

  @Test func aNewFileNeverReplacesAnythingAndLeavesNoScratch() throws {
    let folder = try TemporaryDirectory("runcleanup-newfile")
    let path = folder.appending("out.csv")
    try NewFile.write(Array("one".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
    #expect(throws: NewFileError.exists(path: path)) {
      try NewFile.write(Array("two".utf8), to: path)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
    let names = try DirectoryWalker.names(in: folder.path).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(names == ["out.csv"])
  }
}

/// What the removals touch: a leftover of ours is emptied with `unlinkat` on its own entries, so a
/// link inside it to a legacy store (symbolic or hard) goes as a link and the store stays byte
/// for byte; a marker that is a link is never followed; a finished output keeps everything but
/// the marker.
@Suite struct RemovalsTouchOnlyOursTests {
  static func legacyStore(in folder: TemporaryDirectory) throws -> (path: String, bytes: Data) {
    let path = folder.appending("container/Ditto.sqlite")
    try FileManager.default.createDirectory(
      atPath: folder.appending("container"), withIntermediateDirectories: true)
    let bytes = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 * 31) })
    try bytes.write(to: URL(fileURLWithPath: path))
    try Data("wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
    return (path, bytes)
  }

  @Test func aLeftoverHoldingLinksToALegacyStoreLeavesTheStoreAsItWas() throws {
    let folder = try TemporaryDirectory("removals")
    let (store, bytes) = try Self.legacyStore(in: folder)
    let before = try FileHashes(of: folder.appending("container"))
    let base = folder.appending("tmp")
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    let leftover = base + "/ditto-snapshot-AbCdEf"
    try FileManager.default.createDirectory(
      atPath: leftover + "/nested", withIntermediateDirectories: true)
    OwnershipMarker.write(
      in: leftover, identity: try #require(try FileStatus.of(path: leftover)).identity)
    try FileManager.default.createSymbolicLink(
      atPath: leftover + "/Ditto.sqlite", withDestinationPath: store)
    try FileManager.default.linkItem(atPath: store + "-wal", toPath: leftover + "/hard-wal")
    try FileManager.default.createSymbolicLink(
      atPath: leftover + "/nested/container", withDestinationPath: folder.appending("container"))
    try RunCleanupTests.backdate(leftover)

    let removed = PrivateDirectory.removeLeftovers(in: base, prefixes: ["ditto-snapshot-"])
    #expect(removed == [leftover])
    #expect(try FileStatus.of(path: leftover) == nil)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    #expect(try FileHashes(of: folder.appending("container")) == before)
  }

  @Test func aFinishedOutputLosesOnlyItsMarkerAndAMarkerLinkIsNeverFollowed() throws {
    let folder = try TemporaryDirectory("removals-publish")
    let (store, bytes) = try Self.legacyStore(in: folder)
    let before = try FileHashes(of: folder.appending("container"))
    // A folder of ours whose marker someone replaced with a link to the legacy store.
    let output = try PrivateDirectory(prefix: "ditto-out-", in: folder.path)
    try Data("rebuilt".utf8).write(to: URL(fileURLWithPath: output.path + "/rebuilt.txt"))
    try FileManager.default.removeItem(atPath: output.path + "/" + OwnershipMarker.name)
    try FileManager.default.createSymbolicLink(
      atPath: output.path + "/" + OwnershipMarker.name, withDestinationPath: store)
    let final = folder.appending("published")
    try output.publish(as: final)
    #expect(try String(contentsOfFile: final + "/rebuilt.txt", encoding: .utf8) == "rebuilt")
    // The link was not a marker: left as it was, and the store behind it untouched.
    #expect(try FileStatus.of(path: final + "/" + OwnershipMarker.name)?.kind == .symbolicLink)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    #expect(try FileHashes(of: folder.appending("container")) == before)
    // Publishing never replaces: a name that exists and is not an empty folder is refused.
    let second = try PrivateDirectory(prefix: "ditto-out-", in: folder.path)
    #expect(throws: FileAccessError.self) { try second.publish(as: folder.appending("container")) }
    #expect(try FileHashes(of: folder.appending("container")) == before)
  }
}
