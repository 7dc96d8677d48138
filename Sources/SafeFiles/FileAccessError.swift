#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call on a file failed: names the file, the operation and the reason.
package struct FileAccessError: Error, Equatable, Sendable, NamingFiles {
  /// The path as given.
  package let path: String
  /// What we tried: `open`, `read`, `lstat`, …
  package let operation: String
  /// The `errno` value.
  package let code: Int32

  package init(path: String, operation: String, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
  }

  /// The system's text for ``code`` ("Permission denied").
  package var reason: String { String(cString: strerror(code)) }

  /// True when the file does not exist.
  package var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

  /// True when access was refused by permissions.
  package var isPermissionDenied: Bool { code == EACCES || code == EPERM }

  /// True when the file is held by someone else right now (EAGAIN, EBUSY).
  package var isBusy: Bool { code == EAGAIN || code == EBUSY || code == EWOULDBLOCK }

  /// True when the disk (or the user's quota) is full.
  package var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

  /// What failed and why, without the file's name: `cannot open: Permission denied`.
  package var failure: String { "cannot \(operation): \(reason)" }

  /// `cannot <operation> <path>: <reason>`.
  package func described(naming shown: (String) -> String) -> String {
    "cannot \(operation) \(shown(path)): \(reason)"
  }
}
