import SafeFiles

/// Why a private snapshot of a store could not be made. Every case names the file; nothing was
/// copied, and the original was not changed.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing exists at the path.
  case notFound(file: String)
  /// A FIFO, socket, device, directory or symbolic link has the store's name. It was not opened.
  case notARegularFile(file: String, kind: FileKind)
  /// The file (or a sidecar) exists but could not be opened or read: permissions, I/O.
  case ioError(file: String, reason: String)
  /// The main file does not start with SQLite's header (zero bytes, garbage, encrypted).
  case notADatabase(file: String, reason: String)
  /// No room for the private copy: the disk is full. The store itself was not touched.
  case noSpace(file: String, reason: String)

  /// The file the error is about.
  public var file: String {
    switch self {
    case .notFound(let file), .notARegularFile(let file, _), .ioError(let file, _),
      .notADatabase(let file, _), .noSpace(let file, _):
      file
    }
  }

  public var description: String {
    switch self {
    case .notFound(let file): "\(file): no such file"
    case .notARegularFile(let file, let kind):
      "\(file): is a \(kind.humanName), not a regular file; it was not opened"
    case .ioError(let file, let reason): "\(file): could not be read: \(reason)"
    case .notADatabase(let file, let reason): "\(file): not an SQLite database (\(reason))"
    case .noSpace(let file, let reason):
      "\(file): not enough free space to copy it to a private snapshot (\(reason)); free some space and try again"
    }
  }

  /// Classifies a failure to open or copy `file` itself.
  static func from(_ error: SafeFileError, file: String) -> SnapshotError {
    switch error {
    case .notARegularFile(_, let kind): .notARegularFile(file: file, kind: kind)
    case .access(let access) where access.isNotFound: .notFound(file: file)
    case .access(let access): .ioError(file: file, reason: "\(access.operation): \(access.reason)")
    }
  }
}
