import Foundation
import SafeFiles

/// The size and content hash of every file under a folder, to prove that nothing was changed.
package struct FileHashes: Equatable, Sendable, CustomStringConvertible {
  /// Relative path → (kind, size, hash). Regular files are hashed; other kinds record their kind only.
  package private(set) var entries: [String: String]

  /// Hashes every object under `root` (links and special files are recorded, never followed or opened).
  package init(of root: String) throws {
    entries = [:]
    let walker = DirectoryWalker(reportLimit: 1_000_000)
    var collected: [(String, FileStatus)] = []
    _ = try walker.walk(root: root) { entry in
      collected.append((entry.displayPath, entry.status))
    }
    for (path, status) in collected {
      guard status.kind == .regular else {
        entries[path] = status.kind.rawValue
        continue
      }
      entries[path] = "regular \(status.size) \(try Self.hash(of: root + path))"
    }
  }

  /// True when every file in `before` is still there with the same bytes (new files are allowed).
  package func preserves(_ before: FileHashes) -> Bool {
    before.entries.allSatisfy { entries[$0.key] == $0.value }
  }

  /// Files of `before` that changed or disappeared.
  package func changes(since before: FileHashes) -> [String] {
    before.entries.keys.filter { entries[$0] != before.entries[$0] }.sorted()
  }

  package var description: String {
    entries.keys.sorted().map { "\($0): \(entries[$0] ?? "")" }.joined(separator: "\n")
  }

  /// Two FNV-1a 64-bit hashes with different seeds over the whole file, read in chunks.
  static func hash(of path: String) throws -> String {
    let file = try ReadOnlyFile(path: path)
    var first: UInt64 = 0xcbf2_9ce4_8422_2325
    var second: UInt64 = 0x8422_2325_cbf2_9ce4
    var offset: Int64 = 0
    while true {
      let bytes = try file.read(count: 1 << 20, at: offset)
      if bytes.isEmpty { break }
      for byte in bytes {
        first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
        second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
      }
      offset += Int64(bytes.count)
    }
    return String(first, radix: 16) + String(second, radix: 16)
  }
}
