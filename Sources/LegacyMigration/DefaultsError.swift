import LegacyStore
import SafeFiles

/// Why the App Group defaults could not be read or written. Every case names the file.
public enum DefaultsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be opened or read right now (permissions, a locked device, I/O): what it
  /// holds is unknown. Transient.
  case inaccessible(file: String, reason: String)
  /// The defaults domain answered none of the legacy keys while the preferences file on disk cannot
  /// be read or holds some: before the first unlock `UserDefaults` answers defaults instead of what
  /// is stored. What it holds is unknown until the device is unlocked. Transient (`locked`).
  case notAvailableYet(file: String, reason: String)
  /// The file exists but is not a readable property list (it is left untouched).
  case unreadable(file: String, reason: String)
  /// Writing failed; the file holds what it held before.
  case writeFailed(file: String, reason: String)

  /// Whether the failure says something about the file's bytes (see `FailureKind`).
  package var kind: FailureKind {
    switch self {
    case .inaccessible: .transient(.defaults)
    case .notAvailableYet: .transient(.locked)
    case .unreadable, .writeFailed: .permanent
    }
  }

  /// What kind of failure, as a stable code (`inaccessible`, `not_available_yet`, `unreadable`,
  /// `write_failed`): what a public log line says of it. The reason may come from the app's own
  /// types (its error's description, a path), so it is only ever logged privately.
  package var code: String {
    switch self {
    case .inaccessible: "inaccessible"
    case .notAvailableYet: "not_available_yet"
    case .unreadable: "unreadable"
    case .writeFailed: "write_failed"
    }
  }

  /// The file the error is about.
  public var file: String {
    switch self {
    case .inaccessible(let file, _), .notAvailableYet(let file, _), .unreadable(let file, _),
      .writeFailed(let file, _):
      file
    }
  }

  /// Why, without the file's name.
  public var reason: String {
    switch self {
    case .inaccessible(_, let reason): "cannot read the defaults now: \(reason)"
    case .notAvailableYet(_, let reason): "the defaults are not available yet: \(reason)"
    case .unreadable(_, let reason): "cannot read the defaults: \(reason)"
    case .writeFailed(_, let reason): "cannot write the defaults: \(reason)"
    }
  }

  public var description: String { problem.description }

  package func described(naming shown: (String) -> String) -> String {
    problem.described(naming: shown)
  }

  /// The file and why, apart (see ``FileProblem``).
  package var problem: FileProblem { FileProblem(file: file, reason: reason) }

}
