import SQLiteDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The texts one library category held before an import, as digests: what the merge asks
/// ("did it hold this text?") without the texts in memory.
///
/// ENTRY            SIZE  MEANING
/// byte digest      8     Hasher over the text's UTF-8 bytes (this process's seed)
/// canonical digest 8     the text's `String` hash: equal for canonically equivalent texts (built
///                        only when a text is not found byte for byte)
/// key              8     the row's `Z_PK`: a digest match is settled by fetching the row and
///                        comparing the text itself, bytes first, then as `String`s
///
/// So memory is 16 bytes a row (32 once the canonical digests are built), whatever the texts' size,
/// and a digest collision can never make a new ditto look like a duplicate.
final class CategoryTextIndex {
  /// The category's `Z_PK`.
  let category: Int64
  private let database: Database
  private let layout: StoreLayout
  /// Rows with a key at or above this one were inserted by the import: not "before it".
  private let keysBelow: Int64
  private var byBytes: [(digest: Int, key: Int64)] = []
  private var byCanonical: [(digest: Int, key: Int64)]?
  private let fetch: Statement

  /// Reads the digests of `category`'s dittos (rows of `DittoItem` with a key below `keysBelow`).
  ///
  /// - Throws: ``SQLiteError``.
  init(category: Int64, database: Database, layout: StoreLayout, keysBelow: Int64)
    throws(SQLiteError)
  {
    self.category = category
    self.database = database
    self.layout = layout
    self.keysBelow = keysBelow
    fetch = try database.makeStatement(sql: "SELECT ZTEXT FROM ZDITTOITEM WHERE Z_PK = ?")
    let rows = try rowsStatement()
    defer { rows.reset() }
    while try rows.step() {
      let key = rows.int64(at: 0)
      let digest = rows.withTextBytes(at: 1) { Self.byteDigest($0) }
      byBytes.append((digest, key))
    }
    byBytes.sort { $0.digest < $1.digest }
  }

  /// True when the category held a text equal to `text` (canonical equivalence).
  ///
  /// - Throws: ``SQLiteError``.
  func holds(_ text: String) throws(SQLiteError) -> Bool {
    var text = text
    let bytesDigest = text.withUTF8 { Self.byteDigest($0) }
    for key in Self.keys(in: byBytes, matching: bytesDigest) {
      if try fetched(key, equalsBytesOf: &text) { return true }
    }
    if byCanonical == nil { try buildCanonical() }
    for key in Self.keys(in: byCanonical ?? [], matching: text.hashValue) {
      if try fetchedText(key) == text { return true }
    }
    return false
  }

  // MARK: - Digests

  static func byteDigest(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize()
  }

  private func buildCanonical() throws(SQLiteError) {
    let rows = try rowsStatement()
    defer { rows.reset() }
    var entries: [(digest: Int, key: Int64)] = []
    entries.reserveCapacity(byBytes.count)
    while try rows.step() {
      entries.append(((rows.text(at: 1) ?? "").hashValue, rows.int64(at: 0)))
    }
    byCanonical = entries.sorted { $0.digest < $1.digest }
  }

  /// The keys whose digest is `digest`, from a list sorted by digest.
  private static func keys(in entries: [(digest: Int, key: Int64)], matching digest: Int)
    -> [Int64]
  {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].digest < digest { low = middle + 1 } else { high = middle }
    }
    var keys: [Int64] = []
    while low < entries.count, entries[low].digest == digest {
      keys.append(entries[low].key)
      low += 1
    }
    return keys
  }

  // MARK: - Rows

  private func rowsStatement() throws(SQLiteError) -> Statement {
    let statement = try database.makeStatement(
      sql: "SELECT Z_PK, ZTEXT FROM ZDITTOITEM WHERE ZCATEGORY = ?1 AND Z_ENT = ?2 AND Z_PK < ?3")
    try statement.bind(.integer(category), .integer(layout.item.number), .integer(keysBelow))
    return statement
  }

  /// True when row `key`'s text has exactly `text`'s UTF-8 bytes (a NULL text is "", the model's
  /// default).
  private func fetched(_ key: Int64, equalsBytesOf text: inout String) throws(SQLiteError) -> Bool {
    try fetch.bind(.integer(key))
    defer { fetch.reset() }
    guard try fetch.step() else { return false }
    return fetch.withTextBytes(at: 0) { stored in
      text.withUTF8 { wanted in
        stored.count == wanted.count
          && (wanted.isEmpty || memcmp(stored.baseAddress!, wanted.baseAddress!, wanted.count) == 0)
      }
    }
  }

  /// Row `key`'s text as a `String` (invalid UTF-8 repaired, as every read of the library does).
  private func fetchedText(_ key: Int64) throws(SQLiteError) -> String? {
    try fetch.bind(.integer(key))
    defer { fetch.reset() }
    guard try fetch.step() else { return nil }
    return fetch.text(at: 0) ?? ""
  }
}
