import SystemShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// WHAT THIS PROJECT EVER DELETES
//
// Legacy files are never deleted, renamed, truncated or written. The only things removed are files
// and folders this process created itself, and each removal proves it first:
//
//   OBJECT                 MADE WITH                         REMOVED ONLY WHEN
//   PrivateDirectory       mkdtemp (0700) under TMPDIR,       its path still names the same folder
//                          its path resolved with realpath    (device and inode); its contents are
//                                                             removed with *at() calls on descriptors,
//                                                             never following a link
//   CreatedFile            open(O_CREAT | O_EXCL | O_NOFOLLOW) its path still names the same file
//                          or mkstemp
//
// So a link planted inside a private folder is removed as a link (its target is untouched), and a
// path that was swapped for another file after we created ours is left alone.
//
// Both are recorded while they live by the process's CreationRecorder when one is installed
// (ditto-recover installs RunCleanup, a CLI-only target; the app installs none), so that an
// interrupted run (SIGINT, SIGTERM, SIGHUP) removes them before it exits; a private folder also holds a lock (flock) while it lives,
// so that what a run stopped by SIGKILL left is recognised by the next run and removed
// (PrivateDirectory.removeLeftovers).
//
// A folder is ours by proof, never by its name or age: right after mkdtemp, before anything else is
// written in it, it gets a marker file (OwnershipMarker: O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600)
// holding the owner's uid, the folder's device and inode, and a random token. A later run removes a
// leftover only when the folder is owned by the same user, the marker is a regular file of that
// user and names this very folder (a copy of the folder, or a folder of the user's that merely
// looks like ours, has no such marker), nothing in it belongs to another user, and its lock can be
// taken. Anything else is left alone. Leftovers are looked for only where this run makes a private
// folder, with that folder's prefix: a command that makes none cleans nothing.

/// The system temporary directory: `TMPDIR` (without a trailing slash), else `/tmp`.
package func systemTemporaryDirectory() -> String {
  if let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty {
    var trimmed = value
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }
  return "/tmp"
}

/// A folder this process made with `mkdtemp` (mode 0700): snapshots, decrypted copies, scratch space.
/// Removed by ``remove()``, when released, or when the run is interrupted (the installed
/// ``CreationRecorder``, if any); see the
/// table above for what removal checks.
///
/// The folder holds a lock (`flock`) while it exists, so that a run stopped where no handler runs
/// (SIGKILL, a crash, a power loss) leaves a folder another run can recognise as abandoned:
/// ``removeLeftovers(in:prefixes:olderThan:)`` removes only folders whose lock it can take.
package final class PrivateDirectory {
  /// The folder's path.
  package let path: String
  /// True when ``path`` has every link resolved (false when asked not to, or when the real path
  /// is not valid UTF-8 and the path as made is kept).
  package let hasResolvedPath: Bool
  private let identity: FileIdentity
  private var lockDescriptor: Int32
  private var cleanupID: Int?
  private var isRemoved = false

  /// Makes `<base>/<prefix>XXXXXX`.
  ///
  /// The folder's ``path`` has every symbolic link resolved (`realpath`, once, before anything is
  /// opened in it): on a Mac `TMPDIR` is `/var/folders/…`, and `/var` and `/tmp` are links to
  /// `/private/…`, which an open that refuses links anywhere in the path (SQLite's
  /// `SQLITE_OPEN_NOFOLLOW`) would reject.
  ///
  /// - Parameters:
  ///   - base: the parent folder; the system temporary directory by default.
  ///   - resolvingLinks: false keeps the path as made under `base` (test folders that must be
  ///     reached through a link, as a user's would be).
  /// - Throws: ``FileAccessError`` naming the template when `mkdtemp` fails.
  ///   - marked: false leaves out the ownership marker (test folders whose contents tests list;
  ///     such a folder is never removed as a leftover).
  package init(
    prefix: String, in base: String = systemTemporaryDirectory(), resolvingLinks: Bool = true,
    marked: Bool = true
  ) throws(FileAccessError) {
    // What runs stopped by SIGKILL left here with this prefix, once per place and prefix a run
    // makes a folder in (never for a command that makes none).
    if LeftoverSweep.shouldSweep(base: base, prefix: prefix) {
      Self.removeLeftovers(in: base, prefixes: [prefix])
    }
    let (made, id) = try CreationRecording.record {
      () throws(FileAccessError) -> (MadeFolder, CreatedEntry?) in
      let made = try Self.makeUnique(prefix: prefix, in: base, resolvingLinks: resolvingLinks)
      return (made, CreatedEntry(kind: .folder, path: made.path, identity: made.identity))
    }
    path = made.path
    hasResolvedPath = made.hasResolvedPath
    identity = made.identity
    cleanupID = id
    // The proof that the folder is ours, before anything else is written in it.
    if marked { OwnershipMarker.write(in: made.path, identity: made.identity) }
    // The lock marks the folder as in use for as long as this object lives.
    lockDescriptor = open(made.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX | LOCK_NB) != 0 {
      closeDescriptor(lockDescriptor)
      lockDescriptor = -1
    }
  }

  /// A folder made by `mkdtemp`.
  struct MadeFolder {
    let path: String
    let hasResolvedPath: Bool
    let identity: FileIdentity
  }

  /// `mkdtemp` of `<base>/<prefix>XXXXXX`, the path resolved when asked.
  static func makeUnique(prefix: String, in base: String, resolvingLinks: Bool)
    throws(FileAccessError) -> MadeFolder
  {
    var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw FileAccessError(path: base + "/" + prefix + "XXXXXX", operation: "mkdtemp", code: errno)
    }
    var made = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var hasResolvedPath = false
    if resolvingLinks {
      guard let real = realpath(made, nil) else {
        throw FileAccessError(path: made, operation: "realpath", code: errno)
      }
      let bytes = UnsafeBufferPointer(start: real, count: strlen(real)).map {
        UInt8(bitPattern: $0)
      }
      free(real)
      // A real path that is not valid UTF-8 cannot be a String: keep the path as made.
      if let text = UserPath.validUTF8(bytes) {
        made = text
        hasResolvedPath = true
      }
    }
    guard let status = try FileStatus.of(path: made), status.kind == .directory else {
      throw FileAccessError(path: made, operation: "lstat", code: ENOTDIR)
    }
    return MadeFolder(path: made, hasResolvedPath: hasResolvedPath, identity: status.identity)
  }

  deinit {
    remove()
  }

  /// Removes the folder and everything in it, unless its path no longer names the folder we made.
  /// Safe to call more than once. Returns true when the folder is gone.
  @discardableResult
  package func remove() -> Bool {
    guard !isRemoved else { return true }
    isRemoved = true
    let removed = Self.removeFolder(at: path, identity: identity, keepingFolder: false)
    CreationRecording.forget(cleanupID)
    cleanupID = nil
    if lockDescriptor >= 0 {
      closeDescriptor(lockDescriptor)
      lockDescriptor = -1
    }
    return removed
  }

  /// The folder is a finished output and stays where it is: its marker is removed (what stays
  /// holds only what the run made for the user), its lock released, and neither an interruption
  /// nor the release of this object removes it any more.
  package func keepInPlace() {
    guard !isRemoved else { return }
    OwnershipMarker.remove(from: path)
    settle()
  }

  /// Gives the finished folder the name `final`, whole: when nothing has that name, by one
  /// rename that never replaces anything; when `final` is an empty folder, by moving each entry
  /// into it (each rename never replacing anything), then removing this one. The marker goes
  /// first. Until this returns, nothing of the run's is under `final`'s name but what was
  /// moved; afterwards the folder is no longer this object's (not removed when it is released).
  ///
  /// - Throws: ``FileAccessError`` (`rename`) when `final` exists and is not an empty folder, or a
  ///   rename fails; the folder is then still this object's, whole.
  package func publish(as final: String) throws(FileAccessError) {
    guard !isRemoved else { throw FileAccessError(path: path, operation: "rename", code: ENOENT) }
    OwnershipMarker.remove(from: path)
    func restoreMarker() { OwnershipMarker.write(in: path, identity: identity) }
    if Self.renameNoReplace(path, final) == 0 {
      settle()
      return
    }
    let code = errno
    // Only into an empty folder: anything else at that name is the user's, left as it is.
    let ours: [[UInt8]]
    do throws(FileAccessError) {
      guard code == EEXIST || code == ENOTEMPTY,
        try FileStatus.following(path: final)?.kind == .directory,
        try DirectoryWalker.names(in: final).isEmpty
      else {
        throw FileAccessError(
          path: final, operation: "rename", code: code == EEXIST ? ENOTEMPTY : code)
      }
      ours = try DirectoryWalker.names(in: path)
    } catch {
      restoreMarker()
      throw error
    }
    for name in ours {
      let entry = String(decoding: name, as: UTF8.self)
      guard Self.renameNoReplace(path + "/" + entry, final + "/" + entry) == 0 else {
        let failure = errno
        restoreMarker()
        throw FileAccessError(path: final + "/" + entry, operation: "rename", code: failure)
      }
    }
    _ = rmdir(path)
    settle()
  }

  /// ``publish(as:)`` to a path given as bytes (a name that is not valid UTF-8): by one rename
  /// that never replaces anything. Anything already under that name, an empty folder too, is left
  /// as it is.
  ///
  /// - Throws: ``FileAccessError`` (`rename`) when the rename fails; the folder is then still this
  ///   object's, whole.
  package func publish(asBytes final: [UInt8]) throws(FileAccessError) {
    guard !isRemoved else { throw FileAccessError(path: path, operation: "rename", code: ENOENT) }
    OwnershipMarker.remove(from: path)
    if Self.renameNoReplace(path, bytes: final) == 0 {
      settle()
      return
    }
    let code = errno
    OwnershipMarker.write(in: path, identity: identity)
    throw FileAccessError(
      path: PrintablePath.escape(final), operation: "rename",
      code: code == ENOTEMPTY ? EEXIST : code)
  }

  /// `rename(2)` that never replaces: the system's no-replace rename, or, where the file system
  /// cannot do it, a rename only while nothing has the name (checked right before).
  static func renameNoReplace(_ from: String, _ to: String) -> Int32 {
    renameNoReplace(from, bytes: Array(to.utf8))
  }

  /// ``renameNoReplace(_:_:)`` to a path given as bytes (a name that is not valid UTF-8).
  package static func renameNoReplace(_ from: String, bytes to: [UInt8]) -> Int32 {
    let target = to.map { CChar(bitPattern: $0) } + [0]
    if ditto_rename_noreplace(from, target) == 0 { return 0 }
    guard errno == EINVAL || errno == ENOSYS else { return -1 }
    var info = stat()
    if lstat(target, &info) == 0 {
      errno = EEXIST
      return -1
    }
    return rename(from, target)
  }

  /// No longer this object's to remove: forgotten by the interrupt ledger, its lock released.
  private func settle() {
    isRemoved = true
    CreationRecording.forget(cleanupID)
    cleanupID = nil
    if lockDescriptor >= 0 {
      closeDescriptor(lockDescriptor)
      lockDescriptor = -1
    }
  }

  /// Removes what the folder at `path` holds, and the folder itself unless `keepingFolder`, when
  /// `path` still names the folder with `identity`. Something made in it meanwhile (another thread
  /// still at work while an interrupted run cleans up) is removed on the next pass.
  package static func removeFolder(at path: String, identity: FileIdentity, keepingFolder: Bool)
    -> Bool
  {
    let parentPath = Self.parent(of: path)
    let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
    let parent = open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard parent >= 0 else { return false }
    defer { closeDescriptor(parent) }
    for _ in 0..<16 {
      let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard folder >= 0 else { return errno == ENOENT && !keepingFolder }
      var info = stat()
      guard fstat(folder, &info) == 0, FileStatus(info).identity == identity else {
        closeDescriptor(folder)
        return false
      }
      let emptied = Self.removeContents(of: folder, depth: 0)  // closes `folder`
      if keepingFolder {
        if emptied { return true }
        continue
      }
      if emptied, unlinkat(parent, name, Int32(AT_REMOVEDIR)) == 0 { return true }
    }
    return false
  }

  /// Removes what the open folder `folder` holds, then closes it: files and links are unlinked
  /// (a link is never followed), folders are emptied the same way and removed.
  private static func removeContents(of folder: Int32, depth: Int) -> Bool {
    // Our own folder: make sure we may remove what is inside (a test may have taken that away).
    fchmod(folder, 0o700)
    guard depth < 64, let stream = fdopendir(folder) else {
      closeDescriptor(folder)
      return false
    }
    defer { closedir(stream) }  // also closes `folder`
    // Names as raw bytes: a name that is not valid UTF-8 must reach unlinkat unchanged.
    var names: [[CChar]] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0]
      }
      if name != [46, 0] && name != [46, 46, 0] { names.append(name) }
    }
    var removedAll = true
    for name in names {
      var info = stat()
      guard fstatat(folder, name, &info, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else {
        if errno != ENOENT { removedAll = false }
        continue
      }
      if FileKind(mode: UInt32(info.st_mode)) == .directory {
        let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0, removeContents(of: child, depth: depth + 1),
          unlinkat(folder, name, Int32(AT_REMOVEDIR)) == 0
        else {
          removedAll = false
          continue
        }
      } else if unlinkat(folder, name, 0) != 0, errno != ENOENT {
        removedAll = false
      }
    }
    return removedAll
  }

  /// Removes the folders in `base` that a run of ours left when it was stopped where no handler
  /// runs (SIGKILL, a crash, a power loss): folders (never links) owned by this user, named
  /// `<prefix>XXXXXX` for one of `prefixes`, unchanged for `olderThan` seconds, holding our
  /// ownership marker for that very folder and nothing of another user, whose lock can be
  /// taken. A live run's folder is locked by its owner and never touched; the age rule covers the
  /// instant between `mkdtemp` and the lock. Returns the paths removed.
  @discardableResult
  package static func removeLeftovers(
    in base: String, prefixes: [String], olderThan age: Double = 60
  ) -> [String] {
    guard let names = try? DirectoryWalker.names(in: base) else { return [] }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let cutoff = Double(now.tv_sec) - age
    var removed: [String] = []
    for bytes in names {
      guard let name = UserPath.validUTF8(bytes),
        let prefix = prefixes.first(where: { name.hasPrefix($0) }),
        name.utf8.count == prefix.utf8.count + 6
      else { continue }
      let path = base + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, info.st_uid == getuid() else { continue }
      let status = FileStatus(info)
      guard status.kind == .directory, status.modificationTime < cutoff else { continue }
      let lock = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard lock >= 0 else { continue }
      defer { closeDescriptor(lock) }
      var held = stat()
      guard fstat(lock, &held) == 0, FileStatus(held).identity == status.identity,
        OwnershipMarker.proves(folder: lock, identity: status.identity),
        OwnershipMarker.holdsOnlyOurs(folder: lock),
        flock(lock, LOCK_EX | LOCK_NB) == 0
      else { continue }
      if removeFolder(at: path, identity: status.identity, keepingFolder: false) {
        removed.append(path)
      }
    }
    CreationRecording.noteLeftoversRemoved(removed)
    return removed
  }

  /// The folder part of `path` (`.` when it has none).
  package static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

/// A regular file this process has just created (never one that existed before): the output of a
/// copy, a temporary file to rename into place. ``discard()`` removes it only while its path still
/// names that file.
package final class CreatedFile {
  /// The file's path.
  package let path: String
  /// The open descriptor (write-only); closed by ``close()`` or when released.
  package private(set) var descriptor: Int32
  private let identity: FileIdentity
  private var cleanupID: Int?

  /// Creates `path`, which must not exist (`O_CREAT | O_EXCL | O_NOFOLLOW`).
  ///
  /// - Throws: ``FileAccessError`` (`create`), for instance when something already has that name.
  package convenience init(path: String, mode: mode_t = 0o600) throws(FileAccessError) {
    try self.init { () throws(FileAccessError) in
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
      guard fd >= 0 else { throw FileAccessError(path: path, operation: "create", code: errno) }
      return (path, fd)
    }
  }

  /// Creates a new file named `<folder>/<prefix>XXXXXX` (`mkstemp`, mode 0600).
  ///
  /// - Throws: ``FileAccessError`` (`mkstemp`).
  package convenience init(uniqueIn folder: String, prefix: String) throws(FileAccessError) {
    try self.init { () throws(FileAccessError) in
      var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else {
        throw FileAccessError(
          path: folder + "/" + prefix + "XXXXXX", operation: "mkstemp", code: errno)
      }
      let path = String(
        decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return (path, fd)
    }
  }

  /// Creates the file with `create` (its path and open descriptor) and records it for an
  /// interrupted run, as one step.
  private init(_ create: () throws(FileAccessError) -> (String, Int32)) throws(FileAccessError) {
    let (made, id) = try CreationRecording.record {
      () throws(FileAccessError) -> (Opened, CreatedEntry?) in
      let (path, fd) = try create()
      let opened = try Opened(path: path, descriptor: fd)
      return (opened, CreatedEntry(kind: .file, path: path, identity: opened.identity))
    }
    self.path = made.path
    descriptor = made.descriptor
    identity = made.identity
    cleanupID = id
  }

  /// A descriptor just opened on a new file, and the file's identity.
  private struct Opened {
    let path: String
    let descriptor: Int32
    let identity: FileIdentity

    init(path: String, descriptor: Int32) throws(FileAccessError) {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else {
        let code = errno
        closeDescriptor(descriptor)
        throw FileAccessError(path: path, operation: "fstat", code: code)
      }
      self.path = path
      self.descriptor = descriptor
      identity = FileStatus(info).identity
    }
  }

  deinit {
    close()
    CreationRecording.forget(cleanupID)
  }

  /// The file is complete and stays: an interrupted run no longer removes it.
  package func keep() {
    CreationRecording.forget(cleanupID)
    cleanupID = nil
  }

  /// Closes the descriptor (once); the file stays.
  package func close() {
    guard descriptor >= 0 else { return }
    closeDescriptor(descriptor)
    descriptor = -1
  }

  /// Removes the file, only if `path` still names the file we created. Returns true when removed.
  @discardableResult
  package func discard() -> Bool {
    close()
    CreationRecording.forget(cleanupID)
    cleanupID = nil
    return Self.removeFile(at: path, identity: identity)
  }

  /// Unlinks `path` when it names the regular file with `identity`.
  package static func removeFile(at path: String, identity: FileIdentity) -> Bool {
    removeFile(atBytes: Array(path.utf8), identity: identity)
  }

  /// ``removeFile(at:identity:)`` for a path given as bytes (a name that is not valid UTF-8).
  @discardableResult
  package static func removeFile(atBytes path: [UInt8], identity: FileIdentity) -> Bool {
    let name = UserPath.cPath(path)
    var info = stat()
    // What the path names now, not followed: anything else than the file we made is left alone.
    guard lstat(name, &info) == 0 else { return false }
    let status = FileStatus(info)
    guard status.kind == .regular, status.identity == identity else { return false }
    return unlink(name) == 0
  }
}

/// `close(2)`, callable inside ``CreatedFile`` whose `close()` method hides it.
private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
