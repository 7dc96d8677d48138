import EngineTestSupport
import Foundation
import LibraryMerge
import RecoveryFile
import SQLiteDB
import SafeFiles
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `.dittorecovery` file: written new (never over anything), readable by its owner only, and
/// read back with its record.
@Suite struct RecoveryFileWriterTests {
  static let categories = [
    MergeCategory(
      title: "Work 💼",
      dittos: [MergeDitto(text: "Regards,\nSam", useCount: 3), MergeDitto(text: "w2")]),
    MergeCategory(title: "Home", dittos: [MergeDitto(text: "on my way")]),
  ]

  static func info() -> RecoveryFileInfo {
    var info = RecoveryFileInfo(
      origin: .backup, createdAt: Date(timeIntervalSince1970: 1_767_225_600), toolVersion: "3.0.2")
    info.deviceName = "Sam’s iPhone"
    return info
  }

  @Test func aFileIsWrittenNewAndReadsBackWithItsRecord() throws {
    let folder = try TemporaryDirectory("recovery-file")
    let path = folder.appending("out.dittorecovery")
    try RecoveryFileWriter.write(categories: Self.categories, info: Self.info(), to: path)
    let read = try #require(try RecoveryFileInfo.read(path: path))
    #expect(read.origin == .backup)
    #expect(read.deviceName == "Sam’s iPhone")
    #expect(read.categories == 2)
    #expect(read.dittos == 3)
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    let names = try DirectoryWalker.names(in: folder.path).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(names == ["out.dittorecovery"])
  }

  @Test func anythingWithTheNameIsLeftAsItIs() throws {
    let folder = try TemporaryDirectory("recovery-file-exists")
    let path = folder.appending("out.dittorecovery")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: RecoveryFileError.self) {
      try RecoveryFileWriter.write(categories: Self.categories, info: Self.info(), to: path)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
    let dangling = folder.appending("dangling.dittorecovery")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: folder.appending("nowhere"))
    do {
      try RecoveryFileWriter.write(categories: Self.categories, info: Self.info(), to: dangling)
      Issue.record("wrote through a dangling link")
    } catch {
      #expect(error.kind == .alreadyExists)
    }
    #expect(try FileStatus.of(path: folder.appending("nowhere")) == nil)
  }

  /// A store without the record is not a recovery file (nil), never an error about the record.
  @Test func aFileThatIsNotARecoveryFileSaysSo() throws {
    let folder = try TemporaryDirectory("recovery-file-not")
    let path = folder.appending("plain.sqlite")
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE T (X)")
    try database.close()
    #expect(try RecoveryFileInfo.read(path: path) == nil)
  }
}
