import SafeFiles

/// Why a backup, or one of its index files, could not be read. Every case names the file or folder.
///
/// None of these means "no Ditto files": a manifest that was read completely and lists no Ditto file is a
/// ``ManifestListing`` with no entries, never an error, and an error is never turned into one.
package enum BackupError: Error, Equatable, Sendable, NamingFiles {
  /// Nothing exists at the path.
  case notFound(path: String)
  /// The folder is neither a backup nor a folder of backups.
  case notABackup(path: String, reason: String)
  /// A file or folder exists but could not be read (permissions, I/O, not a regular file).
  case unreadable(file: String, reason: String)
  /// A property list exists but is not one, or not the expected shape.
  case malformed(file: String, reason: String)
  /// The backup is encrypted (or looks it) and no usable password was given.
  case encrypted(backup: String, reason: String)
  /// The backup uses a format this tool does not read (iOS 9 and earlier: `Manifest.mbdb`).
  case unsupportedFormat(backup: String, reason: String)
  /// `Manifest.db` exists but SQLite cannot read it, or it is not a backup manifest.
  case manifestUnreadable(file: String, reason: String)
  /// `Manifest.db` does not start with the SQLite header (encrypted, or not a database at all).
  case notADatabase(file: String, reason: String)
  /// The password does not unlock the backup's keybag (the RFC 3394 integrity check failed).
  case wrongPassword(backup: String)
  /// Decrypting a file failed for a reason other than the password (bad keybag, bad padding, …).
  case decryptionFailed(file: String, reason: String)

  /// A short stable code for JSON (`encrypted`, `not_a_backup`, …).
  package var code: String {
    switch self {
    case .notFound: "not_found"
    case .notABackup: "not_a_backup"
    case .unreadable: "unreadable"
    case .malformed: "malformed"
    case .encrypted: "encrypted"
    case .unsupportedFormat: "unsupported_format"
    case .manifestUnreadable: "manifest_unreadable"
    case .notADatabase: "not_a_database"
    case .wrongPassword: "wrong_password"
    case .decryptionFailed: "decryption_failed"
    }
  }

  package func described(naming shown: (String) -> String) -> String {
    switch self {
    case .notFound(let path):
      "\(shown(path)): no such file or folder"
    case .notABackup(let path, let reason):
      "\(shown(path)): not an iPhone backup folder (\(reason))"
    case .unreadable(let file, let reason):
      "\(shown(file)): could not be read: \(reason)"
    case .malformed(let file, let reason):
      "\(shown(file)): \(reason)"
    case .encrypted(let backup, let reason):
      "\(shown(backup)) is an encrypted backup (\(reason)). Its files cannot be read without the backup "
        + "password. Keep a copy of this folder first: a new backup of the same device replaces it. "
        + "Then either pass the password with --password-file FILE, or, if the dittos are still on "
        + "the device, make a new backup with \"Encrypt local backup\" turned off and use that one."
    case .unsupportedFormat(let backup, let reason):
      "\(shown(backup)): unsupported backup format (\(reason))"
    case .manifestUnreadable(let file, let reason):
      "\(shown(file)): cannot read the backup manifest: \(reason)"
    case .notADatabase(let file, let reason):
      "\(shown(file)): not an SQLite database (\(reason))"
    case .wrongPassword(let backup):
      "\(shown(backup)): wrong password: it does not unlock this backup's keys"
    case .decryptionFailed(let file, let reason):
      "\(shown(file)): cannot decrypt: \(reason)"
    }
  }
}
