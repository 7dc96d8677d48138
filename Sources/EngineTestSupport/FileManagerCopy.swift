import Foundation

/// File copies for building test inputs (never used on a user's files).
package enum FileManagerCopy {
  /// Copies `source` to `destination` (which must not exist).
  package static func copy(_ source: String, to destination: String) throws {
    try FileManager.default.copyItem(atPath: source, toPath: destination)
  }

  /// Copies a store and whichever of its `-wal`, `-shm` exist into `folder`, under the same names.
  package static func copyStore(_ store: String, into folder: String) throws {
    let name = (store as NSString).lastPathComponent
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix)
    {
      try copy(store + suffix, to: folder + "/" + name + suffix)
    }
  }
}
