#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output folder a command is filling: removed (or emptied, if it existed empty) when the run
/// is interrupted before ``keep()``; kept as it is once kept, or when released (an error that
/// stops a command leaves what it wrote, and says where).
package final class OutputInProgress {
  /// The folder's path.
  package let path: String
  private var id: Int?

  private init(path: String, id: Int?) {
    self.path = path
    self.id = id
  }

  /// Creates the folder `path` (mode 0700), which must not exist.
  ///
  /// - Throws: ``FileAccessError`` (`mkdir`), `EEXIST` when something has that name.
  package static func makeFolder(_ path: String) throws(FileAccessError) -> OutputInProgress {
    let (_, id) = try CreationRecording.record {
      () throws(FileAccessError) -> ((), CreatedEntry?) in
      guard mkdir(path, 0o700) == 0 else {
        throw FileAccessError(path: path, operation: "mkdir", code: errno)
      }
      guard let status = try FileStatus.of(path: path), status.kind == .directory else {
        return ((), nil)
      }
      return ((), CreatedEntry(kind: .folder, path: path, identity: status.identity))
    }
    return OutputInProgress(path: path, id: id)
  }

  /// An existing empty folder `path` (links in its path followed) that this run fills: an
  /// interruption removes what it holds and leaves the folder.
  ///
  /// - Throws: ``FileAccessError`` when `path` is not a folder.
  package static func filling(_ path: String) throws(FileAccessError) -> OutputInProgress {
    let real = UserPath.resolved(path)
    let (_, id) = try CreationRecording.record {
      () throws(FileAccessError) -> ((), CreatedEntry?) in
      guard let status = try FileStatus.of(path: real), status.kind == .directory else {
        throw FileAccessError(path: path, operation: "lstat", code: ENOTDIR)
      }
      return ((), CreatedEntry(kind: .contents, path: real, identity: status.identity))
    }
    return OutputInProgress(path: path, id: id)
  }

  /// The output is complete: an interruption from now on leaves it.
  package func keep() {
    CreationRecording.forget(id)
    id = nil
  }

  deinit {
    CreationRecording.forget(id)
  }
}

@available(*, unavailable)
extension OutputInProgress: Sendable {}
