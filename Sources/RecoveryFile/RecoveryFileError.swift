import SafeFiles

/// Why a recovery file could not be written or read.
package struct RecoveryFileError: Error, Sendable, Equatable, NamingFiles {
  /// What went wrong, as a stable code.
  package enum Kind: String, Sendable, Equatable {
    /// Something already has the output's name: it is never replaced.
    case alreadyExists = "already_exists"
    /// The file could not be created or written (its folder, the disk).
    case writeFailed = "write_failed"
    /// The file cannot be read as a store.
    case unreadable
    /// Its `DITTO_RECOVERY` table is not one this tool wrote.
    case malformed
  }

  package var kind: Kind
  /// The file concerned.
  package var file: String
  /// Why, in words (no user content).
  package var reason: String

  package init(_ kind: Kind, file: String, reason: String) {
    self.kind = kind
    self.file = file
    self.reason = reason
  }

  /// A short stable code for JSON.
  package var code: String { kind.rawValue }

  package func described(naming shown: (String) -> String) -> String {
    "\(shown(file)): \(reason)"
  }
}
