import SQLiteDB
import SafeFiles
import Testing

/// `registerLookup`: the same answers whether keys are small (direct index) or not (dictionary).
@Suite struct LookupTests {
  func answers(rows: [Int64: [Int64]], fallback: [Int64]?, keys: [String], column: Int) throws
    -> [Int64?]
  {
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.registerLookup(named: "f", rows: rows, fallback: fallback)
    let columns = keys.map { "f(\($0), \(column))" }.joined(separator: ", ")
    let statement = try database.makeStatement(sql: "SELECT \(columns)")
    #expect(try statement.step())
    return (0..<Int32(keys.count)).map { statement.optionalInt64(at: $0) }
  }

  @Test(arguments: [Int64(0), 1 << 40, -7])
  func keysMapToTheirRowsAndEverythingElseToTheFallback(offset: Int64) throws {
    let rows: [Int64: [Int64]] = [offset + 1: [10, 11], offset + 3: [30, 31]]
    let keys = [
      "\(offset + 1)", "\(offset + 2)", "\(offset + 3)", "NULL", "'text'", "\(offset + 3).0",
      "\(offset + 3).5", "\(offset - 1)", "\(offset + 100_000)",
    ]
    #expect(
      try answers(rows: rows, fallback: [99, 98], keys: keys, column: 0) == [
        10, 99, 30, 99, 99, offset == 1 << 40 ? 30 : 30, 99, 99, 99,
      ])
    #expect(try answers(rows: rows, fallback: [99, 98], keys: keys, column: 1)[0] == 11)
    #expect(try answers(rows: rows, fallback: [99, 98], keys: keys, column: 2)[0] == nil)
    #expect(try answers(rows: rows, fallback: nil, keys: keys, column: 0)[1] == nil)
  }
}
