#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call on a file failed: names the file, the operation and the reason.
public struct FileAccessError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path as given.
  public let path: String
  /// What we tried: `open`, `read`, `lstat`, …
  public let operation: String
  /// The `errno` value.
  public let code: Int32

  public init(path: String, operation: String, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
  }

  /// The system's text for ``code`` ("Permission denied").
  public var reason: String { String(cString: strerror(code)) }

  /// True when the file does not exist.
  public var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

  /// True when access was refused by permissions.
  public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

  /// True when the file is held by someone else right now (EAGAIN, EBUSY).
  public var isBusy: Bool { code == EAGAIN || code == EBUSY || code == EWOULDBLOCK }

  /// True when the disk (or the user's quota) is full.
  public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

  public var description: String { "cannot \(operation) \(path): \(reason)" }
}
