#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an output could not be created.
package enum NewFileError: Error, Equatable, Sendable, NamingFiles {
  /// Something already has the output's name: it was left as it was.
  case exists(path: String)
  /// A system call failed (no such folder, no permission, no space).
  case failed(FileAccessError)

  package func described(naming shown: (String) -> String) -> String {
    switch self {
    case .exists(let path): "\(shown(path)) already exists; it is never overwritten"
    case .failed(let error): error.described(naming: shown)
    }
  }
}

/// The one way an output file comes to be: created new, complete, or not at all. Nothing that
/// already has the output's name is ever replaced, truncated or written, whatever else happens.
///
/// A finished file of ours takes its final name with `link(2)`, which fails when anything has that
/// name (a file, a link, a folder, a FIFO); where hard links are not possible (some shared or FAT
/// drives) it is copied into a file created with `O_EXCL | O_NOFOLLOW`. A partial output is never
/// visible under the final name.
package enum NewFile {
  /// The name of the private folder a new file is written in, beside its final name.
  package static let scratchPrefix = ".ditto-new-"

  /// Gives the complete file `scratch` (our own, already synced) the name `path`; `scratch` stays
  /// where it is (the caller removes it).
  package static func publish(_ scratch: String, as path: String) throws(NewFileError) {
    if link(scratch, path) == 0 { return }
    let code = errno
    if code == EEXIST { throw .exists(path: path) }
    let source: ReadOnlyFile
    do {
      source = try ReadOnlyFile(path: scratch)
    } catch .access(let error) {
      throw .failed(error)
    } catch {
      throw .failed(FileAccessError(path: scratch, operation: "open", code: EINVAL))
    }
    do {
      try source.copy(to: path)
    } catch {
      if error.code == EEXIST { throw .exists(path: path) }
      throw .failed(error)
    }
  }

  /// Writes `bytes` as the new file `path` (mode `mode`): a temporary file of ours in a private
  /// folder beside it (`.ditto-new-XXXXXX`), written in full and synced to the drive, then
  /// published; the private folder is always removed (by an interrupted run too).
  package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644)
    throws(NewFileError)
  {
    // Refused before anything is made beside it.
    let existing: FileStatus?
    do {
      existing = try FileStatus.of(path: path)
    } catch {
      throw .failed(error)
    }
    if existing != nil { throw .exists(path: path) }
    let folder = PrivateDirectory.parent(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? "output"
    // A private folder of ours beside the output (a hard link needs the same volume), locked while
    // it lives: one that a run stopped by SIGKILL left is removed when this run first makes one
    // here (PrivateDirectory.init), if its marker proves it ours.
    let scratchFolder: PrivateDirectory
    let scratch: CreatedFile
    do {
      scratchFolder = try PrivateDirectory(prefix: scratchPrefix, in: folder, resolvingLinks: false)
      scratch = try CreatedFile(path: scratchFolder.path + "/" + name)
    } catch {
      throw .failed(error)
    }
    defer { scratchFolder.remove() }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        writeBytes(scratch.descriptor, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .failed(FileAccessError(path: path, operation: "write", code: errno))
      }
      offset += written
    }
    if fchmod(scratch.descriptor, mode) != 0 {
      throw .failed(FileAccessError(path: path, operation: "chmod", code: errno))
    }
    let synced = syncToDrive(scratch.descriptor)
    if synced != 0 { throw .failed(FileAccessError(path: path, operation: "sync", code: synced)) }
    scratch.close()
    try publish(scratch.path, as: path)
  }
}

private func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
  #else
    Darwin.write(fd, buffer, count)
  #endif
}
