import LegacyStore

// THE DITTO TABLES AS SALVAGE MATCHES THEM
//
// Column positions come from the CREATE TABLE text in sqlite_master when it was recovered, else
// from the layout Core Data writes for the Ditto 2.x model (reference §13):
//
//   TABLE      COLUMNS, IN RECORD ORDER
//   ZPROFILE   Z_PK, Z_ENT, Z_OPT
//   ZCATEGORY  Z_PK, Z_ENT, Z_OPT, ZPROFILE, Z_FOK_PROFILE, ZTITLE
//   ZDITTO     Z_PK, Z_ENT, Z_OPT, ZUSE_COUNT, ZCATEGORY, Z_FOK_CATEGORY, ZTEXT
//
// Z_PK is the INTEGER PRIMARY KEY: the record holds NULL there and the cell's rowid is the key.
//
// A record MATCHES a table if and only if
//   (1) it has exactly as many values as the table has columns (loosely: at most as many, for rows
//       on pages the table's own b-tree reaches; missing trailing values read as NULL),
//   (2) the rowid column's value is NULL,
//   (3) every value fits its column's affinity: INTEGER columns hold integers or NULL, TEXT
//       columns text or NULL, BLOB columns blobs or NULL (REAL and NUMERIC columns take numbers),
//   (4) Z_ENT is an integer, equal to the entity's number when Z_PRIMARYKEY was recovered.
// Pages that no recovered b-tree reaches are assigned to the table most of their records match
// strictly; only the matching records are kept. The other Core Data tables (Z_PRIMARYKEY,
// Z_METADATA, Z_MODELCACHE) and sqlite_master have shapes none of the three Ditto tables accept.

/// The three entity tables of a Ditto store (their layout is `LegacySchema`'s).
enum DittoTable: CaseIterable, Sendable {
  case profile
  case category
  case ditto

  /// The table as the 2.x model defines it.
  var schema: LegacySchema.Table {
    switch self {
    case .profile: LegacySchema.profile
    case .category: LegacySchema.category
    case .ditto: LegacySchema.ditto
    }
  }

  /// The SQLite table name (`ZDITTO`).
  var rawValue: String { schema.name }

  /// The Core Data entity name (the Z_NAME in Z_PRIMARYKEY).
  var entityName: String { schema.entity }
}

/// The Ditto tables' column layouts and entity numbers, as recovered or as known.
struct DittoSchema: Sendable {
  /// Column layout per table.
  let specs: [DittoTable: TableSpec]
  /// Z_ENT per table, when Z_PRIMARYKEY was recovered.
  var entityNumbers: [DittoTable: Int64] = [:] {
    didSet {
      for table in DittoTable.allCases { shapes[table.ordinal].entity = entityNumbers[table] }
    }
  }
  /// True when the layouts came from sqlite_master.
  let isFromCatalog: Bool
  /// What each column accepts, per table (by `DittoTable.ordinal`): matching a record then costs
  /// no string comparison and no hashing.
  private var shapes: [Shape]

  /// How one column is matched.
  enum ColumnKind: Sendable {
    case rowid, entity, integer, text, blob, number
  }

  /// The columns of one table as the matcher sees them, and where the fields the reader uses are.
  struct Shape: Sendable {
    var kinds: [ColumnKind]
    var entity: Int64?
    /// Column positions by name (uppercased), for the few columns rows are built from.
    var positions: [String: Int]

    init(_ spec: TableSpec) {
      kinds = spec.columns.map { column in
        if column.isRowidAlias { return .rowid }
        if column.name == "Z_ENT" { return .entity }
        switch column.affinity {
        case .integer: return .integer
        case .text: return .text
        case .blob: return .blob
        case .real, .numeric: return .number
        }
      }
      positions = Dictionary(
        spec.columns.enumerated().map { ($0.element.name, $0.offset) },
        uniquingKeysWith: { a, _ in a })
    }
  }

  /// The layout Core Data writes for the Ditto 2.x model.
  static let known: [DittoTable: TableSpec] = Dictionary(
    uniqueKeysWithValues: DittoTable.allCases.map { table in
      (table, spec(table.schema.name, table.schema.columnNames, text: table.schema.textColumns))
    })

  private static func spec(_ name: String, _ columns: [String], text: Set<String>) -> TableSpec {
    TableSpec(
      name: name,
      columns: columns.map {
        ColumnSpec(
          name: $0, affinity: text.contains($0) ? .text : .integer, isRowidAlias: $0 == "Z_PK")
      },
      rootPage: nil)
  }

  /// Layouts from `catalog` where it names the table with a Z_PK rowid column, else the known ones.
  init(catalog: SchemaCatalog) {
    var specs: [DittoTable: TableSpec] = [:]
    var fromCatalog = false
    for table in DittoTable.allCases {
      if let found = catalog.tables[table.rawValue],
        let pk = found.index(of: "Z_PK"), found.columns[pk].isRowidAlias
      {
        specs[table] = found
        fromCatalog = true
      } else {
        specs[table] = Self.known[table]
      }
    }
    self.specs = specs
    self.isFromCatalog = fromCatalog
    self.shapes = DittoTable.allCases.map { table in
      Shape(specs[table] ?? TableSpec(name: table.rawValue, columns: [], rootPage: nil))
    }
  }

  /// True when `values` can be a row of `table` (conditions above; `strict` requires condition 1 exactly).
  func matches(_ values: [RecordValue], table: DittoTable, strict: Bool) -> Bool {
    let shape = shapes[table.ordinal]
    let kinds = shape.kinds
    guard strict ? values.count == kinds.count : values.count <= kinds.count, !values.isEmpty
    else { return false }
    for index in 0..<values.count {
      let value = values[index]
      switch (kinds[index], value) {
      case (.rowid, .null): continue
      case (.rowid, _): return false
      case (.entity, .integer(let number)):
        if let expected = shape.entity, expected != number { return false }
      case (.entity, _): return false
      case (_, .null): continue
      case (.integer, .integer), (.text, .text), (.blob, .blob): continue
      case (.number, .integer), (.number, .real): continue
      default: return false
      }
    }
    return true
  }

  /// The one table `values` strictly matches, nil when none or several do.
  func classify(_ values: [RecordValue]) -> DittoTable? {
    var found: DittoTable?
    for table in DittoTable.allCases where matches(values, table: table, strict: true) {
      guard found == nil else { return nil }
      found = table
    }
    return found
  }

  /// The value of column `name` in `values`, NULL when the table or the record lacks it.
  func value(_ name: String, in values: [RecordValue], table: DittoTable) -> RecordValue {
    guard let index = shapes[table.ordinal].positions[name], index < values.count else {
      return .null
    }
    return values[index]
  }
}

extension DittoTable {
  /// 0, 1, 2: the table's place in `allCases`.
  var ordinal: Int {
    switch self {
    case .profile: 0
    case .category: 1
    case .ditto: 2
    }
  }
}
