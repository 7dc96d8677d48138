import Foundation
import LegacyStore
import PropertyLists
import SQLiteDB
import SafeFiles

/// Writes synthetic Ditto 2.x stores with Core Data's layout (section 13 of the reference).
///
/// The result is logically faithful, not byte-identical: Core Data itself would refuse it (the model
/// hashes are made up), but a reader of the SQL layout cannot tell the difference.
package enum LegacyStoreWriter {
  /// How the rows reach the file.
  package enum Journal: Sendable, Equatable {
    /// WAL mode, checkpointed and closed: every row is in the main file.
    case walCheckpointed
    /// WAL mode, never checkpointed: the main file holds only its header page, every row (and the
    /// schema) lives in `-wal`, with `-shm` beside it, as on a device whose app was killed.
    case walOnly
    /// Rollback-journal mode (older stores).
    case delete
  }

  /// Core Data's DDL for the Ditto model, in sqlite_master order.
  static func schema(_ variant: LegacyStoreSpec.Variant) -> [String] {
    var statements = LegacySchema.createStatements
    if variant == .ios9 { statements.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)") }
    return statements
  }

  /// Writes `spec` as a new store at `path` (and its sidecars, for `.walOnly`).
  ///
  /// - Throws: ``SQLiteError`` or a file error; `path` must not exist yet.
  package static func write(
    _ spec: LegacyStoreSpec, to path: String, journal: Journal = .walCheckpointed,
    seed: UInt64 = 1
  ) throws {
    switch journal {
    case .walCheckpointed, .delete:
      try StoreFileWriting.writeCheckpointed(to: path) {
        try fill($0, spec: spec, journal: journal, seed: seed)
      }
    case .walOnly:
      try StoreFileWriting.writeWALOnly(to: path) {
        try fill($0, spec: spec, journal: journal, seed: seed)
      }
    }
  }

  private static func fill(
    _ database: Database, spec: LegacyStoreSpec, journal: Journal, seed: UInt64
  ) throws {
    try database.execute(sql: "PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2")
    if journal != .delete {
      try database.execute(sql: "PRAGMA journal_mode = WAL")
    }
    if journal == .walOnly {
      try database.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    }
    var random = SeededGenerator(seed: seed)
    try database.write(mapError: { $0 as any Error }) { () throws in
      for statement in schema(spec.variant) { try database.execute(sql: statement) }
      try insertRows(database, spec: spec, random: &random)
    }
  }

  private static func insertRows(
    _ database: Database, spec: LegacyStoreSpec, random: inout SeededGenerator
  ) throws {
    let schema = (LegacySchema.profile, LegacySchema.category, LegacySchema.ditto)
    let profile = try database.makeStatement(
      sql:
        "INSERT INTO \(schema.0.name) (\(schema.0.columnList)) VALUES (?, \(schema.0.entityNumber), 1)"
    )
    for number in 0..<spec.profileCount {
      try profile.bind(.integer(Int64(number + 1)))
      try profile.run()
    }
    var categoryKeys = Array(1...max(1, spec.categories.count)).map(Int64.init)
    let allDittos =
      spec.categories.reduce(0) { $0 + $1.dittos.count } + spec.dittosWithoutCategory.count
    var dittoKeys = Array(1...max(1, allDittos)).map(Int64.init)
    if spec.shufflesPrimaryKeys {
      categoryKeys.shuffle(using: &random)
      dittoKeys.shuffle(using: &random)
    }
    let category = try database.makeStatement(
      sql:
        "INSERT INTO \(schema.1.name) (\(schema.1.columnList)) VALUES (?, \(schema.1.entityNumber), 1, ?, ?, ?)"
    )
    let ditto = try database.makeStatement(
      sql:
        "INSERT INTO \(schema.2.name) (\(schema.2.columnList)) VALUES (?, \(schema.2.entityNumber), 1, ?, ?, ?, ?)"
    )
    var nextDitto = 0
    var positionInProfile: [Int: Int64] = [:]
    for (index, spec_) in spec.categories.enumerated() {
      let key = categoryKeys[index]
      var order: SQLValue = .null
      if let profileNumber = spec_.profile {
        let position = positionInProfile[profileNumber, default: 0]
        positionInProfile[profileNumber] = position + 1
        order = .integer(spec_.orderKey ?? spec.firstOrderKey + position * spec.orderKeyStep)
      }
      try category.bind(
        .integer(key), spec_.profile.map { .integer(Int64($0)) } ?? .null, order,
        spec_.title.map(SQLValue.text) ?? .null)
      try category.run()
      for (position, item) in spec_.dittos.enumerated() {
        let orderKey: SQLValue =
          item.hasNullOrderKey
          ? .null
          : .integer(item.orderKey ?? spec.firstOrderKey + Int64(position) * spec.orderKeyStep)
        try insert(
          ditto, key: dittoKeys[nextDitto], item: item, category: .integer(key), order: orderKey)
        nextDitto += 1
      }
    }
    for item in spec.dittosWithoutCategory {
      try insert(ditto, key: dittoKeys[nextDitto], item: item, category: .null, order: .null)
      nextDitto += 1
    }
    let primaryKeys = try database.makeStatement(sql: LegacySchema.primaryKeyInsert)
    for (table, maximum) in [
      (schema.1, spec.categories.count), (schema.2, allDittos), (schema.0, spec.profileCount),
    ] {
      try primaryKeys.bind(
        .integer(table.entityNumber), .text(table.entity), .integer(Int64(maximum)))
      try primaryKeys.run()
    }
    let metadata = try database.makeStatement(
      sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
    var uuidBytes = [UInt8](repeating: 0, count: 16)
    for index in uuidBytes.indices { uuidBytes[index] = UInt8.random(in: 0...255, using: &random) }
    let uuid = UUID(
      uuid: (
        uuidBytes[0], uuidBytes[1], uuidBytes[2], uuidBytes[3], uuidBytes[4], uuidBytes[5],
        uuidBytes[6], uuidBytes[7], uuidBytes[8], uuidBytes[9], uuidBytes[10], uuidBytes[11],
        uuidBytes[12], uuidBytes[13], uuidBytes[14], uuidBytes[15]
      ))
    try metadata.bind(.text(uuid.uuidString.uppercased()), .blob(try metadataPlist(spec.variant)))
    try metadata.run()
    if spec.variant == .ios9 {
      try database.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (x'00')")
    }
  }

  private static func insert(
    _ statement: Statement, key: Int64, item: LegacyStoreSpec.Ditto, category: SQLValue,
    order: SQLValue
  ) throws {
    try statement.bind(
      .integer(key), item.useCount.map(SQLValue.integer) ?? .null, category, order,
      item.text.map(SQLValue.text) ?? .null)
    try statement.run()
  }

  /// The binary metadata plist Core Data writes (hashes are placeholders).
  static func metadataPlist(_ variant: LegacyStoreSpec.Variant) throws -> [UInt8] {
    let hash = PropertyListValue.data(Array(repeating: 0xAB, count: 32))
    let plist: [String: PropertyListValue] = [
      "NSStoreType": "SQLite",
      "NSPersistenceFrameworkVersion": variant == .ios8 ? 519 : 641,
      "NSStoreModelVersionHashes": .dictionary(
        PropertyListDictionary(sorting: LegacySchema.tables.map { ($0.entity, hash) })),
      "NSStoreModelVersionHashesVersion": 3,
      "NSStoreModelVersionIdentifiers": [""],
      "_NSAutoVacuumLevel": "2",
    ]
    return PropertyListWriter.encode(.dictionary(PropertyListDictionary(plist)), format: .binary)
  }
}
