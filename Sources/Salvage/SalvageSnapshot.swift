import Foundation
import LegacyStore
import SQLiteSnapshot
import SafeFiles

// THE PRIVATE COPY SALVAGE WORKS ON
//
//   INPUT                                   COPIED (into one private folder, same base name)
//   X exists (any size, any bytes)          X, X-wal, X-journal: StoreSnapshot without the header
//                                           check (a damaged or empty X is still copied)
//   X missing, X-wal exists                 X-wal alone
//   neither                                 nothing: LegacyStoreError.notFound
//
// Originals are only ever opened through ReadOnlyFile (regular files, O_NOFOLLOW | O_NONBLOCK)
// and never written. The decoder and SQLite both read the copies; SQLite copies once more before
// it opens, so nothing it does (WAL recovery on a read-write fallback) changes what the decoder sees.

/// A private copy of a store's files, or of its lone `-wal`.
final class SalvageSnapshot {
  /// The copied main file, nil when there was none.
  let mainCopy: String?
  /// The copied `-wal`, nil when there was none.
  let walCopy: String?
  private let storeSnapshot: StoreSnapshot?
  private let ownDirectory: PrivateDirectory?

  /// Copies the store whose main file is `mainPath` (which may be missing when `walPath` exists).
  ///
  /// - Throws: ``LegacyStoreError``: `.notFound` when neither file exists, `.notARegularFile`,
  ///   `.ioError`.
  init(mainPath: String, walPath: String) throws(LegacyStoreError) {
    let mainStatus: FileStatus?
    do {
      mainStatus = try FileStatus.of(path: mainPath)
    } catch {
      throw .ioError(file: mainPath, reason: "\(error.operation): \(error.reason)")
    }
    if mainStatus != nil {
      let snapshot: StoreSnapshot
      do {
        snapshot = try StoreSnapshot(of: mainPath, requireSQLiteHeader: false)
      } catch {
        throw LegacyStoreError.from(error, file: mainPath)
      }
      storeSnapshot = snapshot
      ownDirectory = nil
      mainCopy = snapshot.mainCopy
      walCopy = snapshot.copiedBytes["-wal"] != nil ? snapshot.mainCopy + "-wal" : nil
      return
    }
    let wal: ReadOnlyFile
    do {
      wal = try ReadOnlyFile(path: walPath)
    } catch .access(let error) where error.isNotFound {
      throw .notFound(file: mainPath)
    } catch {
      throw LegacyStoreError.from(error, file: walPath)
    }
    let directory: PrivateDirectory
    do {
      directory = try PrivateDirectory(prefix: "ditto-salvage-")
    } catch {
      throw .ioError(file: walPath, reason: "could not create a private folder: \(error)")
    }
    let base = mainPath.split(separator: "/").last.map(String.init) ?? ""
    let copy = directory.path + "/" + (base.isEmpty ? "store.sqlite" : base) + "-wal"
    do {
      try wal.copy(to: copy)
    } catch {
      directory.remove()
      throw .ioError(file: error.path, reason: "\(error.operation): \(error.reason)")
    }
    storeSnapshot = nil
    ownDirectory = directory
    mainCopy = nil
    walCopy = copy
  }

  deinit {
    remove()
  }

  /// Removes the private copies. Safe to call more than once.
  func remove() {
    storeSnapshot?.remove()
    ownDirectory?.remove()
  }
}

@available(*, unavailable)
extension SalvageSnapshot: Sendable {}
