import BackupReader
import EngineTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Info.plist, Manifest.plist and Status.plist: written by Python's plistlib and by Foundation, in
/// both formats; missing, malformed and mistyped keys.
@Suite struct PropertyListTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  func install(_ names: [String: String], in folder: TemporaryDirectory) throws {
    for (fixture, name) in names {
      try FileManager.default.copyItem(
        atPath: Self.fixtures + "/" + fixture, toPath: folder.appending(name))
    }
  }

  @Test func pythonWrittenPlists() throws {
    let folder = try TemporaryDirectory("plists")
    try install(
      [
        "Info.plist": "Info.plist", "Manifest.plist": "Manifest.plist",
        "Status.plist": "Status.plist",
      ],
      in: folder)
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.deviceName == "Sam’s iPhone")
    #expect(metadata.iosVersion == "9.0.2")
    #expect(metadata.productType == "iPhone7,2")
    #expect(metadata.date == Date(timeIntervalSince1970: 1_443_702_600))
    #expect(metadata.isEncrypted == false)
    #expect(metadata.snapshotState == "finished")
    #expect(!metadata.isSnapshotUnfinished)
    #expect(metadata.problems.isEmpty)
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
  func foundationWrittenPlists(format: PropertyListSerialization.PropertyListFormat) throws {
    let folder = try TemporaryDirectory("plists")
    let builder = try BackupBuilder(root: folder.path)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    // Written by Foundation, as Finder's and iTunes' backups are; read by our own reader.
    func write(_ values: [String: Any], _ name: String) throws {
      let data = try PropertyListSerialization.data(
        fromPropertyList: values, format: format, options: 0)
      try builder.writeBytes(Array(data), at: name)
    }
    try write(
      ["Device Name": "Ada", "Last Backup Date": date, "Product Version": "17.1"], "Info.plist")
    try write(
      ["IsEncrypted": true, "BackupKeyBag": Data([1, 2, 3]), "ManifestKey": Data([4])],
      "Manifest.plist")
    try write(["SnapshotState": "uploading"], "Status.plist")
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.deviceName == "Ada")
    #expect(metadata.iosVersion == "17.1")
    #expect(metadata.date == date)
    #expect(metadata.isEncrypted == true)
    #expect(metadata.keyBag == [1, 2, 3])
    #expect(metadata.manifestKey == [4])
    #expect(metadata.isSnapshotUnfinished)
    #expect(metadata.problems.isEmpty)
  }

  @Test func lockdownAndStatusFillInMissingInfoKeys() throws {
    let folder = try TemporaryDirectory("plists")
    let builder = try BackupBuilder(root: folder.path)
    let date = Date(timeIntervalSince1970: 1_600_000_000)
    try builder.writeManifestPlist([
      "IsEncrypted": false, "Lockdown": ["DeviceName": "From Lockdown", "ProductVersion": "14.2"],
    ])
    try builder.writeStatus(["Date": .date(date)])
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.deviceName == "From Lockdown")
    #expect(metadata.iosVersion == "14.2")
    #expect(metadata.date == date)
  }

  @Test func noPlistsAtAllIsNotAProblem() throws {
    let folder = try TemporaryDirectory("plists")
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata == BackupMetadata())
  }

  @Test func wrongTypesAreNotedNeverTrusted() throws {
    let folder = try TemporaryDirectory("plists")
    try install(["Manifest-wrong-types.plist": "Manifest.plist"], in: folder)
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeInfo(["Device Name": 42, "Last Backup Date": "yesterday"])
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.isEncrypted == nil)
    #expect(metadata.deviceName == nil)
    #expect(metadata.date == nil)
    #expect(
      Set(metadata.problems) == [
        "Info.plist: Device Name is not a string", "Info.plist: Last Backup Date is not a date",
        "Manifest.plist: IsEncrypted is not a boolean",
        "Manifest.plist: Lockdown is not a dictionary",
      ])
  }

  @Test func unreadablePlistsNameTheFileAndTheReason() throws {
    let folder = try TemporaryDirectory("plists")
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeBytes(Array("<plist><dict><key>x".utf8), at: "Info.plist")
    try builder.writeBytes([], at: "Manifest.plist")
    try builder.writeBytes(Array("bplist00".utf8) + [0xFF, 0xFF], at: "Status.plist")
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.isEncrypted == nil)
    #expect(
      metadata.problems == [
        folder.appending("Info.plist") + ": <key> is not closed",
        folder.appending("Manifest.plist") + ": the file is empty (0 bytes)",
        folder.appending("Status.plist") + ": 10 bytes is too short for a binary property list",
      ])
  }

  /// Foundation on Linux crashed on any set in a binary plist (found by Fuzz/Sources/fuzz-backup-plist).
  @Test func aPlistHoldingASetIsNotedNotFatal() throws {
    let folder = try TemporaryDirectory("plists")
    try BackupBuilder(root: folder.path).writeBytes(
      HostilePropertyLists.dictionaryWithSet, at: "Info.plist")
    let metadata = BackupMetadata(folder: folder.path)
    #expect(
      metadata.problems == [
        folder.appending("Info.plist")
          + ": object 2 is a set, which no property list this package reads holds"
      ])
  }

  @Test func aFIFONamedInfoPlistIsNeverWaitedOn() throws {
    let folder = try TemporaryDirectory("plists")
    #expect(mkfifo(folder.appending("Info.plist"), 0o644) == 0)
    let metadata = BackupMetadata(folder: folder.path)
    #expect(metadata.problems.count == 1)
    #expect(metadata.problems.first?.contains("FIFO") == true)
  }

  @Test func anArrayAtTheTopIsMalformed() throws {
    let folder = try TemporaryDirectory("plists")
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["a"], format: .binary, options: 0)
    try BackupBuilder(root: folder.path).writeBytes(Array(data), at: "Manifest.plist")
    let metadata = BackupMetadata(folder: folder.path)
    #expect(
      metadata.problems == [
        folder.appending("Manifest.plist") + ": the property list is not a dictionary"
      ])
  }
}
