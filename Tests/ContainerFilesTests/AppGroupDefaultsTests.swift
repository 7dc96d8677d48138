import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists
import SafeFiles
import Testing

/// The App Group defaults plist of a container copy: the flag written with every other key kept,
/// in the file's own format; a file that cannot be read is never overwritten.
@Suite struct AppGroupDefaultsTests {
  static func write(
    _ values: PropertyListDictionary, format: PropertyListFormat, to path: String
  )
    throws
  {
    try Data(PropertyListWriter.encode(.dictionary(values), format: format)).write(
      to: URL(fileURLWithPath: path))
  }

  /// `Library/Preferences/<file>` in `folder`, as in a container (the temporary folder itself is
  /// locked while it is in use).
  static func preferencesFile(in folder: TemporaryDirectory) throws -> String {
    let preferences = folder.appending("Library/Preferences")
    try FileManager.default.createDirectory(atPath: preferences, withIntermediateDirectories: true)
    return preferences + "/" + AppGroupDefaults.fileName
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func theFlagIsWrittenAndEveryOtherKeyKept(format: PropertyListFormat) throws {
    let folder = try TemporaryDirectory("defaults-flag")
    let path = try Self.preferencesFile(in: folder)
    try Self.write(
      ["dittos": .array([.string("one"), .string("two")]), "theme": .string("dark")],
      format: format, to: path)
    let defaults = AppGroupDefaults(path: path)
    #expect(try defaults.readFlags() == MigrationFlags())
    try defaults.writeFlags(MigrationFlags(isComplete: true, attempts: 2))
    #expect(try defaults.readFlags() == MigrationFlags(isComplete: true, attempts: 2))
    let values = try #require(try defaults.load())
    #expect(values["theme"] == .string("dark"))
    #expect(values["dittos"] == .array([.string("one"), .string("two")]))
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(try PropertyListReader.decode(bytes).format == format)
  }

  /// Defaults whose rewrite crosses Core Foundation's trailer limits (the flag adds objects: 254
  /// to 257 of them, and an object area near 65,536 bytes) and hold a 16-byte integer: after the
  /// flag is written, Foundation's own reader accepts the file and reads every other key as it
  /// was.
  @Test(arguments: [250, 251, 252, 253, 254, 255, 2_000])
  func theRewrittenFileIsOneFoundationReads(entries: Int) throws {
    let folder = try TemporaryDirectory("defaults-cf")
    let path = try Self.preferencesFile(in: folder)
    var values: PropertyListDictionary = [
      "history": .array((0..<entries).map { .string("ditto \($0) — café") }),
      "serial": .unsignedInteger(UInt64.max - 1),
    ]
    if entries > 1_000 { values["blob"] = .data([UInt8](repeating: 7, count: 60_000)) }
    // Written the way Core Foundation writes a 16-byte integer (high 8 bytes zero).
    try Self.write(values, format: .binary, to: path)
    let defaults = AppGroupDefaults(path: path)
    try defaults.writeFlags(MigrationFlags(isComplete: true, attempts: 1))
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
    let dictionary = try #require(theirs as? [String: Any])
    #expect((dictionary["history"] as? [String])?.count == entries)
    #expect((dictionary["history"] as? [String])?.last == "ditto \(entries - 1) — café")
    #expect((dictionary["serial"] as? NSNumber)?.uint64Value == UInt64.max - 1)
    #expect((dictionary["legacyCoreDataMigrationComplete_v302"] as? Bool) == true)
    let ours = try #require(try defaults.load())
    #expect(ours["history"] == values["history"])
    #expect(ours["serial"] == values["serial"])
  }

  @Test func aFileThatCannotBeReadIsNeverOverwritten() throws {
    let folder = try TemporaryDirectory("defaults-garbage")
    let path = try Self.preferencesFile(in: folder)
    try Data("bplist00 not really".utf8).write(to: URL(fileURLWithPath: path))
    let before = try FileHashes(of: folder.path)
    let defaults = AppGroupDefaults(path: path)
    #expect(throws: FlagStoreError.self) {
      try defaults.writeFlags(MigrationFlags(isComplete: true, attempts: 1))
    }
    #expect(throws: DefaultsError.self) { _ = try defaults.legacyValues() }
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func noFileMeansNoLegacyKeysAndDefaultFlags() throws {
    let folder = try TemporaryDirectory("defaults-none")
    let defaults = AppGroupDefaults(path: folder.appending(AppGroupDefaults.fileName))
    #expect(try defaults.legacyValues() == nil)
    #expect(try defaults.readFlags() == MigrationFlags())
  }

  /// A writer that holds the folder's lock forever makes the update give up as "not now", never
  /// hang (here the lock is the one a temporary folder holds while in use).
  @Test func aLockHeldForeverIsNotNowNeverAHang() throws {
    // A private folder holds its lock while in use (a test folder's own is the one inside it).
    let folder = try PrivateDirectory(
      prefix: "ditto-defaults-locked-", resolvingLinks: false, marked: false)
    defer { folder.remove() }
    let path = folder.path + "/" + AppGroupDefaults.fileName
    #expect {
      try AppGroupDefaults(path: path).update(["k": .bool(true)])
    } throws: { error in
      guard let error = error as? DefaultsError else { return false }
      return error.kind == .transient(.defaults)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
