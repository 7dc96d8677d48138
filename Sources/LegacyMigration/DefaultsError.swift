/// Why the App Group defaults could not be read or written. Every case names the file.
public enum DefaultsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but is not a readable property list (it is left untouched).
  case unreadable(file: String, reason: String)
  /// Writing failed; the file holds what it held before.
  case writeFailed(file: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason): "\(file): cannot read the defaults: \(reason)"
    case .writeFailed(let file, let reason): "\(file): cannot write the defaults: \(reason)"
    }
  }
}
