#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What kind of file system object a path names, read with `lstat` (links are not followed).
package enum FileKind: String, Sendable, Equatable {
  case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

  /// The kind of an `st_mode` value.
  package init(mode: UInt32) {
    switch mode & UInt32(S_IFMT) {
    case UInt32(S_IFREG): self = .regular
    case UInt32(S_IFDIR): self = .directory
    case UInt32(S_IFLNK): self = .symbolicLink
    case UInt32(S_IFIFO): self = .fifo
    case UInt32(S_IFSOCK): self = .socket
    case UInt32(S_IFCHR): self = .characterDevice
    case UInt32(S_IFBLK): self = .blockDevice
    default: self = .unknown
    }
  }

  /// A short human name: "regular file", "FIFO", "symbolic link", …
  package var humanName: String {
    switch self {
    case .regular: "regular file"
    case .directory: "directory"
    case .symbolicLink: "symbolic link"
    case .fifo: "FIFO"
    case .socket: "socket"
    case .characterDevice: "character device"
    case .blockDevice: "block device"
    case .unknown: "special file"
    }
  }
}

/// The result of `lstat` on one path.
package struct FileStatus: Sendable, Equatable {
  /// The object's kind; a symbolic link is reported as a link, never as its target.
  package let kind: FileKind
  /// Size in bytes as the file system reports it (a sparse file's logical size).
  package let size: Int64
  /// Last modification time, seconds since 1970.
  package let modificationTime: Double
  /// Last status change time (any write, rename or permission change), seconds since 1970.
  package let changeTime: Double
  /// Device and inode: two paths with the same identity are the same file (case-insensitive volumes).
  package let identity: FileIdentity

  init(_ info: stat) {
    kind = FileKind(mode: UInt32(info.st_mode))
    size = Int64(info.st_size)
    // By bit pattern: Darwin's dev_t is a signed Int32, negative on some network and FUSE volumes
    // (a plain UInt64(_:) would trap there); Linux's is unsigned.
    identity = FileIdentity(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
    #if canImport(Darwin)
      modificationTime =
        Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
      changeTime = Double(info.st_ctimespec.tv_sec) + Double(info.st_ctimespec.tv_nsec) / 1e9
    #else
      modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
      changeTime = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    #endif
  }

  /// `lstat(path)`: nil when nothing exists at `path`.
  ///
  /// - Throws: ``FileAccessError`` for any failure other than "not found" (permissions, I/O).
  package static func of(path: String) throws(FileAccessError) -> FileStatus? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw FileAccessError(path: path, operation: "lstat", code: code)
    }
    return FileStatus(info)
  }

  /// `fstat(descriptor)`: the file an open descriptor names; `path` names it in the error.
  ///
  /// - Throws: ``FileAccessError`` (`fstat`).
  package static func of(descriptor: Int32, path: String) throws(FileAccessError) -> FileStatus {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw FileAccessError(path: path, operation: "fstat", code: errno)
    }
    return FileStatus(info)
  }

  /// `stat(path)`: like ``of(path:)`` but a symbolic link is followed (for folders a user names on the
  /// command line, which may be links to another disk). Nil when nothing exists at `path`.
  ///
  /// - Throws: ``FileAccessError`` for any failure other than "not found".
  package static func following(path: String) throws(FileAccessError) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw FileAccessError(path: path, operation: "stat", code: code)
    }
    return FileStatus(info)
  }
}

/// A file's device and inode numbers.
package struct FileIdentity: Sendable, Hashable {
  package let device: UInt64
  package let inode: UInt64
}
