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
//   ATRANSACTION        one row per save; …TS columns → ATRANSACTIONSTRING.Z_PK               TRANSACTION
//   ATRANSACTIONSTRING  interned strings, unique ZNAME                                          TRANSACTIONSTRING
//   ANSCK*              CloudKit mirroring metadata (never written here)
//
// ONE IMPORT'S HISTORY, AS CORE DATA WRITES A SAVE (real rows: shared/reference §3.3)
//
//   ROW / COLUMN                  WRITTEN                           WHY
//   ATRANSACTION.Z_PK             Z_MAX of TRANSACTION + 1, raised  history tokens hold this number: it
//                                                                   only grows
//   ATRANSACTION.Z_OPT            NULL                              as Core Data leaves it on history rows
//   ATRANSACTION.ZAUTHORTS        → "ditto-recover"                 the save's author (transactionAuthor),
//                                                                   never a NSCloudKitMirroringDelegate name
//   ATRANSACTION.ZBUNDLEIDTS      → "io.kern.ditto-recover"         bundleID is non-optional in the API;
//   ATRANSACTION.ZPROCESSIDTS     → "ditto-recover"                 processID too; ours, never the app's
//                                                                   (when the columns exist)
//   ATRANSACTION.ZCONTEXTNAMETS   NULL                              no context name was set
//   ATRANSACTION.ZQUERYGEN        NULL                              no query generation
//   ATRANSACTION.ZAUTHOR…ZPROCESSID NULL                            Core Data fills the …TS columns only
//   ATRANSACTION.ZTIMESTAMP       max(now, latest ZTIMESTAMP        readers fetch history by date: a phone
//                                 + 0.001) in Cocoa seconds        clock ahead of ours must not put this
//                                                                   save before the ones it follows
//   ATRANSACTIONSTRING            one row per new string, Z_PK     unique ZNAME: looked up first
//                                 from Z_MAX + 1
//   ACHANGE                       one insert (ZCHANGETYPE 0, NULL  ZENTITY/ZENTITYPK name the row; the
//                                 ZCOLUMNS) per new row            exporter finds new rows through these
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
  /// The columns of `ATRANSACTION` (uppercased), when it exists.
  var transactionColumns: Set<String> = []
  /// Rows in `ZPROFILE`.
  var profileCount = 0
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

  /// What the checks below need to know of one store, gathered as they run.
  struct Inspection {
    let database: Database
    let file: String
    var tables = Set<String>()
    var views = Set<String>()
    var triggers = 0
    var entities: [EntityRow] = []
    var writeProblems: [String] = []

    func refuse(_ reason: String) -> DestinationError {
      DestinationError(.refused, file: file, reason: reason)
    }

    func columns(of table: String) throws(SQLiteError) -> Set<String> {
      try database.columnNames(of: table)
    }
  }

  /// The checks, in order: schema objects, then entities, then the entity tables, then history.
  private static func inspectUnmapped(_ database: Database, file: String) throws -> StoreLayout {
    var inspection = Inspection(database: database, file: file)
    try readSchemaObjects(&inspection)
    try readEntities(&inspection)
    let (profile, category, item) = try checkEntities(&inspection)
    try checkEntityTables(&inspection)
    let (hasHistory, changeColumns, transactionColumns) = try checkHistory(&inspection)
    var layout = StoreLayout(
      profile: profile, category: category, item: item, entities: inspection.entities,
      hasHistory: hasHistory, changeColumns: changeColumns,
      hasCloudKit: inspection.tables.contains { $0.hasPrefix("ANSCK") },
      writeProblems: inspection.writeProblems)
    layout.transactionColumns = transactionColumns
    layout.profileCount = Int(
      try database.makeStatement(sql: "SELECT COUNT(*) FROM ZPROFILE").scalarInt64() ?? 0)
    return layout
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
