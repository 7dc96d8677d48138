import Exchange
import LegacyStore
import StoreFixtures

/// Writes a Ditto 3.x-shaped library at `path` (empty by default, as the app creates it).
@discardableResult
func makeLibrary(_ path: String, _ spec: SwiftDataStoreSpec = .empty) throws -> String {
  try SwiftDataStoreWriter.write(spec, to: path)
  return path
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
