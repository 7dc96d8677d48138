import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A library (`--library`) named with bytes that are not valid UTF-8, which no Swift `String` can
/// hold: the command is given ``standIn``, a second name of the very same files, made in a private
/// folder of ours beside the library (hard links: a write through them is a write to the user's
/// files, and removing them removes only our names).
///
/// Only a command that writes the library reaches it this way (one that reads it reads a copy).
/// The store and its `-wal` are linked. The write holds the store's lock from open to close and
/// makes no `-shm` (``DittoStore/DittoStoreDestination/locksExclusively``), and a store without a
/// `-wal` gets one first, under the user's name (empty; SQLite appends to it),
/// so that every committed frame is beside the user's store before anything is checkpointed into
/// it, whatever stops the run. Only a store in WAL mode is taken (a rollback journal made under our
/// name would be left behind, hot). When the run is over, a `-wal` this run made is removed only
/// while it is the one it made, and either empty or checkpointed and deleted by SQLite under our
/// name.
final class RawLinkedLibrary {
  /// What the command is given as the library's path.
  let standIn: String
  /// The private folder of links, beside the library.
  private let links: PrivateDirectory
  /// The library's path, through this run's link to its folder.
  private let library: [UInt8]
  /// The `-wal` this run made under the user's name, by identity; nil when it made none.
  private var madeWAL: FileIdentity?

  /// Links the library named `bytes` (relative to the current folder unless absolute), as the
  /// `number`th argument staged in the private folder `folder`.
  ///
  /// - Throws: a sentence saying why the library cannot be reached this way (nothing was made).
  init(_ bytes: [UInt8], number: Int, in folder: String, currentFolder: [UInt8])
    throws(RawLibraryRefusal)
  {
    let placed: RawFolderName
    do {
      placed = try RawFolderName(bytes, number: number, in: folder, currentFolder: currentFolder)
    } catch {
      throw RawLibraryRefusal("\(error)")
    }
    library = placed.path
    var info = stat()
    guard lstat(UserPath.cPath(library), &info) == 0 else {
      throw RawLibraryRefusal("no such file (\(String(cString: strerror(errno))))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RawLibraryRefusal("not a regular file")
    }
    let mode = info.st_mode
    guard Self.isWALStore(library) else {
      throw RawLibraryRefusal("not a store in WAL mode, as the app's library always is")
    }
    do {
      links = try PrivateDirectory(
        prefix: NewFile.scratchPrefix, in: placed.parentLink, resolvingLinks: false)
    } catch {
      throw RawLibraryRefusal("cannot create a folder beside it: \(error)")
    }
    standIn = links.path + "/" + PrintablePath.escape(placed.name)
    do throws(RawLibraryRefusal) {
      try Self.addName(standIn, to: library)
      let wal = library + Array("-wal".utf8)
      if lstat(UserPath.cPath(wal), &info) != 0 {
        madeWAL = try Self.makeEmptyFile(wal, mode: mode)
      }
      if lstat(UserPath.cPath(wal), &info) == 0 { try Self.addName(standIn + "-wal", to: wal) }
    } catch {
      finish()
      throw error
    }
  }

  /// Removes our names (the private folder), and a `-wal` this run made when nothing needs it:
  /// still the file it made (``SafeFiles/CreatedFile/removeFile(atBytes:identity:)``), and
  /// empty, or deleted by SQLite under our name after its checkpoint.
  func finish() {
    if let madeWAL, Self.isNotNeeded(walNamed: standIn + "-wal") {
      CreatedFile.removeFile(atBytes: library + Array("-wal".utf8), identity: madeWAL)
    }
    madeWAL = nil
    links.remove()
  }

  /// True when our name of the `-wal` is gone (SQLite deletes it only after a checkpoint that
  /// put every frame in the store) or names an empty file; false when that cannot be told.
  private static func isNotNeeded(walNamed ourName: String) -> Bool {
    do {
      guard let status = try FileStatus.of(path: ourName) else { return true }
      return status.size == 0
    } catch {
      return false
    }
  }

  /// True when the file's header says WAL mode (bytes 18 and 19 are 2).
  private static func isWALStore(_ path: [UInt8]) -> Bool {
    let descriptor = open(UserPath.cPath(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 20)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 20, 0) }
    return count == 20 && header[18] == 2 && header[19] == 2
  }

  /// Gives the file `target` the second name `name` (a hard link).
  private static func addName(_ name: String, to target: [UInt8]) throws(RawLibraryRefusal) {
    guard link(UserPath.cPath(target), name) == 0 else {
      throw RawLibraryRefusal(
        "cannot be given a second name on this file system (\(String(cString: strerror(errno))))")
    }
  }

  /// Creates `path`, which must not exist, empty, with the store's permission bits; returns what
  /// it made.
  private static func makeEmptyFile(_ path: [UInt8], mode: mode_t) throws(RawLibraryRefusal)
    -> FileIdentity
  {
    let descriptor = open(
      UserPath.cPath(path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0o666)
    guard descriptor >= 0 else {
      throw RawLibraryRefusal("cannot make its -wal (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    do {
      return try FileStatus.of(descriptor: descriptor, path: PrintablePath.escape(path)).identity
    } catch {
      // Made but not known: left where it is (never removed), and nothing is written.
      throw RawLibraryRefusal("cannot examine the -wal it made (\(error))")
    }
  }

}

/// Why a library named with bytes that are not valid UTF-8 cannot be reached (``RawLinkedLibrary``).
struct RawLibraryRefusal: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
