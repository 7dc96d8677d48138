import ContainerFiles
import Foundation
import LegacyMigration
import LegacyStore
import PropertyLists
import SQLiteDB
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lays out an App Group container folder: stores, odd files, App Group defaults.
package struct ContainerBuilder {
  /// The container folder.
  package let root: String

  /// Creates `root` (and its parents) if needed.
  package init(root: String) throws {
    self.root = root
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// The full path of `relative`.
  package func path(_ relative: String) -> String { root + "/" + relative }

  /// Creates the folders leading to `relative`.
  package func makeParent(of relative: String) throws {
    let parent = (path(relative) as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
  }

  /// Writes a 2.x store at `relative`.
  package func writeStore(
    _ spec: LegacyStoreSpec, at relative: String = "Ditto.sqlite",
    journal: LegacyStoreWriter.Journal = .walCheckpointed, seed: UInt64 = 1
  ) throws {
    try makeParent(of: relative)
    try LegacyStoreWriter.write(spec, to: path(relative), journal: journal, seed: seed)
  }

  /// Grows the store at `relative` to at least `bytes` with free pages (a table filled, then
  /// dropped; the store's own rows are untouched), as a long-used copy that was never vacuumed looks.
  package func bloat(_ relative: String, toAtLeast bytes: Int) throws {
    // SQLite refuses a link anywhere in the path (a Mac's /var → /private/var): open it resolved.
    let database = try Database(
      path: UserPath.resolvingFolder(of: path(relative)), mode: .readWrite)
    try database.execute(sql: "PRAGMA journal_mode = DELETE")
    try database.execute(sql: "CREATE TABLE ZPADDING (Z_PK INTEGER PRIMARY KEY, ZBYTES BLOB)")
    let rows = bytes / 3_000 + 1
    try database.execute(
      sql:
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows)) INSERT INTO ZPADDING (ZBYTES) SELECT zeroblob(3000) FROM n"
    )
    try database.execute(sql: "DROP TABLE ZPADDING")
    try database.close()
  }

  /// Writes raw bytes at `relative`.
  package func writeBytes(_ bytes: [UInt8], at relative: String) throws {
    try makeParent(of: relative)
    guard FileManager.default.createFile(atPath: path(relative), contents: Data(bytes)) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path(relative)])
    }
  }

  /// Writes `count` seeded random bytes at `relative`.
  package func writeGarbage(count: Int, seed: UInt64, at relative: String) throws {
    var random = SeededGenerator(seed: seed)
    try writeBytes((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: relative)
  }

  /// Creates a FIFO at `relative`.
  package func makeFIFO(at relative: String) throws {
    try makeParent(of: relative)
    guard mkfifo(path(relative), 0o644) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  /// Writes the App Group defaults (`Library/Preferences/group.io.kern.ditto.plist`).
  package func writeDefaults(
    _ values: [String: PropertyListValue], format: PropertyListFormat = .binary
  ) throws {
    let relative = "Library/Preferences/" + AppGroupDefaults.fileName
    try writeBytes(
      PropertyListWriter.encode(.dictionary(PropertyListDictionary(values)), format: format),
      at: relative)
  }
}
