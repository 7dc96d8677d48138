import Foundation
import LegacyStore
import PropertyLists
import SQLiteDB
import SafeFiles

// FOR ditto-recover AND TESTS ONLY. The libraries written here have the layout of Ditto 3.x's
// SwiftData store (shared/reference/swiftdata-store-format.md §2.3 and §3.2), but their model
// version hashes, digest, checksum and model cache are invented: the app's Core Data stack would
// reject them, and an app that deletes a store it cannot open would lose data. Never load one onto
// a device or into the app's App Group.

/// What a synthetic Ditto 3.x library holds and how its schema is shaped.
package struct SwiftDataStoreSpec: Sendable {
  /// A `DittoItem` row; nil values are written as NULL (to test readers), defaults otherwise.
  package struct Ditto: Sendable, Equatable {
    package var text: String?
    package var useCount: Int64?
    /// nil: the ditto's position in its category.
    package var sortOrder: Int64?

    package init(_ text: String?, useCount: Int64? = 0, sortOrder: Int64? = nil) {
      self.text = text
      self.useCount = useCount
      self.sortOrder = sortOrder
    }
  }

  /// A `DittoCategory` row and its dittos.
  package struct Category: Sendable, Equatable {
    package var title: String?
    /// nil: the category's position among its profile's categories.
    package var sortOrder: Int64?
    /// 1-based number of its Profile (`Z_PK`); nil writes `ZPROFILE` NULL.
    package var profile: Int?
    package var dittos: [Ditto]

    package init(
      title: String?, sortOrder: Int64? = nil, profile: Int? = 1, dittos: [Ditto] = []
    ) {
      self.title = title
      self.sortOrder = sortOrder
      self.profile = profile
      self.dittos = dittos
    }
  }

  /// Profile rows (`Z_PK` 1…n).
  package var profiles: Int
  /// Categories in `Z_PK` order.
  package var categories: [Category]
  /// ACHANGE, ATRANSACTION and ATRANSACTIONSTRING exist (SwiftData always makes them).
  package var hasHistoryTables = true
  /// One history transaction records the content's inserts (when there is content and history).
  package var recordsHistory = true
  /// A few `ANSCK*` CloudKit mirroring tables (empty) and their entities 17001–17003.
  package var hasCloudKitTables = false
  /// `ZDITTOITEM` declares `ZUSECOUNT` before `ZSORTORDER`.
  package var useCountBeforeSortOrder = false
  /// An extra column in `ZDITTOITEM` (a schema the app's model does not have).
  package var extraItemColumn: String?
  /// `ZTOMBSTONE0…` columns in `ACHANGE`.
  package var tombstoneColumns = 0
  /// `ZMODIFIEDAT` in whole seconds (stored as INTEGER by NUMERIC affinity).
  package var integerDates = false
  /// `Z_MAX` is this much above the largest `Z_PK` of each Ditto entity (deleted objects).
  package var keyHeadroom: Int64 = 0

  package init(profiles: Int, categories: [Category]) {
    self.profiles = profiles
    self.categories = categories
  }

  /// The store as the app creates it just before it migrates: schema, metadata, no rows, no
  /// history rows and no history entities in `Z_PRIMARYKEY`.
  package static let empty = SwiftDataStoreSpec(profiles: 0, categories: [])

  /// One Profile and the four 3.x presets, with one history transaction for them.
  package static let presets = SwiftDataStoreSpec(profiles: 1, categories: presetCategories)

  /// The 3.x presets, as the app creates them.
  package static let presetCategories: [Category] = [
    Category(
      title: "Instructions",
      dittos: [
        Ditto("Welcome to Ditto!"),
        Ditto("Use the Ditto app to customize your dittos."),
        Ditto("Add a triple underscore ___ to your ditto to control where your cursor lands."),
        Ditto("You can expand long dittos within the keyboard by holding them down."),
        Ditto(
          "Hold down a keyboard tab to expand the category title, and swipe on the tab bar for quick access."
        ),
      ]),
    Category(
      title: "Driving",
      dittos: [
        Ditto("I'm driving, can you call me?"), Ditto("I'll be there in ___ minutes!"),
        Ditto("What's the address?"), Ditto("Can't text, I'm driving"),
      ]),
    Category(
      title: "Business",
      dittos: [
        Ditto(
          "Hi ___,\n\nIt was great meeting you today. I'd love to chat in more detail about possible business opportunities. Please let me know your availability.\n\nBest"
        ),
        Ditto(
          "My name is ___, and I work at ___. We are always looking for talented candidates to join our team. Please let me know if you are interested."
        ),
      ]),
    Category(
      title: "Dating",
      dittos: [
        Ditto("I'm not a photographer, but I can picture us together."),
        Ditto("Do you have a Band-Aid? Because I just scraped my knee falling for you."),
      ]),
  ]
}

/// Writes synthetic Ditto 3.x libraries (`Ditto.store`) for `ditto-recover fixture` and tests.
///
/// WAL journal, page size 4096, incremental auto-vacuum, the app's DDL, `Z_PRIMARYKEY`
/// (DittoCategory = 1, DittoItem = 2, Profile = 3), `Z_METADATA` with a binary plist and a
/// `Z_MODELCACHE` blob (raw DEFLATE of a small plist). For ditto-recover and tests only: see the
/// note at the top of this file.
package enum SwiftDataStoreWriter {
  /// How the rows reach the file.
  package enum Journal: Sendable, Equatable {
    /// Checkpointed and closed: every row is in the main file.
    case walCheckpointed
    /// Never checkpointed: everything lives in `-wal` (with `-shm`), as after the app was killed.
    case walOnly
  }

  /// Writes `spec` as a new store at `path`; `path` must not exist yet.
  ///
  /// - Throws: ``SQLiteError`` or a file error.
  package static func write(
    _ spec: SwiftDataStoreSpec, to path: String, journal: Journal = .walCheckpointed,
    seed: UInt64 = 1
  ) throws {
    switch journal {
    case .walCheckpointed:
      try StoreFileWriting.writeCheckpointed(to: path) {
        try fill($0, spec: spec, journal: journal, seed: seed)
      }
    case .walOnly:
      try StoreFileWriting.writeWALOnly(to: path) {
        try fill($0, spec: spec, journal: journal, seed: seed)
      }
    }
  }

  /// The DDL, in the order `sqlite_master` holds it.
  static func schema(_ spec: SwiftDataStoreSpec) -> [String] {
    let integers =
      spec.useCountBeforeSortOrder
      ? "ZUSECOUNT INTEGER, ZSORTORDER INTEGER" : "ZSORTORDER INTEGER, ZUSECOUNT INTEGER"
    let extra = spec.extraItemColumn.map { ", \($0) VARCHAR" } ?? ""
    var statements = [
      "CREATE TABLE ZDITTOCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSORTORDER INTEGER, ZPROFILE INTEGER, ZMODIFIEDAT TIMESTAMP, ZTITLE VARCHAR )",
      "CREATE TABLE ZDITTOITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(integers), ZCATEGORY INTEGER, ZMODIFIEDAT TIMESTAMP, ZTEXT VARCHAR\(extra) )",
      "CREATE TABLE ZPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
      "CREATE INDEX ZDITTOCATEGORY_ZPROFILE_INDEX ON ZDITTOCATEGORY (ZPROFILE)",
      "CREATE INDEX ZDITTOITEM_ZCATEGORY_INDEX ON ZDITTOITEM (ZCATEGORY)",
      "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
      "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
      "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]
    if spec.hasHistoryTables {
      let tombstones = (0..<spec.tombstoneColumns).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
      statements += [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB \(tombstones))",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
      ]
    }
    if spec.hasCloudKitTables {
      statements += [
        "CREATE TABLE ANSCKRECORDMETADATA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITYID INTEGER, ZENTITYPK INTEGER, ZLASTEXPORTEDTRANSACTIONNUMBER INTEGER, ZNEEDSCLOUDDELETE INTEGER, ZNEEDSLOCALDELETE INTEGER, ZNEEDSUPLOAD INTEGER, ZPENDINGEXPORTCHANGETYPENUMBER INTEGER, ZPENDINGEXPORTTRANSACTIONNUMBER INTEGER, ZENCODEDRECORDASSET INTEGER, ZRECORDZONE INTEGER, ZSYSTEMFIELDSASSET INTEGER, ZCKRECORDNAME VARCHAR )",
        "CREATE UNIQUE INDEX Z_NSCKRecordMetadata_UNIQUE_entityId_entityPK ON ANSCKRECORDMETADATA (ZENTITYID COLLATE BINARY ASC, ZENTITYPK COLLATE BINARY ASC)",
        "CREATE TABLE ANSCKMETADATAENTRY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLVALUENUM INTEGER, ZINTEGERVALUE INTEGER, ZDATEVALUE TIMESTAMP, ZKEY VARCHAR, ZSTRINGVALUE VARCHAR, ZTRANSFORMEDVALUE BLOB )",
        "CREATE TABLE ANSCKRECORDZONEMETADATA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATABASE INTEGER, ZCKOWNERNAME VARCHAR, ZCKRECORDZONENAME VARCHAR )",
      ]
    }
    return statements
  }

  private static func fill(
    _ database: Database, spec: SwiftDataStoreSpec, journal: Journal, seed: UInt64
  ) throws {
    try database.execute(sql: "PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2")
    try database.execute(sql: "PRAGMA journal_mode = WAL")
    if journal == .walOnly {
      try database.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    }
    var random = SeededGenerator(seed: seed)
    try database.write(mapError: { $0 as any Error }) { () throws in
      for statement in schema(spec) { try database.execute(sql: statement) }
      try insertRows(database, spec: spec, random: &random)
    }
  }

  private static func insertRows(
    _ database: Database, spec: SwiftDataStoreSpec, random: inout SeededGenerator
  ) throws {
    var date = 800_000_000.0
    func nextDate() -> SQLValue {
      date += spec.integerDates ? 61 : 61.125
      return spec.integerDates ? .integer(Int64(date)) : .real(date)
    }
    var inserted: [(entity: Int64, key: Int64)] = []
    let profile = try database.makeStatement(
      sql: "INSERT INTO ZPROFILE (Z_PK, Z_ENT, Z_OPT) VALUES (?, 3, 1)")
    for number in 0..<spec.profiles {
      try profile.bind(.integer(Int64(number + 1)))
      try profile.run()
      inserted.append((3, Int64(number + 1)))
    }
    let category = try database.makeStatement(
      sql:
        "INSERT INTO ZDITTOCATEGORY (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZPROFILE, ZMODIFIEDAT, ZTITLE) VALUES (?, 1, 1, ?, ?, ?, ?)"
    )
    let ditto = try database.makeStatement(
      sql:
        "INSERT INTO ZDITTOITEM (Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZUSECOUNT, ZCATEGORY, ZMODIFIEDAT, ZTEXT) VALUES (?, 2, 1, ?, ?, ?, ?, ?)"
    )
    var dittoKey: Int64 = 0
    var positionInProfile: [Int: Int64] = [:]
    for (index, item) in spec.categories.enumerated() {
      let key = Int64(index + 1)
      let position = positionInProfile[item.profile ?? 0, default: 0]
      positionInProfile[item.profile ?? 0] = position + 1
      try category.bind(
        .integer(key), .integer(item.sortOrder ?? position),
        item.profile.map { .integer(Int64($0)) } ?? .null, nextDate(),
        item.title.map(SQLValue.text) ?? .null)
      try category.run()
      inserted.append((1, key))
      for (offset, entry) in item.dittos.enumerated() {
        dittoKey += 1
        try ditto.bind(
          .integer(dittoKey), entry.sortOrder.map(SQLValue.integer) ?? .integer(Int64(offset)),
          entry.useCount.map(SQLValue.integer) ?? .null, .integer(key), nextDate(),
          entry.text.map(SQLValue.text) ?? .null)
        try ditto.run()
        inserted.append((2, dittoKey))
      }
    }

    let records = spec.hasHistoryTables && spec.recordsHistory && !inserted.isEmpty
    var entities: [(Int64, String, Int64)] = [
      (1, "DittoCategory", Int64(spec.categories.count) + spec.keyHeadroom),
      (2, "DittoItem", dittoKey + spec.keyHeadroom),
      (3, "Profile", Int64(spec.profiles) + spec.keyHeadroom),
    ]
    if records {
      try recordHistory(database, inserted: inserted, date: date + 1.5)
      entities += [
        (16001, "CHANGE", Int64(inserted.count)), (16002, "TRANSACTION", 1),
        (16003, "TRANSACTIONSTRING", 2),
      ]
    }
    if spec.hasCloudKitTables {
      entities += [
        (17001, "NSCKRecordMetadata", 0), (17002, "NSCKMetadataEntry", 0),
        (17003, "NSCKRecordZoneMetadata", 0),
      ]
    }
    let primaryKeys = try database.makeStatement(
      sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)")
    for (number, name, maximum) in entities {
      try primaryKeys.bind(.integer(number), .text(name), .integer(maximum))
      try primaryKeys.run()
    }

    let metadata = try database.makeStatement(
      sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
    try metadata.bind(
      .text(uuidString(&random)), .blob(try metadataPlist(cloudKit: spec.hasCloudKitTables)))
    try metadata.run()
    let cache = try database.makeStatement(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
    try cache.bind(.blob(try modelCache()))
    try cache.run()
  }

  /// One transaction by the app (bundle id and process name interned) with an insert per row.
  private static func recordHistory(
    _ database: Database, inserted: [(entity: Int64, key: Int64)], date: Double
  ) throws {
    try database.execute(
      sql: """
        INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES
        (1, 16003, NULL, 'io.kern.Ditto'), (2, 16003, NULL, 'Ditto')
        """)
    let transaction = try database.makeStatement(
      sql: """
        INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZBUNDLEIDTS, ZPROCESSIDTS, ZTIMESTAMP)
        VALUES (1, 16002, NULL, 1, 2, ?)
        """)
    try transaction.bind(.real(date))
    try transaction.run()
    let change = try database.makeStatement(
      sql: """
        INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID)
        VALUES (?, 16001, NULL, 0, ?, ?, 1)
        """)
    for (offset, row) in inserted.enumerated() {
      try change.bind(.integer(Int64(offset + 1)), .integer(row.entity), .integer(row.key))
      try change.run()
    }
  }

  private static func uuidString(_ random: inout SeededGenerator) -> String {
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
    let hex = bytes.map { String(format: "%02X", $0) }.joined()
    let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(hex.dropFirst(range.lowerBound).prefix(range.count))
    }
    return parts.joined(separator: "-")
  }

  /// The metadata plist (keys as SwiftData writes them; every hash invented).
  static func metadataPlist(cloudKit: Bool) throws -> [UInt8] {
    func invented(_ byte: UInt8, _ count: Int) -> [UInt8] { Array(repeating: byte, count: count) }
    var plist: [String: PropertyListValue] = [
      "NSStoreType": "SQLite",
      "NSStoreModelVersionHashes": [
        "DittoCategory": .data(invented(0xC1, 32)), "DittoItem": .data(invented(0xC2, 32)),
        "Profile": .data(invented(0xC3, 32)),
      ],
      "NSStoreModelVersionHashesVersion": 3,
      "NSStoreModelVersionHashesDigest": .string(Data(invented(0xD1, 64)).base64EncodedString()),
      "NSStoreModelVersionChecksumKey": .string(Data(invented(0xD2, 32)).base64EncodedString()),
      "NSStoreModelVersionIdentifiers": ["1.0.0"],
      "NSPersistenceFrameworkVersion": 1345,
      "_NSAutoVacuumLevel": "2",
    ]
    if cloudKit { plist["NSPersistentHistoryTrackingKey"] = true }
    return PropertyListWriter.encode(.dictionary(PropertyListDictionary(plist)), format: .binary)
  }

  /// Raw DEFLATE (one stored block) of a small binary plist standing in for the keyed archive of
  /// the model: inflates with zlib `wbits = -15`, decodes as a plist, and is not the app's model.
  static func modelCache() throws -> [UInt8] {
    let archive: PropertyListValue = [
      "$archiver": "NSKeyedArchiver", "$version": 100_000,
      "$objects": ["$null", "ditto-recover test fixture: not the app's model"],
      "$top": ["root": 1],
    ]
    let bytes = PropertyListWriter.encode(archive, format: .binary)
    let length = UInt16(truncatingIfNeeded: bytes.count)
    return [
      0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
    ]
      + bytes
  }
}
