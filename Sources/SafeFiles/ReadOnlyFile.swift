import SystemShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be opened for reading as a regular file.
package enum SafeFileError: Error, Equatable, Sendable, NamingFiles {
  /// A system call failed (not found, permission denied, I/O error).
  case access(FileAccessError)
  /// The path names a FIFO, socket, device, directory or symbolic link. It was not read.
  case notARegularFile(path: String, kind: FileKind)

  package func described(naming shown: (String) -> String) -> String {
    switch self {
    case .access(let error): error.described(naming: shown)
    case .notARegularFile(let path, let kind):
      "\(shown(path)) is a \(kind.humanName), not a regular file"
    }
  }

  /// Why, without the file's name (for a message that names the file itself).
  package var reason: String {
    switch self {
    case .access(let error): error.failure
    case .notARegularFile(_, let kind): "is a \(kind.humanName), not a regular file"
    }
  }
}

/// A regular file opened read-only, without following links and without blocking.
///
/// `open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK)`, then `fstat` on the descriptor: the kind is checked on the
/// object actually opened, so a FIFO swapped in after a check never blocks us, and a link is never followed.
/// The descriptor is closed when the value is released.
package final class ReadOnlyFile {
  /// The path as given.
  package let path: String
  /// The size when opened.
  package let size: Int64
  private let descriptor: Int32

  /// Opens `path`.
  ///
  /// - Throws: ``SafeFileError``.
  package init(path: String) throws(SafeFileError) {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ELOOP || code == EMLINK {
        throw .notARegularFile(path: path, kind: .symbolicLink)
      }
      throw .access(FileAccessError(path: path, operation: "open", code: code))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .access(FileAccessError(path: path, operation: "fstat", code: code))
    }
    let kind = FileKind(mode: UInt32(info.st_mode))
    guard kind == .regular else {
      close(fd)
      throw .notARegularFile(path: path, kind: kind)
    }
    self.path = path
    self.descriptor = fd
    self.size = Int64(info.st_size)
  }

  deinit {
    close(descriptor)
  }

  /// The opened file's status now (`fstat` on the descriptor: size and times as they are, the
  /// identity of the object read, whatever its path names meanwhile).
  ///
  /// - Throws: ``FileAccessError`` when `fstat` fails.
  package func status() throws(FileAccessError) -> FileStatus {
    try FileStatus.of(descriptor: descriptor, path: path)
  }

  /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
  ///
  /// - Throws: ``FileAccessError`` on an I/O error.
  package func read(count: Int, at offset: Int64) throws(FileAccessError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = buffer.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw FileAccessError(path: path, operation: "read", code: errno)
      }
      if got == 0 { break }
      filled += got
    }
    buffer.removeSubrange(filled...)
    return buffer
  }

  /// Copies the whole file to a new file at `destination` (created exclusively, mode 0600),
  /// in fixed-size chunks: memory stays flat whatever the size.
  ///
  /// Holes are kept: only the data regions (`SEEK_DATA`/`SEEK_HOLE`) are read and written, so a 2 GiB
  /// sparse file costs what its data costs. Where the file system cannot tell, every byte is copied.
  ///
  /// - Returns: the number of bytes copied (the file's size).
  /// - Throws: ``FileAccessError`` naming whichever side failed.
  @discardableResult
  package func copy(to destination: String, chunkSize: Int = 1 << 20) throws(FileAccessError)
    -> Int64
  {
    // A new file only (O_EXCL): a copy never overwrites anything, and on failure it removes only
    // its own partial output (CreatedFile checks the path still names that file).
    let created = try CreatedFile(path: destination)
    let output = created.descriptor
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    do throws(FileAccessError) {
      var end: Int64 = 0
      for (start, length) in try dataRegions() {
        try copyRange(
          start: start, length: length, to: output, buffer: buffer, chunkSize: chunkSize,
          destination: destination)
        end = max(end, start + length)
      }
      if end < size {
        // A trailing hole: extend our own new copy to the original's length.
        guard ftruncate(output, off_t(size)) == 0 else {
          throw FileAccessError(path: destination, operation: "extend", code: errno)
        }
      }
    } catch {
      created.discard()
      throw error
    }
    created.close()
    return size
  }

  /// The (offset, length) ranges holding data, in order; the whole file when holes cannot be found.
  /// A sparse file's holes read as zeros without being stored: callers skip them instead of reading.
  package func dataRegions() throws(FileAccessError) -> [(Int64, Int64)] {
    var regions: [(Int64, Int64)] = []
    var offset: Int64 = 0
    while offset < size {
      let data = lseek(descriptor, off_t(offset), seekData)
      if data < 0 {
        if errno == ENXIO { break }  // no data after offset: the rest is a hole
        return [(0, size)]  // SEEK_DATA unsupported here: copy everything
      }
      var hole = lseek(descriptor, data, seekHole)
      if hole < 0 { hole = off_t(size) }
      let end = min(Int64(hole), size)
      if end > Int64(data) { regions.append((Int64(data), end - Int64(data))) }
      offset = end
    }
    return regions
  }

  private func copyRange(
    start: Int64, length: Int64, to output: Int32, buffer: UnsafeMutableRawPointer, chunkSize: Int,
    destination: String
  ) throws(FileAccessError) {
    var offset = start
    let end = start + length
    // In the kernel first (no copy through user space; a clone on file systems that share extents).
    var source = offset
    var target = offset
    while source < end {
      let copied = ditto_copy_file_range(
        descriptor, &source, output, &target, Int(min(end - source, 1 << 30)))
      if copied > 0 { continue }
      if copied < 0 && errno == EINTR { continue }
      // 0 (the file shrank, or a file system that reports 0 for what it cannot copy) or an error
      // (not supported here, another file system, an old kernel): the loop below copies the rest
      // itself and reports a real read error.
      break
    }
    offset = source
    while offset < end {
      let want = Int(min(Int64(chunkSize), end - offset))
      let got = pread(descriptor, buffer, want, off_t(offset))
      if got < 0 {
        if errno == EINTR { continue }
        throw FileAccessError(path: path, operation: "read", code: errno)
      }
      if got == 0 { return }  // the file shrank while we copied: keep what was there
      var written = 0
      while written < got {
        let put = pwrite(output, buffer + written, got - written, off_t(offset) + off_t(written))
        if put < 0 {
          if errno == EINTR { continue }
          throw FileAccessError(path: destination, operation: "write", code: errno)
        }
        written += put
      }
      offset += Int64(got)
    }
  }
}

// lseek(2) whence values for sparse files; Glibc's module hides them behind _GNU_SOURCE.
#if os(Linux)
  private let seekData: Int32 = 3
  private let seekHole: Int32 = 4
#else
  private let seekData: Int32 = SEEK_DATA
  private let seekHole: Int32 = SEEK_HOLE
#endif
