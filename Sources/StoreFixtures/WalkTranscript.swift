import LegacyStore

/// A 2.x reader's walk as comparable values: one line per item (`category <title> <origin>`,
/// `ditto <text> <use count>`) and the walk's counts. Tests and the fuzz target compare two readers
/// of one store with it (the survey's held rows replayed against SQLite's own walk).
package enum WalkTranscript {
  /// The items `reader` walks, in order, and its counts.
  ///
  /// - Throws: what the walk throws.
  package static func of(_ reader: LegacyStoreReader) throws -> ([String], LegacyReadSummary) {
    var items: [String] = []
    let summary = try reader.walk { item in
      switch item {
      case .category(let title, let origin): items.append("category \(title) \(origin)")
      case .ditto(let ditto): items.append("ditto \(ditto.text) \(ditto.useCount)")
      }
    }
    return (items, summary)
  }
}
