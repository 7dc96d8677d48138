#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One object found under a walked directory.
package struct DirectoryEntry: Sendable, Equatable {
  /// Path below the root as raw bytes, components joined by `/`, no leading slash.
  /// Raw because names may be invalid UTF-8; use ``displayPath`` to print.
  package let relativePath: [UInt8]
  /// `lstat` of the object (links are reported as links).
  package let status: FileStatus

  /// `/`-prefixed printable path: control characters and invalid UTF-8 escaped (`\n`, `\xFF`),
  /// so one entry is always one line.
  package var displayPath: String { "/" + PrintablePath.escape(relativePath) }
}

/// A directory that could not be read during a walk.
package struct DirectoryWalkProblem: Sendable, Equatable {
  package let relativePath: [UInt8]
  package let error: FileAccessError

  /// The problem of `operation` failing with `code` at `path` (relative, raw).
  static func at(_ path: [UInt8], _ operation: String, _ code: Int32) -> DirectoryWalkProblem {
    DirectoryWalkProblem(
      relativePath: path,
      error: FileAccessError(path: PrintablePath.escape(path), operation: operation, code: code))
  }
  package var displayPath: String { "/" + PrintablePath.escape(relativePath) }
}

/// What a walk saw in total.
package struct DirectoryWalkSummary: Sendable, Equatable {
  /// Non-directory entries handed to the visitor.
  package var reported = 0
  /// Non-directory entries seen but not handed over because the limit was reached.
  package var leftOut = 0
  /// True when the walk stopped early at its hard limit, so `leftOut` is a lower bound.
  package var stoppedEarly = false
  /// Directories that could not be opened or read.
  package var problems: [DirectoryWalkProblem] = []
  /// Directories listed, the root included.
  package var directoriesListed = 0
}

/// Walks a directory tree without following symbolic links, in name order, with bounds.
///
/// Subdirectories are opened with `openat(O_DIRECTORY | O_NOFOLLOW)` relative to their parent, so a link
/// can never lead the walk out of the root, and a link loop cannot trap it.
package struct DirectoryWalker: Sendable {
  /// Entries reported at most; later ones are only counted.
  package var reportLimit: Int
  /// Entries examined at most (reported or counted) before the walk stops.
  package var examineLimit: Int
  /// Directory levels descended at most.
  package var depthLimit: Int
  /// When true, a directory on another file system than the root's (a mounted disk, `/proc`) is
  /// not entered: it is reported as a problem (`cross into`, `EXDEV`).
  package var staysOnFileSystem = false

  package init(reportLimit: Int = 10_000, examineLimit: Int = 1_000_000, depthLimit: Int = 64) {
    self.reportLimit = reportLimit
    self.examineLimit = examineLimit
    self.depthLimit = depthLimit
  }

  /// Walks `root`, calling `visit` for each non-directory entry up to the report limit.
  ///
  /// - Parameter followingRootLink: when `root` itself is a symbolic link (a folder a person named
  ///   through a link), walks its target; links below it are never followed either way.
  /// - Throws: ``FileAccessError`` only when `root` itself cannot be opened; problems below it are collected.
  package func walk(
    root: String, followingRootLink: Bool = false, visit: (DirectoryEntry) -> Void
  ) throws(FileAccessError) -> DirectoryWalkSummary {
    let fd = open(
      root, O_RDONLY | O_DIRECTORY | (followingRootLink ? 0 : O_NOFOLLOW) | O_CLOEXEC)
    guard fd >= 0 else { throw FileAccessError(path: root, operation: "open", code: errno) }
    var summary = DirectoryWalkSummary()
    var examined = 0
    var rootInfo = stat()
    let rootDevice: UInt64? =
      staysOnFileSystem && fstat(fd, &rootInfo) == 0 ? FileStatus(rootInfo).identity.device : nil
    walkDirectory(
      fd: fd, prefix: [], depth: 0, rootDevice: rootDevice, summary: &summary,
      examined: &examined, visit: visit)
    return summary
  }

  /// Walks the directory open at `fd` (which this call closes).
  private func walkDirectory(
    fd: Int32, prefix: [UInt8], depth: Int, rootDevice: UInt64?,
    summary: inout DirectoryWalkSummary, examined: inout Int, visit: (DirectoryEntry) -> Void
  ) {
    let (list, code) = Self.readNames(fd: fd)
    guard let names = list else {
      summary.problems.append(
        DirectoryWalkProblem(
          relativePath: prefix,
          error: FileAccessError(path: PrintablePath.escape(prefix), operation: "read", code: code))
      )
      close(fd)
      return
    }
    defer { close(fd) }
    summary.directoriesListed += 1
    for name in names {
      if examined >= examineLimit {
        summary.stoppedEarly = true
        return
      }
      examined += 1
      let path = prefix.isEmpty ? name : prefix + [UInt8(ascii: "/")] + name
      // System calls need the name NUL-terminated.
      let cName = name + [0]
      var info = stat()
      let statResult = cName.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
          fstatat(fd, chars.baseAddress!, &info, AT_SYMLINK_NOFOLLOW)
        }
      }
      guard statResult == 0 else {
        summary.problems.append(.at(path, "lstat", errno))
        continue
      }
      let status = FileStatus(info)
      if status.kind == .directory {
        if let rootDevice, status.identity.device != rootDevice {
          summary.problems.append(.at(path, "cross into", EXDEV))
          continue
        }
        guard depth + 1 < depthLimit else {
          summary.problems.append(.at(path, "descend into", ELOOP))
          continue
        }
        let child = cName.withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) { chars in
            openat(fd, chars.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
          }
        }
        guard child >= 0 else {
          summary.problems.append(.at(path, "open", errno))
          continue
        }
        walkDirectory(
          fd: child, prefix: path, depth: depth + 1, rootDevice: rootDevice, summary: &summary,
          examined: &examined, visit: visit)
        if summary.stoppedEarly { return }
      } else if summary.reported < reportLimit {
        summary.reported += 1
        visit(DirectoryEntry(relativePath: path, status: status))
      } else {
        summary.leftOut += 1
      }
    }
  }

  /// The names in the directory at `path` (a link is never followed, but `path` itself when
  /// `followingLink`: a folder a person named through a link), sorted bytewise, without `.` and
  /// `..`, as raw bytes.
  ///
  /// - Throws: ``FileAccessError`` when the directory cannot be opened or read.
  package static func names(in path: String, followingLink: Bool = false) throws(FileAccessError)
    -> [[UInt8]]
  {
    let fd = open(path, O_RDONLY | O_DIRECTORY | (followingLink ? 0 : O_NOFOLLOW) | O_CLOEXEC)
    guard fd >= 0 else { throw FileAccessError(path: path, operation: "open", code: errno) }
    defer { close(fd) }
    let (names, code) = readNames(fd: fd)
    guard let names else { throw FileAccessError(path: path, operation: "read", code: code) }
    return names
  }

  /// Reads the names in the directory open at `fd`, sorted bytewise, without `.` and `..`.
  /// The descriptor stays open.
  private static func readNames(fd: Int32) -> (names: [[UInt8]]?, errorCode: Int32) {
    // fdopendir takes ownership of the descriptor it is given, so give it a duplicate.
    let copy = dup(fd)
    guard copy >= 0, let dir = fdopendir(copy) else {
      return (nil, errno)
    }
    defer { closedir(dir) }
    var names: [[UInt8]] = []
    while true {
      errno = 0
      guard let entry = readdir(dir) else {
        if errno != 0 { return (nil, errno) }
        break
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
        let bytes = raw.bindMemory(to: UInt8.self)
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        return Array(bytes[..<length])
      }
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] {
        continue
      }
      names.append(name)
    }
    names.sort { $0.lexicographicallyPrecedes($1) }
    return (names, 0)
  }
}
