import DittoLibrary
import Exchange
import LegacyStore

/// Builds a library from a stream of items (tests only).
enum DittoLibraryFactory {
  @discardableResult
  static func library(at path: String, _ items: LegacyItemSource) throws -> Int {
    let store = try LibraryStore(path: path)
    let counts = try store.importItems(items)
    try store.close()
    return counts.inserted
  }
}

/// Field counts of each CSV record, through the project's RFC 4180 reader.
struct CSVReaderProbe {
  mutating func recordCounts(_ bytes: [UInt8]) throws -> [Int] {
    var reader = CSVReader()
    var counts: [Int] = []
    try reader.feed(bytes) { counts.append($0.count) }
    try reader.finish { counts.append($0.count) }
    return counts
  }
}
