import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles

/// What one applied import inserted into the store (keys only, never content).
package struct DittoStoreImportReceipt: Sendable, Equatable {
  /// `Z_PK` of the Profile the import created; nil when the store already had one.
  package var createdProfileID: Int64?
  /// `Z_PK`s of the new categories, in the order they were created.
  package var categoryIDs: [Int64]
  /// `Z_PK`s of the new dittos, in the order they were inserted (one contiguous range).
  package var dittoIDs: Range<Int64>
  /// `Z_PK` of the history transaction recorded; nil when the store has no history tables.
  package var historyTransactionID: Int64?
  /// What the store is (iCloud tables, history).
  package var facts: LibraryFacts
}

/// The `ditto-recover` destination: imports into an existing Ditto 3.x `Ditto.store`, insert only.
///
/// Before anything is opened for writing, a snapshot of the file is validated (a Ditto 3.x store with
/// exactly the app's tables and columns); anything else is refused and left byte-identical. The
/// import is one `BEGIN IMMEDIATE` transaction on the original file: the library's outline is read
/// inside it, the rows are inserted as the merge streams them, and, when the store keeps persistent
/// history, one history transaction with an insert change per row is recorded before the commit.
/// Keys come from `Z_PRIMARYKEY.Z_MAX`, which is only ever raised. Nothing existing is updated; the
/// metadata, model cache, schema, CloudKit tables, journal mode, page size and auto-vacuum are never
/// touched. A preview runs the same merge on a snapshot and writes nothing.
package final class DittoStoreDestination: MigrationDestination {
  /// The author recorded on our history transactions (never a CloudKit mirroring name).
  package static let defaultAuthor = "ditto-recover"

  /// The store file, as given.
  package let path: String
  /// The author string of the history transaction.
  package let author: String
  /// How long to wait for another process's lock before failing with `.writeFailed`.
  package let busyTimeoutMilliseconds: Int32
  /// True when the write holds the store's lock from open to close, with no `-shm`
  /// (`PRAGMA locking_mode = EXCLUSIVE`): for a store reached through links of the tool's own,
  /// whose `-shm` another process would not share. Another connection waits (busy) until it closes.
  package let locksExclusively: Bool
  private let now: @Sendable () -> Double
  private let receipt = LastReceipt()
  private let progressObserver = ProgressObserver()

  /// Calls `observer` with how far the next imports have gone: the dittos their sources offer and
  /// how many were read, as the merge reports them (nil: no more calls). Package-only: for the
  /// tool's progress line, never the app's.
  package func observeProgress(_ observer: ((MergeProgress) -> Void)?) {
    progressObserver.value = observer
  }

  /// What the last successful ``applyImport(_:)`` inserted; nil before, or when it inserted nothing.
  /// Package-only: for this package's tests and tools, never the app's.
  package func lastReceipt() -> DittoStoreImportReceipt? { receipt.value }

  /// A destination for the store at `path`; nothing is opened until it is used.
  ///
  /// - Parameters:
  ///   - path: the `Ditto.store` file.
  ///   - author: recorded in `ATRANSACTIONSTRING`; a `NSCloudKitMirroringDelegate…` name is
  ///     replaced by ``defaultAuthor`` (the CloudKit exporter skips such transactions).
  ///   - busyTimeoutMilliseconds: how long a write waits for the app's lock before it fails.
  ///   - locksExclusively: see ``locksExclusively``.
  ///   - now: the current time in Cocoa seconds (tests pin it).
  package init(
    path: String, author: String = DittoStoreDestination.defaultAuthor,
    busyTimeoutMilliseconds: Int32 = 5_000, locksExclusively: Bool = false,
    now: @escaping @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate }
  ) {
    self.path = path
    self.locksExclusively = locksExclusively
    self.author =
      author.isEmpty || author.hasPrefix("NSCloudKitMirroringDelegate")
      ? Self.defaultAuthor : author
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    self.now = now
  }

  /// The library as the app shows it, in outline, read on a snapshot (the original is not opened).
  package func outline() throws(DestinationError) -> LibraryOutline {
    try DittoStoreFile.withSnapshot(of: path) { (database, layout) throws(SQLiteError) in
      try LibraryQueries(database: database, layout: layout).outline().outline
    }
  }

  /// The merge `body` runs against a snapshot of the store; nothing is written anywhere.
  ///
  /// - Throws: `ImportFailure`: `.library` (`.noLibrary`, `.refused`, `.readFailed`) or what
  ///   `body` threw.
  package func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    let path = path
    let time = now()
    let outcome: Swift.Result<Result, ImportFailure>
    do throws(DestinationError) {
      outcome = try DittoStoreFile.withSnapshot(of: path) {
        (database, layout) throws(SQLiteError) in
        let session = try DittoStoreSession(
          database: database, layout: layout, writes: false, now: time, file: path)
        return Swift.Result { () throws(ImportFailure) in try body(session) }
      }
    } catch {
      throw .library(error)
    }
    return try outcome.get()
  }

  /// Validates the store, then runs `body` in one write transaction and commits what it inserted
  /// (see the type). An import that inserts nothing writes nothing (the transaction is rolled back,
  /// no history is recorded).
  ///
  /// - Throws: `ImportFailure`: `.library` with `.noLibrary` (no file), `.refused` (not a Ditto 3.x
  ///   store this tool may write; the file is untouched), `.writeFailed` (read-only file, still
  ///   locked after the busy timeout, I/O error, disk full; rolled back), `.readFailed`; or what
  ///   `body` threw, after the rollback.
  package func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    self.receipt.value = nil
    let database: Database
    let hadWAL: Bool
    do throws(DestinationError) {
      let checked = try DittoStoreFile.validateForWrite(at: path)
      if let refusal = DittoStoreFile.refusal(checked, file: path) { throw refusal }
      try checkWritable()
      // Opening a WAL store creates `-wal` and `-shm` when they are missing. When nothing is
      // committed they are removed again at close (an empty WAL checkpoints nothing); an existing
      // `-wal` is left exactly as it was.
      do {
        hadWAL = try FileStatus.of(path: path + "-wal") != nil
      } catch {
        hadWAL = true
      }
      database = try open()
    } catch {
      throw .library(error)
    }
    var committed = false
    defer {
      if !committed && !hadWAL { Self.enableCheckpointsOnClose(database) }
      Self.close(database)
    }
    let (outcome, receipt) = try database.inTransaction(
      .immediate, mapError: { ImportFailure.library(DestinationError.fromWrite($0, file: path)) }
    ) { () throws(ImportFailure) -> TransactionResult<(Result, DittoStoreImportReceipt?)> in
      // The schema is checked again under the lock: it may have changed since the snapshot.
      let layout: StoreLayout
      do throws(DestinationError) {
        layout = try StoreLayout.inspect(database, file: path)
      } catch {
        throw .library(error)
      }
      if let refusal = DittoStoreFile.refusal(layout, file: path) { throw .library(refusal) }
      let time = now()
      let session: DittoStoreSession
      do throws(SQLiteError) {
        session = try DittoStoreSession(
          database: database, layout: layout, writes: true, now: time, file: path)
      } catch {
        throw .library(DestinationError.fromWrite(error, file: path))
      }
      session.onProgress = progressObserver.value
      let outcome = try body(session)
      // The last moment a cancelled task can stop the import: nothing is committed yet.
      if Task.isCancelled { throw ImportFailure.cancelled }
      let receipt: DittoStoreImportReceipt
      do {
        // Nothing inserted: nothing is written (no history either).
        guard let finished = try session.finish(author: author, now: time) else {
          return .rollback((outcome, nil))
        }
        receipt = finished
        try LibraryChecks.afterInserts(database, file: path)
      } catch let error as DestinationError {
        throw .library(error)
      } catch let error as SQLiteError {
        throw .library(DestinationError.fromWrite(error, file: path))
      } catch {
        throw .library(
          DestinationError(.writeFailed, file: path, reason: "\(error); nothing was written"))
      }
      return .commit((outcome, receipt))
    }
    if receipt != nil {
      committed = true
      self.receipt.value = receipt
      Self.enableCheckpointsOnClose(database)
    }
    return outcome
  }

  // MARK: - Files

  /// The original, opened read-write (the folders it sits in may be behind links, as a Mac's /tmp
  /// and /var are; the store itself must be a regular file, never a link). Until something is
  /// committed, closing must not checkpoint: the files stay as they were.
  private func open() throws(DestinationError) -> Database {
    var options = Database.Options(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    options.locksExclusively = locksExclusively
    do {
      let database = try Database(
        path: UserPath.resolvingFolder(of: path), mode: .readWrite, displayName: path,
        options: options)
      try database.setCheckpointsOnClose(false)
      return database
    } catch {
      throw DestinationError.fromWrite(error, file: path)
    }
  }

  /// Refuses a file without any write permission bit before SQLite opens it (root could write it
  /// anyway; a read-only library is the user's choice).
  private func checkWritable() throws(DestinationError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR {
        throw DestinationError(.noLibrary, file: path, reason: DestinationError.noLibraryReason)
      }
      throw DestinationError(
        .writeFailed, file: path,
        reason: "cannot check the file: \(String(cString: strerror(code))); nothing was written")
    }
    if info.st_mode & 0o222 == 0 || access(path, W_OK) != 0 {
      throw DestinationError(
        .writeFailed, file: path, reason: Self.readOnlyReason, cause: .readOnly)
    }
  }

  /// The reason of the error a library without write permission gives.
  package static let readOnlyReason = "the library file is read-only; nothing was written"

  private static func enableCheckpointsOnClose(_ database: Database) {
    do {
      try database.setCheckpointsOnClose(true)
    } catch {
      // The WAL is then left for the app to checkpoint; nothing is lost.
    }
  }

  private static func close(_ database: Database) {
    do {
      try database.close()
    } catch {
      // Statements are gone by now; a failed close is finished by the connection's deinit.
    }
  }
}

/// The receipt of the last import, shared by the tasks that use one destination.
private final class LastReceipt: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: DittoStoreImportReceipt?

  var value: DittoStoreImportReceipt? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      stored = newValue
    }
  }
}

/// The progress observer, set from the tool's thread and read by the import's (the same one).
private final class ProgressObserver: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: ((MergeProgress) -> Void)?

  var value: ((MergeProgress) -> Void)? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
