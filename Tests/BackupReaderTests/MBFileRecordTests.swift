import BackupReader
import EngineTestSupport
import Foundation
import PropertyLists
import Testing

/// MBFile blobs: NSKeyedArchiver archives written by Python's plistlib and by Foundation.
@Suite struct MBFileRecordTests {
  func fixture(_ name: String) throws -> [UInt8] {
    Array(
      try Data(contentsOf: URL(fileURLWithPath: PropertyListTests.fixtures + "/" + name)))
  }

  /// A UID reads as its own case, whoever wrote the archive: the same code on every platform
  /// (Foundation hands UIDs over as opaque objects that differ between Linux and Apple's systems).
  @Test func uidsAreTheirOwnCase() throws {
    let value = try PropertyListReader.decode(try fixture("mbfile-file.bplist")).value
    #expect(value["$top"]?["root"] == .uid(1))
    let archive = try KeyedArchive(value)
    #expect(archive["RelativePath"] == .string("Ditto.sqlite"))
  }

  @Test func uidShapes() {
    #expect(KeyedArchive.uid(.uid(3)) == 3)
    #expect(KeyedArchive.uid(["CF$UID": 3]) == 3)
    #expect(KeyedArchive.uid(["CF$UID": true]) == nil)
    #expect(KeyedArchive.uid(["CF$UID": -1]) == nil)
    #expect(KeyedArchive.uid(["CF$UID": 3, "other": 1]) == nil)
    #expect(KeyedArchive.uid(3) == nil)
    #expect(KeyedArchive.uid("3") == nil)
  }

  @Test func foundationWrittenArchivesAreRead() throws {
    // NSKeyedArchiver (test code only) writes a real archive: its root dictionary reads by key.
    let archived = try NSKeyedArchiver.archivedData(
      withRootObject: ["Size": 4096, "RelativePath": "Ditto.sqlite"] as NSDictionary,
      requiringSecureCoding: false)
    let archive = try KeyedArchive(try PropertyListReader.decode(Array(archived)).value)
    #expect(archive.root["$class"].map(KeyedArchive.uid) != nil)
  }

  @Test func pythonWrittenFileRecord() throws {
    let record = try MBFileRecord.decode(try fixture("mbfile-file.bplist"))
    #expect(record.size == 4096)
    #expect(record.mode == 0o100644)
    #expect(record.lastModified == 1_443_702_600)
    #expect(record.protectionClass == 3)
    #expect(record.relativePath == "Ditto.sqlite")
    #expect(record.encryptionKey == nil)
    #expect(record.problems.isEmpty)
    #expect(EntryKind(mode: record.mode, flags: 2) == .file)
  }

  @Test func pythonWrittenFolderRecord() throws {
    let record = try MBFileRecord.decode(try fixture("mbfile-folder.bplist"))
    #expect(record.size == 0)
    #expect(EntryKind(mode: record.mode, flags: 1) == .directory)
  }

  @Test func missingKeysAreNil() throws {
    let record = try MBFileRecord.decode(try fixture("mbfile-no-size.bplist"))
    #expect(record.size == nil)
    #expect(record.lastModified == nil)
    #expect(record.mode == 0o100644)
    #expect(record.problems.isEmpty)
  }

  @Test func encryptionKeyInsideNSMutableData() throws {
    let record = try MBFileRecord.decode(try fixture("mbfile-encryption-key.bplist"))
    #expect(record.encryptionKey == [3, 0, 0, 0] + Array(0..<40))
    #expect(record.relativePath == "Ditto.sqlite-wal")
  }

  @Test func wrongTypesAreNotedNeverTrusted() throws {
    let record = try MBFileRecord.decode(try fixture("mbfile-wrong-types.bplist"))
    #expect(record.size == nil)
    #expect(record.mode == nil)
    #expect(record.lastModified == nil)
    #expect(Set(record.problems) == ["Size", "Mode", "LastModified"])
  }

  @Test(arguments: [
    ("mbfile-root-out-of-range.bplist", "$top.root (99) is not a dictionary in $objects"),
    ("mbfile-not-an-archive.bplist", "not a keyed archive (no $objects array)"),
  ])
  func malformedArchivesThrow(name: String, reason: String) throws {
    #expect(throws: MBFileError(reason)) { try MBFileRecord.decode(try fixture(name)) }
  }

  @Test func garbageEmptyAndHugeBlobsThrow() {
    #expect(throws: MBFileError("16 bytes is too short for a binary property list")) {
      try MBFileRecord.decode(Array("bplist00 garbage".utf8))
    }
    #expect(throws: MBFileError("the record is empty")) { try MBFileRecord.decode([]) }
    #expect(throws: MBFileError.self) {
      try MBFileRecord.decode([UInt8](repeating: 0, count: MBFileRecord.maximumBytes + 1))
    }
  }

  /// A binary plist of 100,000 nested arrays: the reader bounds nesting, so a hostile manifest
  /// cannot exhaust the stack.
  @Test func deeplyNestedBlobsAreRefusedNotFatal() {
    let depth = 100_000
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
      (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
    for index in 0..<depth {
      offsets.append(bytes.count)
      bytes += index == depth - 1 ? [0xA0] : [0xA1] + bigEndian(index + 1, 4)
    }
    let table = bytes.count
    for offset in offsets { bytes += bigEndian(offset, 4) }
    bytes += [0, 0, 0, 0, 0, 0, 4, 4] + bigEndian(depth, 8) + bigEndian(0, 8) + bigEndian(table, 8)
    #expect(throws: MBFileError.self) { try MBFileRecord.decode(bytes) }
  }

  /// Foundation on Linux crashed on any set in a binary plist (found by Fuzz/Sources/fuzz-mbfile):
  /// the package's own reader refuses sets by name.
  @Test(arguments: [HostilePropertyLists.dictionaryWithSet, HostilePropertyLists.topLevelSet])
  func aBlobHoldingASetIsRefusedNotFatal(bytes: [UInt8]) {
    #expect(throws: MBFileError.self) { try MBFileRecord.decode(bytes) }
    do {
      _ = try MBFileRecord.decode(bytes)
    } catch {
      #expect(error.reason.contains("is a set, which no property list this package reads holds"))
    }
  }

  @Test func foundationWrittenArchive() throws {
    let blob = try BackupBuilder.archive(
      .init(
        size: 1234, mode: 0o100600, lastModified: 99, relativePath: "Library/x.plist",
        protectionClass: 4, encryptionKey: [9, 9]))
    #expect(Array(blob.prefix(8)) == Array("bplist00".utf8))
    let record = try MBFileRecord.decode(blob)
    #expect(
      record
        == MBFileRecord(
          size: 1234, mode: 0o100600, lastModified: 99, protectionClass: 4, encryptionKey: [9, 9],
          relativePath: "Library/x.plist"))
  }

  @Test func xmlArchiveWithCFUIDDictionaries() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>$archiver</key><string>NSKeyedArchiver</string>
      <key>$version</key><integer>100000</integer>
      <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
      <key>$objects</key><array>
        <string>$null</string>
        <dict><key>Size</key><integer>77</integer><key>Mode</key><integer>33188</integer>
          <key>RelativePath</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>
        <string>Ditto.sqlite</string>
      </array></dict></plist>
      """
    let record = try MBFileRecord.decode(Array(xml.utf8))
    #expect(record.size == 77)
    #expect(record.relativePath == "Ditto.sqlite")
  }

  @Test(arguments: [
    (UInt32?.none, Int64?.some(1), EntryKind.file), (nil, 2, .directory), (nil, 4, .symbolicLink),
    (nil, 16, .other), (nil, nil, .other), (0o120755, 1, .symbolicLink), (0o010644, 1, .other),
    (0o100644, 2, .file), (0o040755, 1, .directory),
  ])
  func kindFromModeElseFlags(mode: UInt32?, flags: Int64?, kind: EntryKind) {
    #expect(EntryKind(mode: mode, flags: flags) == kind)
  }
}
