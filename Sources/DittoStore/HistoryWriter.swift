import LibraryMerge
import SQLiteDB

/// Records one import in the store's persistent history, as Core Data records a save: one
/// `ATRANSACTION` with our author (interned in `ATRANSACTIONSTRING`) and one `ACHANGE` insert row per
/// inserted object (see StoreLayout.swift for the format).
struct HistoryWriter {
  let database: Database
  let author: String
  let now: Double
  let file: String
  /// The columns of `ATRANSACTION`: the bundle and process ids are set where the table has them.
  var transactionColumns: Set<String> = []

  /// The writing tool's bundle identifier (never the app's).
  static let bundleID = "io.kern.ditto-recover"
  /// The writing tool's process name.
  static let processName = "ditto-recover"

  /// Writes the history of `changes` (each entity's new keys, one contiguous range each).
  ///
  /// - Returns: the history transaction's `Z_PK`.
  /// - Throws: ``DestinationError`` or ``SQLiteError``.
  func record(_ changes: [InsertedRange]) throws -> Int64 {
    // Absent until the first history write of the store's life.
    try database.execute(
      sql: """
        INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES
        (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), (16003, 'TRANSACTIONSTRING', 0, 0)
        """)
    let entities = try StoreLayout.inspect(database, file: file).entities
    func entity(_ name: String) throws -> EntityRow {
      guard let row = entities.first(where: { $0.name == name }) else {
        throw DestinationError(
          .refused, file: file,
          reason:
            "Z_PRIMARYKEY has no \(name) history entity and its usual number is taken; nothing was written"
        )
      }
      return row
    }
    let change = try entity("CHANGE")
    let transaction = try entity("TRANSACTION")
    let string = try entity("TRANSACTIONSTRING")
    let authorKey = try intern(author, entity: string)
    var columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZTIMESTAMP"]
    var values: [SQLValue] = []
    for (column, name) in [("ZBUNDLEIDTS", Self.bundleID), ("ZPROCESSIDTS", Self.processName)]
    where transactionColumns.contains(column) {
      columns.append(column)
      values.append(.integer(try intern(name, entity: string)))
    }

    let transactionKey = try RowWriter.firstFreeKey(
      transaction, table: "ATRANSACTION", in: database)
    let insertTransaction = try database.makeStatement(
      sql: """
        INSERT INTO ATRANSACTION (\(columns.joined(separator: ", ")))
        VALUES (?, ?, NULL, ?, ?\(String(repeating: ", ?", count: values.count)))
        """)
    try insertTransaction.bind(
      [
        .integer(transactionKey), .integer(transaction.number), .integer(authorKey),
        .real(try timestamp()),
      ] + values)
    try insertTransaction.run()
    try RowWriter.raiseMax(of: transaction.number, to: transactionKey, in: database)

    // One statement per entity over its new key range (the rows were just inserted, in key order).
    var key = try RowWriter.firstFreeKey(change, table: "ACHANGE", in: database)
    for range in changes where range.count > 0 {
      let insertChanges = try database.makeStatement(
        sql: """
          INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
          SELECT ?1 + (Z_PK - ?2), ?3, NULL, 0, ?4, Z_PK, ?5 FROM \(range.table)
          WHERE Z_PK BETWEEN ?2 AND ?6 ORDER BY Z_PK
          """)
      try insertChanges.bind(
        .integer(key), .integer(range.first), .integer(change.number), .integer(range.entity),
        .integer(transactionKey), .integer(range.first + Int64(range.count) - 1))
      try insertChanges.run()
      guard database.changesCount == range.count else {
        throw DestinationError(
          .writeFailed, file: file,
          reason:
            "the history of \(range.table) did not match the rows inserted; nothing was written")
      }
      key += Int64(range.count)
    }
    if !changes.isEmpty { try RowWriter.raiseMax(of: change.number, to: key - 1, in: database) }
    return transactionKey
  }

  /// Now, or a millisecond after the store's latest transaction when that is later (a store copied
  /// from a phone whose clock ran ahead of this machine's): history stays in order by date.
  private func timestamp() throws -> Double {
    let latest = try database.makeStatement(sql: "SELECT MAX(ZTIMESTAMP) FROM ATRANSACTION")
    defer { latest.reset() }
    guard try latest.step(), let last = latest.optionalDouble(at: 0) else { return now }
    return max(now, last + 0.001)
  }

  /// The `Z_PK` of `name` in `ATRANSACTIONSTRING`, inserted when missing (its name is unique).
  private func intern(_ name: String, entity: EntityRow) throws -> Int64 {
    let lookup = try database.makeStatement(
      sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ? ORDER BY Z_PK LIMIT 1")
    try lookup.bind(.text(name))
    if let found = try lookup.scalarInt64() { return found }
    let key = try RowWriter.firstFreeKey(entity, table: "ATRANSACTIONSTRING", in: database)
    let insert = try database.makeStatement(
      sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)")
    try insert.bind(.integer(key), .integer(entity.number), .text(name))
    try insert.run()
    try RowWriter.raiseMax(of: entity.number, to: key, in: database)
    return key
  }
}
