import Foundation
import LegacyStore
import SQLiteDB

// THE RECOVERY FILE (`.dittorecovery`)
//
// One SQLite file (rollback journal, no sidecars) in the Ditto 2.x Core Data layout, so the engine
// reads it with the same reader as any legacy store (LegacyStoreReader, on a private snapshot):
//
//   TABLE          CONTENT
//   ZPROFILE       one row (Z_PK 1, Z_ENT 3)
//   ZCATEGORY      Z_ENT 1, ZPROFILE 1, Z_FOK_PROFILE = 1024 × (position + 1), ZTITLE
//   ZDITTO         Z_ENT 2, ZCATEGORY, Z_FOK_CATEGORY = 1024 × (position + 1), ZTEXT, ZUSE_COUNT
//   Z_PRIMARYKEY   Category 1, Ditto 2, Profile 3 with their Z_MAX
//   Z_METADATA     one row: a new UUID and a binary plist (NSStoreType SQLite, placeholder model hashes,
//                  DittoRecoveryFormat 1): Core Data itself would not open it, only this reader does
//   DITTO_RECOVERY (KEY TEXT PRIMARY KEY, VALUE TEXT): where the content came from (the keys of
//                  RecoveryFileInfo.Key); ignored by the reader
//
// Rows salvage found only in -wal frames no commit covers are in a file only when asked for
// (`--include-never-committed`), in categories of their own titled `<title> (never committed)`, and
// the record's `neverCommitted` key says how many.
//
// The categories are those a recovery into an empty library would create (merged by title over the
// 2.x store, the keyboard's additions and the 1.x list, in that order), each with its dittos in order.

/// Where a recovery file's content came from: the `DITTO_RECOVERY` table of a `.dittorecovery` file.
package struct RecoveryFileInfo: Sendable, Equatable {
  /// The version of the layout above that this code writes.
  package static let currentFormat = 1
  /// The metadata table's name.
  package static let tableName = "DITTO_RECOVERY"

  /// What the content was extracted from.
  package enum Origin: String, Sendable, Equatable {
    /// A Finder/iTunes backup.
    case backup
    /// An App Group container copied from a device.
    case container
  }

  /// One legacy source and what it offered.
  package struct SourceCount: Sendable, Equatable {
    /// `coreData`, `pending`, `v1` (the engine's source kinds).
    package var kind: String
    package var categories: Int
    package var dittos: Int

    package init(kind: String, categories: Int, dittos: Int) {
      self.kind = kind
      self.categories = categories
      self.dittos = dittos
    }
  }

  /// The keys of the `DITTO_RECOVERY` table.
  package enum Key: String, CaseIterable, Sendable {
    case format, origin, deviceName, backupDate, backupPath, container, createdAt, toolVersion
    case categories, dittos, salvaged, sources, neverCommitted
  }

  package var format = RecoveryFileInfo.currentFormat
  package var origin: Origin
  /// The backup's device name (user text: never logged at public level).
  package var deviceName: String?
  /// When the backup was made.
  package var backupDate: Date?
  /// The backup folder read.
  package var backupPath: String?
  /// The container folder read (a container extract), or the one rebuilt from the backup.
  package var container: String?
  /// When the file was written.
  package var createdAt: Date
  /// The `ditto-recover` version that wrote it.
  package var toolVersion: String
  /// Categories and dittos the file holds.
  package var categories = 0
  package var dittos = 0
  /// Dittos rebuilt by salvage, when `--salvage` used salvaged rows.
  package var salvaged: Int?
  /// Each legacy source, in merge order.
  package var sources: [SourceCount] = []
  /// Dittos found only in `-wal` frames never committed that the file holds (in categories titled
  /// `… (never committed)`); nil when it holds none.
  package var neverCommitted: Int?

  package init(origin: Origin, createdAt: Date, toolVersion: String) {
    self.origin = origin
    self.createdAt = createdAt
    self.toolVersion = toolVersion
  }

  /// `2015-10-01T12:30:00Z`.
  package static func isoDate(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }

  /// The table's rows.
  var rows: [(Key, String)] {
    var rows: [(Key, String)] = [
      (.format, String(format)), (.origin, origin.rawValue),
      (.createdAt, Self.isoDate(createdAt)), (.toolVersion, toolVersion),
      (.categories, String(categories)), (.dittos, String(dittos)),
      (
        .sources,
        sources.map { "\($0.kind):\($0.categories):\($0.dittos)" }.joined(separator: ",")
      ),
    ]
    if let deviceName { rows.append((.deviceName, deviceName)) }
    if let backupDate { rows.append((.backupDate, Self.isoDate(backupDate))) }
    if let backupPath { rows.append((.backupPath, backupPath)) }
    if let container { rows.append((.container, container)) }
    if let salvaged { rows.append((.salvaged, String(salvaged))) }
    if let neverCommitted { rows.append((.neverCommitted, String(neverCommitted))) }
    return rows
  }

  /// Rebuilds the record from the table's rows.
  ///
  /// - Throws: ``RecoveryFileError`` (`.malformed`) when a required key is missing or invalid.
  init(rows: [String: String], file: String) throws(RecoveryFileError) {
    func malformed(_ reason: String) -> RecoveryFileError {
      RecoveryFileError(.malformed, file: file, reason: "\(Self.tableName): \(reason)")
    }
    guard let formatText = rows[Key.format.rawValue], let format = Int(formatText) else {
      throw malformed("no format")
    }
    guard format <= Self.currentFormat else {
      throw malformed("format \(format) is newer than this tool reads (\(Self.currentFormat))")
    }
    guard let originText = rows[Key.origin.rawValue], let origin = Origin(rawValue: originText)
    else { throw malformed("no valid origin") }
    let formatter = ISO8601DateFormatter()
    guard let createdText = rows[Key.createdAt.rawValue],
      let created = formatter.date(from: createdText)
    else { throw malformed("no valid createdAt") }
    self.init(
      origin: origin, createdAt: created, toolVersion: rows[Key.toolVersion.rawValue] ?? "unknown")
    self.format = format
    deviceName = rows[Key.deviceName.rawValue]
    backupDate = rows[Key.backupDate.rawValue].flatMap { formatter.date(from: $0) }
    backupPath = rows[Key.backupPath.rawValue]
    container = rows[Key.container.rawValue]
    categories = rows[Key.categories.rawValue].flatMap { Int($0) } ?? 0
    dittos = rows[Key.dittos.rawValue].flatMap { Int($0) } ?? 0
    salvaged = rows[Key.salvaged.rawValue].flatMap { Int($0) }
    neverCommitted = rows[Key.neverCommitted.rawValue].flatMap { Int($0) }
    var sources: [SourceCount] = []
    for item in (rows[Key.sources.rawValue] ?? "").split(separator: ",") {
      let parts = item.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 3, let categories = Int(parts[1]), let dittos = Int(parts[2]) else {
        throw malformed("invalid source entry")
      }
      sources.append(SourceCount(kind: String(parts[0]), categories: categories, dittos: dittos))
    }
    self.sources = sources
  }

  /// The record of the open store `database`; nil when it has no `DITTO_RECOVERY` table (a plain
  /// 2.x store).
  ///
  /// - Throws: ``RecoveryFileError`` when the table exists but cannot be read or is malformed.
  package static func read(from database: Database, file: String) throws(RecoveryFileError)
    -> RecoveryFileInfo?
  {
    var rows: [String: String] = [:]
    do {
      let exists = try database.makeStatement(
        sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '\(tableName)'")
      guard try exists.step() else { return nil }
      exists.reset()
      let select = try database.makeStatement(sql: "SELECT KEY, VALUE FROM \(tableName)")
      while try select.step() {
        if let key = select.text(at: 0), let value = select.text(at: 1) { rows[key] = value }
      }
      select.reset()
    } catch {
      throw RecoveryFileError(.malformed, file: file, reason: error.description)
    }
    return try RecoveryFileInfo(rows: rows, file: file)
  }

  /// The record of the file at `path`, read on a private snapshot; nil for a plain 2.x store.
  ///
  /// - Throws: ``RecoveryFileError`` (`.unreadable`) when the file cannot be read at all.
  package static func read(path: String) throws(RecoveryFileError) -> RecoveryFileInfo? {
    try CoreDataStore.withSnapshot(
      of: path, mapError: { RecoveryFileError(.unreadable, file: path, reason: $0.description) }
    ) { store throws(RecoveryFileError) in try read(from: store.database, file: path) }
  }
}
