import LibraryMerge
import SQLiteDB
import SQLiteSnapshot
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a Ditto 3.x library (`Ditto.store`) on a private snapshot of the file with its `-wal` and
/// `-shm`: the original is never opened by SQLite, so a read never changes it, and a hot journal or
/// WAL left by a crash is recovered on the copy instead of blocking the read.
///
/// ```swift
/// let content = try DittoStoreFile.content(at: "/group/Ditto.store")
/// for category in content.categories { print(category.title, category.dittos.count) }
/// ```
package enum DittoStoreFile {
  /// The library the app shows, in full: titles, texts, use counts, sort orders, dates.
  ///
  /// - Throws: `DestinationError`: `.noLibrary` when nothing exists at `path`, `.refused` when it is
  ///   not a Ditto 3.x store (naming what is wrong), `.readFailed` otherwise.
  package static func content(at path: String) throws(DestinationError) -> DittoStoreContent {
    try withSnapshot(of: path) { (database, layout) throws(SQLiteError) in
      try LibraryQueries(database: database, layout: layout).content()
    }
  }

  /// The library as the merge planner needs it (category handles are `Z_PK`s).
  ///
  /// - Throws: `DestinationError` as ``content(at:)`` does.
  package static func currentLibrary(at path: String) throws(DestinationError) -> CurrentLibrary {
    try withSnapshot(of: path) { (database, layout) throws(SQLiteError) in
      try LibraryQueries(database: database, layout: layout).currentLibrary().library
    }
  }

  /// What `status --json` reports; a missing file is a summary with `exists` false, not an error.
  ///
  /// - Throws: `DestinationError` `.refused` or `.readFailed` for a file that exists.
  package static func summary(at path: String) throws(DestinationError) -> DittoStoreSummary {
    do {
      return try withSnapshot(of: path) { (database, layout) throws(SQLiteError) in
        let queries = LibraryQueries(database: database, layout: layout)
        let (profiles, first) = try queries.profiles()
        let shown = try first.map { (profile) throws(SQLiteError) in
          try queries.shownCounts(of: profile)
        }
        var zMax: [String: Int64] = [:]
        for entity in layout.entities where zMax[entity.name] == nil {
          zMax[entity.name] = entity.max
        }
        return DittoStoreSummary(
          path: path, exists: true, categories: shown?.categories ?? 0, dittos: shown?.dittos ?? 0,
          history: layout.hasHistory, cloudKit: layout.hasCloudKit, profiles: profiles, zMax: zMax,
          historyTransactions: layout.hasHistory ? try queries.rowCount(of: "ATRANSACTION") : 0,
          historyChanges: layout.hasHistory ? try queries.rowCount(of: "ACHANGE") : 0,
          writeRefusal: writeRefusal(layout))
      }
    } catch  where error.kind == .noLibrary {
      return DittoStoreSummary(path: path, exists: false)
    }
  }

  /// Checks that an import into `path` would be accepted, on a snapshot (the original is not opened).
  ///
  /// - Returns: the layout found (for the writer's own checks).
  /// - Throws: `DestinationError`: `.noLibrary`, `.refused` naming what is wrong, `.readFailed`.
  static func validateForWrite(at path: String) throws(DestinationError) -> StoreLayout {
    try withSnapshot(of: path) { (_, layout) throws(SQLiteError) in layout }
  }

  /// The reason an import into a store with `layout` is refused, nil when it is accepted.
  static func writeRefusal(_ layout: StoreLayout) -> String? {
    refusal(layout, file: "")?.reason
  }

  /// The error an import into the store `file` with `layout` is refused with, nil when it is
  /// accepted.
  static func refusal(_ layout: StoreLayout, file: String) -> DestinationError? {
    if !layout.writeProblems.isEmpty {
      return DestinationError(
        .refused, file: file,
        reason: "not a Ditto 3.x store this tool may write: "
          + layout.writeProblems.joined(separator: "; "))
    }
    if layout.hasCloudKit, layout.profileCount == 0 {
      return DestinationError(
        .refused, file: file, reason: awaitingICloudReason, cause: .awaitingICloud)
    }
    return nil
  }

  /// Why a library with iCloud mirroring tables and no Profile is not written: its content has not
  /// arrived from iCloud yet, and a Profile made here would be a second one once it does (which one
  /// is "first" could then differ between devices).
  package static let awaitingICloudReason =
    "this library has iCloud sync tables and no Profile yet: its content has not arrived from iCloud, and a Profile made here would become a second one when it does; nothing was written"

  // MARK: - Snapshot

  /// Snapshots `path`, opens the copy, resolves its layout and runs `body`; the copy is removed after.
  ///
  /// The app (or another ditto-recover) may commit while the three files are being copied, and a copy
  /// taken across a commit or a checkpoint can read as damaged. So when a read fails and the files
  /// changed while it ran, the snapshot is taken again (a few times); a store that stays damaged
  /// while nobody writes it is reported as it is.
  static func withSnapshot<Result>(
    of path: String, _ body: (Database, StoreLayout) throws(SQLiteError) -> Result
  ) throws(DestinationError) -> Result {
    var attempt = 0
    while true {
      let before = fingerprint(of: path)
      do {
        return try withOneSnapshot(of: path, body)
      } catch {
        attempt += 1
        guard attempt < 8, error.kind != .noLibrary, fingerprint(of: path) != before else {
          throw error
        }
        usleep(UInt32(20_000 * attempt))
      }
    }
  }

  /// Size and modification time of the store and its `-wal`: changes whenever a writer commits.
  private static func fingerprint(of path: String) -> [Double] {
    var values: [Double] = []
    for file in [path, path + "-wal"] {
      do {
        let status = try FileStatus.of(path: file)
        values += [Double(status?.size ?? -1), status?.modificationTime ?? -1]
      } catch {
        values += [-2, -2]
      }
    }
    return values
  }

  private static func withOneSnapshot<Result>(
    of path: String, _ body: (Database, StoreLayout) throws(SQLiteError) -> Result
  ) throws(DestinationError) -> Result {
    let snapshot: StoreSnapshot
    do {
      snapshot = try StoreSnapshot(of: path)
    } catch {
      throw DestinationError.fromSnapshot(error, file: path)
    }
    defer { snapshot.remove() }
    let database: Database
    do {
      database = try snapshot.open(displayName: path)
    } catch {
      throw DestinationError.fromRead(error, file: path)
    }
    let layout = try StoreLayout.inspect(database, file: path)
    do {
      return try body(database, layout)
    } catch {
      throw DestinationError.fromRead(error, file: path)
    }
  }
}

extension DestinationError {
  /// Classifies a failure to copy the store for reading.
  static func fromSnapshot(_ error: SnapshotError, file: String) -> DestinationError {
    switch error {
    case .notFound:
      return DestinationError(.noLibrary, file: file, reason: noLibraryReason)
    case .notARegularFile(_, let kind):
      return DestinationError(
        .refused, file: file, reason: "is a \(kind.humanName), not a Ditto 3.x library file")
    case .notADatabase(_, let reason):
      return DestinationError(
        .refused, file: file,
        reason: "not an SQLite database (\(reason)), so not a Ditto 3.x library")
    case .ioError(_, let reason), .noSpace(_, let reason), .permissionDenied(_, let reason),
      .busy(_, let reason):
      return DestinationError(.readFailed, file: file, reason: reason)
    case .changing:
      return DestinationError(.readFailed, file: file, reason: error.description)
    }
  }

  /// Why a path without a file is not a library.
  static let noLibraryReason = "there is no Ditto 3.x library here (no such file)"
}
