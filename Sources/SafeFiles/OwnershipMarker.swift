#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file that proves a private folder is ours (see "WHAT THIS PROJECT EVER DELETES" in
/// OwnFiles.swift): `<folder>/.ditto-recover-owner`, mode 0600, made with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` right after the folder, holding
///
///     ditto-recover private folder
///     uid <owner's uid>
///     folder <device>:<inode>
///     token <32 random hex digits>
///
/// A folder of the user's that merely has one of our names, or a copy of one of ours (another
/// inode), is never taken for ours.
enum OwnershipMarker {
  /// The marker's name inside the folder.
  static let name = ".ditto-recover-owner"
  private static let firstLine = "ditto-recover private folder"

  /// Writes the marker in the folder at `path` whose identity is `identity`. A failure leaves the
  /// folder without proof: it is then never removed as a leftover (only by its own run).
  static func write(in path: String, identity: FileIdentity) {
    let descriptor = open(
      path + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    defer { _ = close(descriptor) }
    var generator = SystemRandomNumberGenerator()
    let token = (0..<16).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return String(byte, radix: 16).count == 1
        ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
    let text =
      "\(firstLine)\nuid \(getuid())\nfolder \(identity.device):\(identity.inode)\ntoken \(token)\n"
    writeBytes(descriptor, Array(text.utf8))
  }

  /// Removes the marker from our own folder at `path` (a finished output keeps only what the run
  /// made for the user): only a regular file of this user by that name is unlinked.
  static func remove(from path: String) {
    let marker = path + "/" + name
    var info = stat()
    guard lstat(marker, &info) == 0, FileKind(mode: UInt32(info.st_mode)) == .regular,
      info.st_uid == getuid()
    else { return }
    _ = unlink(marker)
  }

  /// True when the open folder `folder` (with `identity`) holds a marker that proves it ours: a
  /// regular file (never a link) of this user, naming this user and this very folder.
  static func proves(folder: Int32, identity: FileIdentity) -> Bool {
    let marker = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard marker >= 0 else { return false }
    defer { _ = close(marker) }
    var info = stat()
    guard fstat(marker, &info) == 0, FileKind(mode: UInt32(info.st_mode)) == .regular,
      info.st_uid == getuid(), info.st_size > 0, info.st_size < 512
    else { return false }
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = buffer.withUnsafeMutableBytes { read(marker, $0.baseAddress, 511) }
    guard count > 0 else { return false }
    let lines = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n")
    guard lines.count >= 4, lines[0] == firstLine,
      lines[1] == "uid \(getuid())",
      lines[2] == "folder \(identity.device):\(identity.inode)",
      lines[3].hasPrefix("token "), lines[3].count == "token ".count + 32
    else { return false }
    return true
  }

  /// True when nothing in the open folder `folder` (to any depth) belongs to another user: a
  /// folder holding someone else's file is reported by being left, never emptied.
  static func holdsOnlyOurs(folder: Int32) -> Bool {
    let copy = dup(folder)
    guard copy >= 0 else { return false }
    return holdsOnlyOurs(open: copy, depth: 0)
  }

  private static func holdsOnlyOurs(open folder: Int32, depth: Int) -> Bool {
    guard depth < 64, let stream = fdopendir(folder) else {
      _ = close(folder)
      return false
    }
    defer { closedir(stream) }
    let uid = getuid()
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0]
      }
      if name == [46, 0] || name == [46, 46, 0] { continue }
      var info = stat()
      guard fstatat(dirfd(stream), name, &info, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else { continue }
      guard info.st_uid == uid else { return false }
      if FileKind(mode: UInt32(info.st_mode)) == .directory {
        let child = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0, holdsOnlyOurs(open: child, depth: depth + 1) else { return false }
      }
    }
    return true
  }
}

/// Which places and prefixes this run has already looked at for leftovers (once each).
enum LeftoverSweep {
  private final class State: @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var swept: Set<String> = []

    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
  }

  private static let state = State()

  /// True the first time `base` and `prefix` are asked for in this process.
  static func shouldSweep(base: String, prefix: String) -> Bool {
    pthread_mutex_lock(state.mutex)
    defer { pthread_mutex_unlock(state.mutex) }
    return state.swept.insert(base + "\u{0}" + prefix).inserted
  }
}

/// `write(2)` of `bytes` (a short marker: one call), callable where a method named `write` hides it.
private func writeBytes(_ descriptor: Int32, _ bytes: [UInt8]) {
  _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
