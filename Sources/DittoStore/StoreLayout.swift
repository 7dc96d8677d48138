import LibraryMerge
import SQLiteDB

// DITTO 3.x SWIFTDATA STORE (what this module relies on; facts in shared/reference/swiftdata-store-format.md)
//
//   TABLE               COLUMNS (any order, found by name)                                   ENTITY
//   ZPROFILE            Z_PK, Z_ENT, Z_OPT                                                   Profile
//   ZDITTOCATEGORY      Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZPROFILE, ZMODIFIEDAT, ZTITLE          DittoCategory
//   ZDITTOITEM          Z_PK, Z_ENT, Z_OPT, ZSORTORDER, ZUSECOUNT, ZCATEGORY, ZMODIFIEDAT, ZTEXT DittoItem
//   Z_PRIMARYKEY        Z_ENT, Z_NAME, Z_SUPER, Z_MAX: entity numbers by name, last key handed out
//   Z_METADATA          Z_VERSION, Z_UUID, Z_PLIST (never written here)
//   ACHANGE             persistent history, one row per changed object (may carry ZTOMBSTONEn)  CHANGE
//   ATRANSACTION        one row per save; ZAUTHORTS → ATRANSACTIONSTRING.Z_PK                 TRANSACTION
//   ATRANSACTIONSTRING  interned strings, unique ZNAME                                          TRANSACTIONSTRING
//   ANSCK*              CloudKit mirroring metadata (never written here)
//
// Entity numbers (Z_ENT) are always looked up by name. Dates are Cocoa seconds (since 2001-01-01 UTC),
// stored as REAL or, for whole seconds, INTEGER (TIMESTAMP has NUMERIC affinity).
//
// Reading needs the named columns (extra ones are tolerated); writing needs exactly these column
// sets, the three entities and nothing else below Z_ENT 16000, and all three history tables or none.

/// One row of `Z_PRIMARYKEY`.
struct EntityRow: Equatable {
  var number: Int64
  var name: String
  var superNumber: Int64
  var max: Int64
}

/// What the store holds, as far as this module reads and writes it.
struct StoreLayout {
  /// The three Ditto entities.
  var profile: EntityRow
  var category: EntityRow
  var item: EntityRow
  /// Every row of `Z_PRIMARYKEY`, in `Z_ENT` order.
  var entities: [EntityRow]
  /// True when ACHANGE, ATRANSACTION and ATRANSACTIONSTRING all exist with the columns we write.
  var hasHistory: Bool
  /// The columns of `ACHANGE` (uppercased), when it exists.
  var changeColumns: Set<String>
  /// True when any `ANSCK*` table exists.
  var hasCloudKit: Bool
  /// Why a write would be refused although the store can be read (unknown columns, extra entities,
  /// part of the history tables); empty when a write is allowed.
  var writeProblems: [String]

  static let systemColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
  static let profileColumns = systemColumns
  static let categoryColumns = systemColumns.union([
    "ZSORTORDER", "ZPROFILE", "ZMODIFIEDAT", "ZTITLE",
  ])
  static let itemColumns = systemColumns.union([
    "ZSORTORDER", "ZUSECOUNT", "ZCATEGORY", "ZMODIFIEDAT", "ZTEXT",
  ])
  static let primaryKeyColumns: Set<String> = ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"]
  static let historyColumns: [String: Set<String>] = [
    "ACHANGE": systemColumns.union(["ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"]),
    "ATRANSACTION": systemColumns.union(["ZAUTHORTS", "ZTIMESTAMP"]),
    "ATRANSACTIONSTRING": systemColumns.union(["ZNAME"]),
  ]

  /// The entity row named `name`, if any (the first, in `Z_ENT` order).
  func entity(named name: String) -> EntityRow? {
    entities.first { $0.name == name }
  }

  /// Resolves the layout of the store open in `database`.
  ///
  /// - Throws: ``DestinationError`` `.refused` when the file cannot be read as a Ditto 3.x store
  ///   (not Core Data, an entity, table or column missing), `.readFailed` for SQLite errors.
  static func inspect(_ database: Database, file: String) throws(DestinationError) -> StoreLayout {
    do {
      return try inspectUnmapped(database, file: file)
    } catch let error as DestinationError {
      throw error
    } catch let error as SQLiteError {
      throw DestinationError.fromRead(error, file: file)
    } catch {
      throw DestinationError(.readFailed, file: file, reason: "\(error)")
    }
  }

  private static func inspectUnmapped(_ database: Database, file: String) throws -> StoreLayout {
    func refuse(_ reason: String) -> DestinationError {
      DestinationError(.refused, file: file, reason: reason)
    }
    var tables = Set<String>()
    var views = Set<String>()
    var triggers = 0
    let master = try database.makeStatement(
      sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')")
    while try master.step() {
      guard let name = master.text(at: 1)?.uppercased() else { continue }
      switch master.text(at: 0) {
      case "view": views.insert(name)
      case "trigger": triggers += 1
      default: tables.insert(name)
      }
    }
    master.reset()

    let coreDataTables = ["Z_PRIMARYKEY", "Z_METADATA"].filter { !tables.contains($0) }
    if !coreDataTables.isEmpty {
      throw refuse(
        "not a Core Data store (no \(coreDataTables.joined(separator: " or ")) table), so not a Ditto 3.x library"
      )
    }
    func columns(of table: String) throws -> Set<String> { try database.columnNames(of: table) }
    let keyColumns = try columns(of: "Z_PRIMARYKEY")
    let missingKeyColumns = primaryKeyColumns.subtracting(keyColumns).sorted()
    if !missingKeyColumns.isEmpty {
      throw refuse(
        "not a Core Data store (Z_PRIMARYKEY has no column \(missingKeyColumns.joined(separator: ", ")))"
      )
    }
    var entities: [EntityRow] = []
    let rows = try database.makeStatement(
      sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    while try rows.step() {
      entities.append(
        EntityRow(
          number: rows.int64(at: 0), name: rows.text(at: 1) ?? "", superNumber: rows.int64(at: 2),
          max: rows.optionalInt64(at: 3) ?? 0))
    }
    rows.reset()

    var writeProblems: [String] = []
    if triggers > 0 {
      // Core Data makes no triggers for Ditto's model; one would run inside our inserts.
      writeProblems.append("the schema has \(triggers) trigger(s) the app's model does not")
    }
    let names = ["Profile", "DittoCategory", "DittoItem"]
    let missingEntities = names.filter { name in !entities.contains { $0.name == name } }
    if !missingEntities.isEmpty {
      var reason =
        "not a Ditto 3.x store: Z_PRIMARYKEY has no entity \(missingEntities.joined(separator: ", "))"
      if entities.contains(where: { $0.name == "Ditto" || $0.name == "Category" }) {
        reason += " (it looks like a Ditto 2.x store)"
      }
      throw refuse(reason)
    }
    for name in names where entities.filter({ $0.name == name }).count > 1 {
      writeProblems.append("Z_PRIMARYKEY names entity \(name) more than once")
    }
    for entity in entities where entity.number < 16000 && !names.contains(entity.name) {
      writeProblems.append(
        "Z_PRIMARYKEY names an entity the app does not have (Z_ENT \(entity.number))")
    }
    func row(_ name: String) -> EntityRow {
      entities.first { $0.name == name } ?? EntityRow(number: 0, name: name, superNumber: 0, max: 0)
    }
    let profile = row("Profile")
    let category = row("DittoCategory")
    let item = row("DittoItem")
    for entity in [profile, category, item] where entity.superNumber != 0 {
      writeProblems.append(
        "entity \(entity.name) has a parent entity (Z_SUPER \(entity.superNumber))")
    }

    for (table, expected) in [
      ("ZPROFILE", profileColumns), ("ZDITTOCATEGORY", categoryColumns),
      ("ZDITTOITEM", itemColumns),
    ] {
      guard tables.contains(table) else {
        throw refuse(
          views.contains(table)
            ? "not a Ditto 3.x store: \(table) is a view, not a table"
            : "not a Ditto 3.x store: table \(table) is missing")
      }
      let found = try columns(of: table)
      let missing = expected.subtracting(found).sorted()
      if !missing.isEmpty {
        throw refuse(
          "not a Ditto 3.x store: table \(table) has no column \(missing.joined(separator: ", "))")
      }
      let unknown = found.subtracting(expected).sorted()
      if !unknown.isEmpty {
        writeProblems.append(
          "table \(table) has columns the app's model does not: \(unknown.joined(separator: ", "))")
      }
    }

    let historyTables = historyColumns.keys.sorted()
    let presentHistory = historyTables.filter { tables.contains($0) }
    var hasHistory = false
    var changeColumns = Set<String>()
    if presentHistory.count == historyTables.count {
      hasHistory = true
      for table in historyTables {
        let found = try columns(of: table)
        if table == "ACHANGE" { changeColumns = found }
        let missing = (historyColumns[table] ?? []).subtracting(found).sorted()
        if !missing.isEmpty {
          hasHistory = false
          writeProblems.append(
            "history table \(table) has no column \(missing.joined(separator: ", "))")
        }
      }
    } else if !presentHistory.isEmpty {
      writeProblems.append(
        "only some persistent-history tables exist (\(presentHistory.joined(separator: ", ")))")
    }
    let hasCloudKit = tables.contains { $0.hasPrefix("ANSCK") }
    return StoreLayout(
      profile: profile, category: category, item: item, entities: entities, hasHistory: hasHistory,
      changeColumns: changeColumns, hasCloudKit: hasCloudKit, writeProblems: writeProblems)
  }
}

extension DestinationError {
  /// Classifies an SQLite error met while reading `file`: a file that is not a database is refused,
  /// anything else is a failed read.
  static func fromRead(_ error: SQLiteError, file: String) -> DestinationError {
    if error.isNotADatabase {
      return DestinationError(
        .refused, file: file, reason: "not an SQLite database, so not a Ditto 3.x library")
    }
    return DestinationError(
      .readFailed, file: file, reason: "SQLite error \(error.extendedCode): \(error.codeText)")
  }

  /// Classifies an SQLite error met while writing `file`.
  static func fromWrite(_ error: SQLiteError, file: String) -> DestinationError {
    var reason = "SQLite error \(error.extendedCode): \(error.codeText)"
    if error.isBusy { reason += " (the library stayed locked by another process)" }
    return DestinationError(.writeFailed, file: file, reason: reason + "; nothing was written")
  }
}
