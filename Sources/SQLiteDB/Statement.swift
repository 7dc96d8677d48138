import SQLiteShims

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A value to bind to a statement parameter.
package enum SQLValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// The storage class of a column value in the current row.
package enum ColumnType: Sendable, Equatable {
  case integer, real, text, blob, null
}

/// A compiled SQL statement, finalized when released.
///
/// Step it with ``step()`` or ``forEachRow(_:)``. Both throw on anything but a row or the end:
/// an I/O error or a corrupt page halfway through never turns into a short result.
package final class Statement {
  let handle: OpaquePointer
  private let database: Database
  /// The SQL text, for error messages.
  package let sql: String

  init(database: Database, sql: String) throws(SQLiteError) {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw database.error(code: rc == SQLITE_OK ? SQLITE_MISUSE : rc, sql: sql)
    }
    self.handle = statement
    self.database = database
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  // MARK: - Binding

  /// Binds `value` to the 1-based parameter `index`.
  ///
  /// - Throws: ``SQLiteError`` (for example `SQLITE_TOOBIG`).
  package func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
    let rc: Int32
    switch value {
    case .null: rc = sqlite3_bind_null(handle, index)
    case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
    case .real(let number): rc = sqlite3_bind_double(handle, index, number)
    case .text(let text):
      // Bound with its UTF-8 length: a length of -1 would make SQLite stop at the first NUL, and
      // a text holding one (SQLite allows it) would be cut short without an error.
      var text = text
      rc = text.withUTF8 { utf8 in
        let empty: StaticString = ""
        let start = UnsafeRawPointer(utf8.baseAddress ?? empty.utf8Start)
        return sqlite3_bind_text64(
          handle, index, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count),
          ditto_sqlite3_transient(), UInt8(SQLITE_UTF8))
      }
    case .blob(let bytes):
      rc = bytes.withUnsafeBytes { raw in
        sqlite3_bind_blob64(
          handle, index, raw.baseAddress, sqlite3_uint64(raw.count), ditto_sqlite3_transient())
      }
    }
    guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
  }

  /// Resets the statement and binds `values` to parameters 1, 2, …
  package func bind(_ values: SQLValue...) throws(SQLiteError) {
    try bind(values)
  }

  /// Resets the statement and binds `values` to parameters 1, 2, …
  package func bind(_ values: [SQLValue]) throws(SQLiteError) {
    reset()
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
  }

  /// Makes the statement ready to run again; bindings are kept.
  package func reset() {
    // The error of the last step was already reported by step(); reset just repeats it.
    sqlite3_reset(handle)
  }

  // MARK: - Stepping

  /// Advances to the next row: true when a row is available, false at the end.
  ///
  /// - Throws: ``SQLiteError`` for any other answer (`SQLITE_BUSY`, `SQLITE_CORRUPT`, `SQLITE_IOERR`, …).
  package func step() throws(SQLiteError) -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = database.error(code: rc, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Runs the statement to completion, ignoring any rows.
  package func run() throws(SQLiteError) {
    while try step() {}
    reset()
  }

  /// Calls `body` for each row, then resets the statement.
  ///
  /// - Throws: ``SQLiteError`` from stepping, or the body's error.
  package func forEachRow(_ body: (Statement) throws -> Void) throws {
    defer { reset() }
    while try step() {
      try body(self)
    }
  }

  /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
  package func scalarInt64() throws(SQLiteError) -> Int64? {
    defer { reset() }
    guard try step() else { return nil }
    return optionalInt64(at: 0)
  }

  /// The first column of the first row as text, or nil when there is no row or it is NULL.
  package func scalarText() throws(SQLiteError) -> String? {
    defer { reset() }
    guard try step() else { return nil }
    return text(at: 0)
  }

  // MARK: - Reading columns of the current row

  /// Number of columns in the result.
  package var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The storage class of column `index` in the current row.
  package func columnType(at index: Int32) -> ColumnType {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: return .integer
    case SQLITE_FLOAT: return .real
    case SQLITE_TEXT: return .text
    case SQLITE_BLOB: return .blob
    default: return .null
    }
  }

  /// True when column `index` is NULL.
  package func isNull(at index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  /// Column `index` as an integer (SQLite's conversion rules apply; NULL gives 0).
  package func int64(at index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }

  /// Column `index` as an integer, nil when NULL.
  package func optionalInt64(at index: Int32) -> Int64? {
    isNull(at: index) ? nil : sqlite3_column_int64(handle, index)
  }

  /// Column `index` as a double, nil when NULL.
  package func optionalDouble(at index: Int32) -> Double? {
    isNull(at: index) ? nil : sqlite3_column_double(handle, index)
  }

  /// Column `index` as text, nil when NULL. Invalid UTF-8 is repaired with U+FFFD.
  package func text(at index: Int32) -> String? {
    guard !isNull(at: index) else { return nil }
    return withTextBytes(at: index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with column `index` as valid UTF-8 (invalid sequences repaired with U+FFFD, as
  /// ``text(at:)`` does), without building a `String` when the bytes are already valid.
  package func withValidUTF8Text<Result>(
    at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try withTextBytes(at: index) { bytes in
      if Self.isValidUTF8(bytes) { return try body(bytes) }
      var repaired = String(decoding: bytes, as: UTF8.self)
      return try repaired.withUTF8(body)
    }
  }

  /// True when `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or values
  /// above U+10FFFF), checked on the bytes themselves: eight ASCII bytes at a time, then each
  /// multi-byte sequence against its allowed ranges.
  static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var index = 0
    while index < count {
      if index + 8 <= count,
        raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = base[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The allowed range of the second byte and the sequence length, by lead byte.
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return false
      }
      guard index + length <= count, (low...high).contains(base[index + 1]) else { return false }
      var next = index + 2
      while next < index + length {
        guard base[next] & 0xC0 == 0x80 else { return false }
        next += 1
      }
      index += length
    }
    return true
  }

  /// Column `index` as raw bytes (a BLOB, or the UTF-8 of a TEXT), nil when NULL.
  package func blob(at index: Int32) -> [UInt8]? {
    guard !isNull(at: index) else { return nil }
    guard let pointer = sqlite3_column_blob(handle, index) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, index))
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// Calls `body` with the UTF-8 bytes of column `index`, valid only during the call.
  ///
  /// No `String` is built; hot paths use this to copy a value from one statement to another.
  package func withTextBytes<Result>(
    at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    let pointer = sqlite3_column_text(handle, index)
    let count = Int(sqlite3_column_bytes(handle, index))
    return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
  }
}

@available(*, unavailable)
extension Statement: Sendable {}
