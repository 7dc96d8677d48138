import Foundation

/// A private temporary folder for one test, removed when released.
final class TestFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("salvage-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A new empty subfolder.
  func subfolder(_ name: String) throws -> String {
    let folder = path + "/" + name
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The contents of `name` in this folder.
  func bytes(_ file: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
  }

  /// Replaces the contents of `file`.
  func write(_ bytes: [UInt8], to file: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: file))
  }
}

/// A fingerprint of every file in a folder (name, size, FNV-1a 64 of the bytes), to assert that
/// salvage never changed an original.
struct FileHashes: Equatable, CustomStringConvertible {
  let entries: [String: String]

  init(folder: String) throws {
    var entries: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in data {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      entries[name] = "\(data.count):\(String(hash, radix: 16))"
    }
    self.entries = entries
  }

  var description: String {
    entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
  }
}
