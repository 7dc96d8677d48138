import EngineTestSupport
import Foundation
import SafeFiles
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a run made is recorded while it lives and forgotten once removed or kept; leftovers of a
/// stopped run are recognised by their lock; a new file never replaces anything. (Removing
/// everything recorded is only ever done by an interrupted process: InterruptTests drives it.)
@Suite struct RunCleanupTests {
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
    // Abandoned: made by mkdir (no lock held), an hour old.
    let abandoned = base.appending("ditto-snapshot-AbCdEf")
    try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
    try Data("copy".utf8).write(to: URL(fileURLWithPath: abandoned + "/Ditto.sqlite"))
    try Self.backdate(abandoned)
    // Live: its owner (this test) holds the lock.
    let live = try PrivateDirectory(prefix: "ditto-snapshot-", in: base.path)
    try Self.backdate(live.path)
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
    for kept in [live.path, young, other, longer, link] {
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
