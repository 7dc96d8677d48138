import SQLiteDB
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private copy of a store and its sidecars, so SQLite never opens the original.
///
/// Opening even read-only can write beside a WAL database (`-shm`, recovery), and a read-write open
/// checkpoints and deletes the `-wal` on close. `immutable=1` avoids writes but silently ignores the
/// `-wal`: rows not yet checkpointed would look absent. So we copy `X`, `X-wal` and `X-journal`
/// together into a fresh `mkdtemp` folder, under the same base name, and open the copy. The `-shm`
/// is not copied: it is an index SQLite rebuilds from the `-wal` (on our copy), and other readers
/// change it all the time, so a copy of it could describe frames our copy of the `-wal` lacks.
///
/// Each file is opened with `O_NOFOLLOW | O_NONBLOCK` and checked with `fstat`: only regular files are
/// read (a FIFO named `Ditto.sqlite` is refused, never waited on). Copies stream in 1 MiB chunks.
/// The main file's header is checked before copying, so a 2 GiB file of garbage is refused at once.
///
/// Another process may be writing the store while it is copied (the app, a checkpoint): a copy is
/// kept only when the files' ``StoreFingerprint`` is the same before and after it, so the copy is
/// one state the files really had. Otherwise it is made again, after a short pause, up to
/// ``copyAttempts`` times, and then refused as `.changing` (a passing condition, never "damaged").
///
/// The snapshot folder is removed by ``remove()`` or when the value is released. It is the only
/// folder this type ever deletes: the one `mkdtemp` made for it.
package final class StoreSnapshot {
  /// The original main file, as given. Used in every error.
  package let originalPath: String
  /// The private folder holding the copies.
  package let directory: String
  /// The copy of the main file: the path to open.
  package let mainCopy: String
  /// The first 100 bytes of the main file (the SQLite header).
  package let header: [UInt8]
  /// Bytes copied per file suffix ("" for the main file, "-wal", "-journal").
  package let copiedBytes: [String: Int64]
  /// How many copies were made before one held still (1 when nothing else was writing).
  package let attempts: Int
  /// The `mkdtemp` folder: removing it is the only deletion this type makes.
  private let folder: PrivateDirectory

  /// The sidecars copied with the main file (the `-shm` is rebuilt from the `-wal` instead).
  package static let copiedSuffixes = ["-wal", "-journal"]
  /// Copies tried before a store that keeps changing is refused.
  package static let copyAttempts = 5

  /// Copies the store at `path` and its sidecars into a new private folder.
  ///
  /// - Parameter requireSQLiteHeader: when true (the default: a copy SQLite opens), a main file that
  ///   does not start with `SQLite format 3\0` is refused before anything is copied, and the copy
  ///   of a WAL database with no `-wal` is marked rollback-journal; false for a copy a decoder reads
  ///   byte for byte (salvage).
  /// - Throws: ``SnapshotError``: `.notFound`, `.notARegularFile`, `.permissionDenied`, `.busy`,
  ///   `.ioError`, `.notADatabase`, `.noSpace` or `.changing`.
  package init(of path: String, requireSQLiteHeader: Bool = true) throws(SnapshotError) {
    originalPath = path
    var tries = 0
    while true {
      tries += 1
      if tries > 1 { Self.pause(beforeTry: tries) }
      // Each file is opened once per try: the fingerprints read their headers through the
      // descriptors the copy reads, and a try whose files were not those the paths name (one
      // appeared, went or was replaced between the two) is a moving store's.
      let opened = try Self.openFiles(path)
      let before = try StoreFingerprint(of: path, opened: opened)
      guard before.matchesOpened else {
        guard tries < Self.copyAttempts else { throw .changing(file: path, attempts: tries) }
        continue
      }
      let copy: Copy
      do {
        copy = try Self.copyOnce(path, opened: opened, requireSQLiteHeader: requireSQLiteHeader)
      } catch {
        // A verdict on bytes that were changing under us says nothing: try again. (A store that
        // cannot even be examined now has moved too; the next try says why.)
        let moved: Bool
        do {
          moved = try StoreFingerprint(of: path, opened: opened) != before
        } catch {
          moved = true
        }
        guard moved, tries < Self.copyAttempts else {
          if moved { throw .changing(file: path, attempts: tries) }
          throw error
        }
        continue
      }
      if try StoreFingerprint(of: path, opened: opened) == before {
        folder = copy.folder
        header = copy.header
        copiedBytes = copy.copiedBytes
        attempts = tries
        directory = copy.folder.path
        mainCopy = copy.mainCopy
        return
      }
      copy.folder.remove()
      guard tries < Self.copyAttempts else { throw .changing(file: path, attempts: tries) }
    }
  }

  /// One copy of the files, not yet known to be consistent.
  private struct Copy {
    var folder: PrivateDirectory
    var mainCopy: String
    var header: [UInt8]
    var copiedBytes: [String: Int64]
  }

  /// The store's files opened for reading, by suffix ("" for the main file, which must be there;
  /// a sidecar that is not there is left out).
  ///
  /// - Throws: ``SnapshotError`` naming the file that cannot be opened.
  private static func openFiles(_ path: String) throws(SnapshotError) -> [String: ReadOnlyFile] {
    var opened: [String: ReadOnlyFile] = [:]
    do {
      opened[""] = try ReadOnlyFile(path: path)
    } catch {
      throw SnapshotError.from(error, file: path)
    }
    for suffix in copiedSuffixes {
      do {
        opened[suffix] = try ReadOnlyFile(path: path + suffix)
      } catch .access(let error) where error.isNotFound {
        continue
      } catch {
        throw SnapshotError.from(error, file: path + suffix)
      }
    }
    return opened
  }

  private static func copyOnce(
    _ path: String, opened: [String: ReadOnlyFile], requireSQLiteHeader: Bool
  ) throws(SnapshotError) -> Copy {
    guard let main = opened[""] else { throw .notFound(file: path) }
    let header: [UInt8]
    do {
      header = try main.read(count: 100, at: 0)
    } catch {
      throw SnapshotError.from(error, file: path)
    }
    if requireSQLiteHeader {
      try checkHeader(header, size: main.size, file: path)
    }
    let folder: PrivateDirectory
    do {
      folder = try PrivateDirectory(prefix: "ditto-snapshot-")
    } catch {
      // Our side (TMPDIR), not the store's: classified by errno all the same (full, not allowed).
      throw SnapshotError.from(error, file: path)
    }
    let baseName = path.split(separator: "/").last.map(String.init) ?? ""
    let mainCopy = folder.path + "/" + (baseName.isEmpty ? "store.sqlite" : baseName)
    var copied: [String: Int64] = [:]
    do throws(SnapshotError) {
      do {
        copied[""] = try main.copy(to: mainCopy)
      } catch {
        throw SnapshotError.from(error, file: path)
      }
      for suffix in copiedSuffixes {
        guard let sidecar = opened[suffix] else { continue }
        do {
          copied[suffix] = try sidecar.copy(to: mainCopy + suffix)
        } catch {
          throw SnapshotError.from(error, file: path)
        }
      }
      // Only a copy SQLite opens is marked: a copy for a decoder (salvage, which asks for no
      // header check) keeps every byte as the file had it.
      if requireSQLiteHeader, (copied["-wal"] ?? 0) == 0, header.count > 19, header[18] == 2,
        header[19] == 2
      {
        try markRollbackMode(mainCopy, file: path)
      }
    } catch {
      folder.remove()
      throw error
    }
    return Copy(folder: folder, mainCopy: mainCopy, header: header, copiedBytes: copied)
  }

  /// Waits a little longer before each new try (10, 20, 40, 80 ms): a writer's transaction or a
  /// checkpoint is usually over by then.
  private static func pause(beforeTry number: Int) {
    let milliseconds = 10 << min(number - 2, 6)
    usleep(useconds_t(milliseconds * 1000))
  }

  deinit {
    remove()
  }

  /// True when a non-empty `-wal` was copied with the store.
  package var hasWAL: Bool { (copiedBytes["-wal"] ?? 0) > 0 }

  /// How a snapshot is read: hardened for a file someone else wrote, and its first 16 MB through a
  /// memory map (the copy is private: nothing else writes or truncates it), so a store read twice
  /// (counted, then merged) costs no second round of `pread`s; larger stores are read as usual past
  /// that, which keeps memory bounded.
  package static let readerOptions: Database.Options = {
    var options = Database.Options.untrustedReader
    options.memoryMapBytes = 16 << 20
    // The copy is this connection's alone (the main file read alone for a foreign `-wal` is
    // opened `immutable`, which takes no lock).
    options.locksExclusively = true
    return options
  }()

  /// Opens the copy read-only, hardened for a file someone else wrote.
  ///
  /// A hot rollback journal or a WAL that needs recovery cannot be read through a read-only
  /// connection (SQLite answers one of ``SQLiteError/isRecoveryRefusedReadOnly``'s codes). This is our
  /// private copy, so SQLite then gets a read-write connection to recover it there: nothing the
  /// user owns changes. With ``Database/Options/locksExclusively`` (the reader's options) the
  /// connection is read-write from the start (an exclusive lock needs it; `query_only` still
  /// refuses every write): the `-wal`'s index lives in memory, no `-shm` is made, and no lock is
  /// taken per statement.
  ///
  /// - Parameter displayName: the name errors use (the original's path, never the copy's).
  /// - Throws: ``SQLiteError``.
  package func open(displayName: String, options: Database.Options = StoreSnapshot.readerOptions)
    throws(SQLiteError) -> Database
  {
    if options.locksExclusively {
      return try Database(
        path: mainCopy, mode: .readWrite, displayName: displayName, options: options)
    }
    do {
      return try Database(
        path: mainCopy, mode: .readOnly, displayName: displayName, options: options)
    } catch let error where error.isRecoveryRefusedReadOnly {
      return try Database(
        path: mainCopy, mode: .readWrite, displayName: displayName, options: options)
    }
  }

  /// Removes the private folder. Safe to call more than once.
  package func remove() {
    folder.remove()
  }

  // MARK: - Helpers

  /// The 16-byte magic string at the start of every SQLite database file.
  package static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

  private static func checkHeader(_ header: [UInt8], size: Int64, file: String)
    throws(SnapshotError)
  {
    if size == 0 {
      throw .notADatabase(file: file, reason: "the file is empty (0 bytes)")
    }
    guard header.count >= 100, Array(header.prefix(16)) == sqliteMagic else {
      let shown =
        header.count < 16 ? "only \(size) bytes" : "no SQLite header in the first 16 bytes"
      throw .notADatabase(file: file, reason: shown)
    }
  }

}

/// Marks the copy of a WAL database that has no `-wal` as a rollback-journal one (bytes 18 and
/// 19 of its header, the file format's write and read versions, from 2 to 1). Every page is in
/// the main file, so SQLite reads the same database; it then makes no `-wal` beside the copy to
/// read it (a file made and removed per read). Only the private copy is written.
private func markRollbackMode(_ copy: String, file: String) throws(SnapshotError) {
  let descriptor = open(copy, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
  guard descriptor >= 0 else {
    throw .ioError(file: file, reason: "the snapshot copy cannot be opened (errno \(errno))")
  }
  defer { close(descriptor) }
  let versions: [UInt8] = [1, 1]
  let written = versions.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 2, 18) }
  guard written == 2 else {
    throw .ioError(file: file, reason: "the snapshot copy cannot be written (errno \(errno))")
  }
}
