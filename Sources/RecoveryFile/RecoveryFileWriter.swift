import Foundation
import LegacyStore
import LibraryMerge
import PropertyLists
import SQLiteDB
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a `.dittorecovery` file (the layout is described in RecoveryFileInfo.swift).
///
/// This is the one place product code creates Core Data-shaped tables: a new, standalone file in the
/// **2.x** layout that the engine's own legacy reader reads, never a `Ditto.store` (whose model hashes
/// only the app can make) and never a file inside a container or a backup.
///
/// The file is built in a private folder beside the output, read back through the engine's reader
/// and compared with what was meant, then published with `link(2)`, which never replaces an existing
/// file (or, on a file system without hard links, copied to a new file created with `O_EXCL`).
package enum RecoveryFileWriter {
  /// The file name extension (and the document type the app registers).
  package static let fileExtension = "dittorecovery"

  /// Distance between consecutive order keys.
  static let orderStep: Int64 = 1024

  /// Merges `sources` as a recovery into an empty library would (categories by title, in source
  /// order; a text an earlier source gave a category, once; order and use counts kept) and writes
  /// the result and `info` as a new file at `path`. The rows stream from the sources into the file:
  /// memory stays flat. `info`'s counts are filled in from what was written.
  ///
  /// `progress`, when given, is told how far the merge has gone (dittos read of those offered).
  ///
  /// - Returns: `info` with its counts, and the merge's counts per source.
  /// - Throws: ``RecoveryFileError``: `.alreadyExists` when something has that name (it is left as
  ///   it was), `.writeFailed` otherwise (a source that stopped reading included); nothing is left
  ///   at `path` on failure.
  package static func write(
    _ sources: [any MergeSourceStream], info: RecoveryFileInfo, to path: String,
    progress: ((MergeProgress) -> Void)? = nil
  ) throws(RecoveryFileError) -> (info: RecoveryFileInfo, merge: LibraryMerger.Result) {
    try requireFree(path)
    // What a run stopped by SIGKILL left beside an earlier output (marked ours, its lock free, a
    // minute old) is removed when this folder is made (PrivateDirectory.init).
    var folder: PrivateDirectory
    do {
      folder = try PrivateDirectory(prefix: ".ditto-recovery-", in: parent(of: path))
      if !folder.hasResolvedPath {
        // Reached through a link (a folder name that is not valid UTF-8): SQLite opens no path
        // with a link in it, so the file is made in the temporary folder and copied into place.
        folder.remove()
        folder = try PrivateDirectory(prefix: "ditto-recovery-")
      }
    } catch {
      throw RecoveryFileError(
        .writeFailed, file: path, reason: "cannot make a temporary folder beside it: \(error)")
    }
    defer { folder.remove() }
    let scratch = folder.path + "/recovery." + fileExtension
    do {
      // Made before SQLite opens it, readable by its owner only (SQLite would create it 0644);
      // its journal takes the same mode.
      try CreatedFile(path: scratch, mode: 0o600).close()
    } catch {
      throw RecoveryFileError(.writeFailed, file: path, reason: "\(error)")
    }
    let written: (info: RecoveryFileInfo, merge: LibraryMerger.Result, content: ContentDigest)
    do {
      written = try fill(scratch, sources: sources, info: info, progress: progress)
    } catch let error as ImportFailure {
      throw RecoveryFileError(.writeFailed, file: path, reason: error.description)
    } catch {
      throw RecoveryFileError(.writeFailed, file: path, reason: "\(error)")
    }
    try verify(scratch, content: written.content, output: path)
    try publish(scratch, at: path)
    return (written.info, written.merge)
  }

  /// Writes `categories` (each with its dittos in order) and `info` as a new file at `path`.
  ///
  /// - Throws: ``RecoveryFileError`` as ``write(_:info:to:)`` does.
  package static func write(
    categories: [MergeCategory], info: RecoveryFileInfo, to path: String
  ) throws(RecoveryFileError) {
    _ = try write([MergeSource(kind: "file", categories: categories)], info: info, to: path)
  }

  /// Throws `.alreadyExists` when anything (even a dangling link) has the name `path`; writing
  /// checks again, atomically.
  package static func requireFree(_ path: String) throws(RecoveryFileError) {
    let status: FileStatus?
    do {
      status = try FileStatus.of(path: path)
    } catch {
      throw RecoveryFileError(.writeFailed, file: path, reason: error.reason)
    }
    if let status {
      throw RecoveryFileError(
        .alreadyExists, file: path,
        reason: "already exists (a \(status.kind.humanName)); it is never overwritten")
    }
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func fill(
    _ path: String, sources: [any MergeSourceStream], info: RecoveryFileInfo,
    progress: ((MergeProgress) -> Void)?
  ) throws -> (info: RecoveryFileInfo, merge: LibraryMerger.Result, content: ContentDigest) {
    let database = try Database(path: path, mode: .readWriteCreate)
    try database.execute(
      sql: "PRAGMA page_size = 4096; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL")
    let written = try database.write(mapError: { $0 as any Error }) {
      () throws -> (info: RecoveryFileInfo, merge: LibraryMerger.Result, content: ContentDigest) in
      for statement in schema { try database.execute(sql: statement) }
      let session = try RecoveryFileSession(database: database)
      session.onProgress = progress
      let merge = try LibraryMerger.merge(sources, into: session)
      var filled = info
      filled.categories = merge.counts.insertedCategories
      filled.dittos = merge.counts.inserted
      filled.sources = zip(sources, merge.countsBySource).map {
        RecoveryFileInfo.SourceCount(
          kind: $0.0.kind, categories: $0.1.categoriesRead, dittos: $0.1.dittosRead)
      }
      try insertRecord(database, info: filled, session: session)
      return (filled, merge, session.content)
    }
    try database.close()
    return written
  }

  /// Core Data's DDL for the Ditto 2.x model, then the metadata table.
  static let schema =
    LegacySchema.createStatements + [
      "CREATE TABLE \(RecoveryFileInfo.tableName) (KEY TEXT PRIMARY KEY, VALUE TEXT)"
    ]

  /// The Core Data bookkeeping rows and the `DITTO_RECOVERY` record, after the merge.
  private static func insertRecord(
    _ database: Database, info: RecoveryFileInfo, session: RecoveryFileSession
  ) throws {
    let primaryKeys = try database.makeStatement(sql: LegacySchema.primaryKeyInsert)
    for (table, maximum) in [
      (LegacySchema.category, session.categoryCount), (LegacySchema.ditto, session.dittoCount),
      (LegacySchema.profile, 1),
    ] {
      try primaryKeys.bind(.integer(table.entityNumber), .text(table.entity), .integer(maximum))
      try primaryKeys.run()
    }
    let metadata = try database.makeStatement(
      sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
    try metadata.bind(.text(UUID().uuidString.uppercased()), .blob(metadataPlist()))
    try metadata.run()
    let record = try database.makeStatement(
      sql: "INSERT INTO \(RecoveryFileInfo.tableName) (KEY, VALUE) VALUES (?, ?)")
    for (key, value) in info.rows {
      try record.bind(.text(key.rawValue), .text(value))
      try record.run()
    }
  }

  /// The binary metadata plist (model hashes are placeholders: only this project's reader opens it).
  static func metadataPlist() -> [UInt8] {
    let hash: PropertyListValue = .data([UInt8](repeating: 0, count: 32))
    let plist: PropertyListValue = [
      "NSStoreType": "SQLite",
      "NSPersistenceFrameworkVersion": 641,
      "NSStoreModelVersionHashes": .dictionary(
        PropertyListDictionary(sorting: LegacySchema.tables.map { ($0.entity, hash) })),
      "NSStoreModelVersionHashesVersion": 3,
      "NSStoreModelVersionIdentifiers": [""],
      "DittoRecoveryFormat": .integer(Int64(RecoveryFileInfo.currentFormat)),
    ]
    return PropertyListWriter.encode(plist, format: .binary)
  }

  /// Reads the new file back through the engine's reader, streamed; anything but exactly what was
  /// written (each category's title, dittos, texts and use counts, in order) fails.
  private static func verify(_ scratch: String, content: ContentDigest, output: String)
    throws(RecoveryFileError)
  {
    var readBack = ContentDigest()
    do {
      _ = try CoreDataStore.withSnapshot(of: scratch, mapError: { $0 as any Error }) {
        store throws in
        try LegacyStoreReader(store: store).walk { item in
          switch item {
          case .category(let title, _): readBack.beginCategory(title)
          case .ditto(let ditto): readBack.add(ditto.text, useCount: ditto.useCount)
          }
        }
      }
    } catch {
      throw RecoveryFileError(
        .writeFailed, file: output, reason: "the new file does not read back: \(error)")
    }
    guard readBack.categories == content.categories else {
      throw RecoveryFileError(
        .writeFailed, file: output, reason: "the new file does not read back as written")
    }
  }

  /// Gives `scratch` the name `path`, never replacing anything there.
  private static func publish(_ scratch: String, at path: String) throws(RecoveryFileError) {
    // User text inside: readable by its owner only, like the backup it came from.
    _ = chmod(scratch, 0o600)
    let synced = open(scratch, O_RDONLY | O_CLOEXEC)
    if synced >= 0 {
      _ = syncToDrive(synced)
      _ = close(synced)
    }
    do {
      try NewFile.publish(scratch, as: path)
    } catch {
      switch error {
      case .exists:
        throw RecoveryFileError(
          .alreadyExists, file: path, reason: "already exists; it is never overwritten")
      case .failed(let failure):
        throw RecoveryFileError(.writeFailed, file: path, reason: failure.description)
      }
    }
  }
}
