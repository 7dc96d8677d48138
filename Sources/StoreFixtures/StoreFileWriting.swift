import Foundation
import SQLiteDB
import SafeFiles

/// How the fixture writers put a new SQLite store on disk.
enum StoreFileWriting {
  /// Creates `path`, lets `fill` write it and closes it (everything checkpointed into the main file).
  static func writeCheckpointed(to path: String, fill: (Database) throws -> Void) throws {
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try fill(database)
    try database.close()
  }

  /// Writes the store in a private folder and copies its three files to `path` while the writer is
  /// still open, so nothing is checkpointed: every row lives only in `-wal` (as after the app was
  /// killed). Then closes the private writer.
  static func writeWALOnly(to path: String, fill: (Database) throws -> Void) throws {
    let scratch = try PrivateDirectory(prefix: "ditto-fixture-")
    defer { scratch.remove() }
    let scratchStore = scratch.path + "/" + (path as NSString).lastPathComponent
    let database = try Database(path: scratchStore, mode: .readWriteCreate)
    try fill(database)
    for suffix in ["", "-wal", "-shm"] {
      try FileManager.default.copyItem(atPath: scratchStore + suffix, toPath: path + suffix)
    }
    try database.close()
  }
}
