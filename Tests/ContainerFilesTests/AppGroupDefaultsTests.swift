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
    _ values: [String: PropertyListValue], format: PropertyListFormat, to path: String
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
    let folder = try TemporaryDirectory("defaults-locked")
    let path = folder.appending(AppGroupDefaults.fileName)
    #expect {
      try AppGroupDefaults(path: path).update(["k": .bool(true)])
    } throws: { error in
      guard let error = error as? DefaultsError else { return false }
      return error.kind == .transient(.defaults)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
