import SafeFiles

/// A fresh private folder (mode 0700) under the system temporary directory, for decrypted copies;
/// removed with everything in it when released (see SafeFiles' PrivateDirectory).
final class PrivateFolder {
  private let directory: PrivateDirectory
  var path: String { directory.path }

  /// - Parameter purpose: the file the folder is for, named in errors.
  /// - Throws: ``BackupError/unreadable(file:reason:)`` when no folder can be made.
  init(purpose: String) throws(BackupError) {
    do {
      directory = try PrivateDirectory(prefix: "ditto-decrypted-")
    } catch {
      throw .unreadable(file: purpose, reason: "cannot create a private folder: \(error)")
    }
  }

  /// Removes the folder and what it holds: only ever our own `mkdtemp` folder.
  func remove() {
    directory.remove()
  }
}
