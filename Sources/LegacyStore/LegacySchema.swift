/// The Ditto 2.x Core Data model as SQLite holds it: its tables and columns in Core Data's order,
/// the entity numbers and names of `Z_PRIMARYKEY`, and the DDL Core Data writes.
///
/// Defined once, here: the reader looks tables up by these names, salvage decodes rows by these
/// columns, and the recovery-file writer and the test fixtures create stores from this DDL.
package enum LegacySchema {
  /// One entity's table.
  package struct Table: Sendable, Equatable {
    /// The SQLite table (`ZDITTO`).
    package let name: String
    /// The entity (`Ditto`), as `Z_PRIMARYKEY.Z_NAME` and the model's version hashes name it.
    package let entity: String
    /// `Z_ENT` of its rows in the stores Ditto 2.x wrote.
    package let entityNumber: Int64
    /// The columns in Core Data's order, each with its declared type.
    package let columns: [(name: String, type: String)]
    /// The columns holding user text.
    package let textColumns: Set<String>

    /// The column names in order.
    package var columnNames: [String] { columns.map(\.name) }

    /// `CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, … )`, as Core Data writes it.
    package var createStatement: String {
      "CREATE TABLE \(name) ( "
        + columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ") + " )"
    }

    /// `Z_PK, Z_ENT, …`: the column names for an `INSERT`.
    package var columnList: String { columnNames.joined(separator: ", ") }

    package static func == (lhs: Table, rhs: Table) -> Bool { lhs.name == rhs.name }
  }

  /// `ZPROFILE`: one per install.
  package static let profile = Table(
    name: "ZPROFILE", entity: "Profile", entityNumber: 3,
    columns: [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")],
    textColumns: [])

  /// `ZCATEGORY`: `ZPROFILE` is its profile's `Z_PK`, `Z_FOK_PROFILE` its place in the profile.
  package static let category = Table(
    name: "ZCATEGORY", entity: "Category", entityNumber: 1,
    columns: [
      ("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"),
      (profileKey, "INTEGER"), ("Z_FOK_PROFILE", "INTEGER"), ("ZTITLE", "VARCHAR"),
    ],
    textColumns: ["ZTITLE"])

  /// `ZDITTO`: `ZCATEGORY` is its category's `Z_PK`, `Z_FOK_CATEGORY` its place in the category.
  package static let ditto = Table(
    name: "ZDITTO", entity: "Ditto", entityNumber: 2,
    columns: [
      ("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"),
      ("ZUSE_COUNT", "INTEGER"), (categoryKey, "INTEGER"), ("Z_FOK_CATEGORY", "INTEGER"),
      ("ZTEXT", "VARCHAR"),
    ],
    textColumns: ["ZTEXT"])

  /// A category's link to its profile (`ZCATEGORY.ZPROFILE`).
  package static let profileKey = "ZPROFILE"
  /// A ditto's link to its category (`ZDITTO.ZCATEGORY`).
  package static let categoryKey = "ZCATEGORY"

  /// The tables in the order Core Data creates them (`sqlite_master` order).
  package static let tables = [category, ditto, profile]

  /// The indexes on the links (category → profile, ditto → category).
  package static let linkIndexes = [
    "CREATE INDEX ZCATEGORY_ZPROFILE_INDEX ON ZCATEGORY (ZPROFILE)",
    "CREATE INDEX ZDITTO_ZCATEGORY_INDEX ON ZDITTO (ZCATEGORY)",
  ]

  /// Core Data's bookkeeping tables: entity numbers and key counters, and the metadata plist.
  package static let bookkeeping = [
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
  ]

  /// Core Data's DDL for the model: the tables, their link indexes, then its bookkeeping tables.
  package static let createStatements = tables.map(\.createStatement) + linkIndexes + bookkeeping

  /// `INSERT INTO Z_PRIMARYKEY (…)` for one entity: number, name, no super-entity, highest `Z_PK`.
  package static let primaryKeyInsert =
    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)"
}
