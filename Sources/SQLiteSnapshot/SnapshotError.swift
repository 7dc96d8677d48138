import SafeFiles

/// Why a private snapshot of a store could not be made. Every case names the file; nothing was
/// copied, and the original was not changed.
package enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing exists at the path.
  case notFound(file: String)
  /// A FIFO, socket, device, directory or symbolic link has the store's name. It was not opened.
  case notARegularFile(file: String, kind: FileKind)
  /// The process may not open or read the file, a sidecar or its folder (EACCES, EPERM).
  case permissionDenied(file: String, reason: String)
  /// Someone else holds the file right now (EAGAIN, EBUSY).
  case busy(file: String, reason: String)
  /// The file (or a sidecar) exists but reading it failed for another reason (EIO, …).
  case ioError(file: String, reason: String)
  /// The main file does not start with SQLite's header (zero bytes, garbage, encrypted).
  case notADatabase(file: String, reason: String)
  /// No room for the private copy: the disk is full. The store itself was not touched.
  case noSpace(file: String, reason: String)
  /// The files kept changing while they were copied, every time they were tried: another process
  /// is writing them. No copy was kept.
  case changing(file: String, attempts: Int)

  /// The file the error is about.
  package var file: String {
    switch self {
    case .notFound(let file), .notARegularFile(let file, _), .permissionDenied(let file, _),
      .busy(let file, _), .ioError(let file, _), .notADatabase(let file, _),
      .noSpace(let file, _), .changing(let file, _):
      file
    }
  }

  package var description: String {
    switch self {
    case .notFound(let file): "\(file): no such file"
    case .notARegularFile(let file, let kind):
      "\(file): is a \(kind.humanName), not a regular file; it was not opened"
    case .permissionDenied(let file, let reason): "\(file): not allowed to read it (\(reason))"
    case .busy(let file, let reason): "\(file): in use by another process (\(reason))"
    case .ioError(let file, let reason): "\(file): could not be read: \(reason)"
    case .notADatabase(let file, let reason): "\(file): not an SQLite database (\(reason))"
    case .noSpace(let file, let reason):
      "\(file): not enough free space to copy it to a private snapshot (\(reason)); free some space and try again"
    case .changing(let file, let attempts):
      "\(file): kept changing while it was copied (\(attempts) tries): another process is writing it"
    }
  }

  /// Classifies a failure to open or copy `file` itself.
  package static func from(_ error: SafeFileError, file: String) -> SnapshotError {
    switch error {
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .access(let access): from(access, file: file)
    }
  }

  /// Classifies a system call's failure on `file` by its `errno`.
  package static func from(_ access: FileAccessError, file: String) -> SnapshotError {
    let reason = "\(access.operation): \(access.reason)"
    if access.isNotFound { return .notFound(file: file) }
    if access.isPermissionDenied { return .permissionDenied(file: access.path, reason: reason) }
    if access.isBusy { return .busy(file: access.path, reason: reason) }
    if access.isNoSpace { return .noSpace(file: file, reason: reason) }
    return .ioError(file: access.path, reason: reason)
  }
}
