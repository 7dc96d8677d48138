import LegacyStore
import SQLiteDB

// READING THE DITTO TABLES WITH SQLITE ITSELF
//
// Where SQLite can still open the store, its reading is preferred: it applies the WAL the way the
// reader does and it knows nothing salvage could get wrong. Each table is read with one full
// scan in rowid order:
//
//   TABLE      QUERY (a column the table lacks is read as NULL)
//   ZPROFILE   SELECT Z_PK FROM ZPROFILE
//   ZCATEGORY  SELECT Z_PK, ZPROFILE, Z_FOK_PROFILE, ZTITLE FROM ZCATEGORY
//   ZDITTO     SELECT Z_PK, ZCATEGORY, Z_FOK_CATEGORY, ZTEXT, ZUSE_COUNT FROM ZDITTO
//
// Tables are found as LegacyStoreReader finds them: through Z_PRIMARYKEY when it exists, else by
// their conventional names. A scan that fails halfway (SQLITE_CORRUPT on a damaged page) keeps
// the rows it read and marks the table incomplete: the page decoder then adds the rows it missed.
// A table read to its end is complete: rows the decoder finds beyond it are not live.
//
// Texts are checked strictly: SQLite does not look at the bytes of an overflow page it does not
// need to follow, so a row whose last overflow page was overwritten reads "successfully" with a
// garbage tail (which `sqlite3_column_text` hands over, and the reader would repair with U+FFFD).
// A text or title that is not valid UTF-8 marks its row as damaged: the decoder's reading of that
// key is used instead (it refuses invalid text too), and with none the ditto is dropped.

/// What SQLite could read of the Ditto tables.
struct SQLiteReading {
  /// Rows read, by table.
  var rows = DittoRows()
  /// Tables read to the end without an error.
  var completeTables = Set<DittoTable>()
  /// Keys of ZDITTO rows whose text was not valid UTF-8 (left out of `rows`).
  var damagedDittoKeys = Set<Int64>()
  /// Keys of ZCATEGORY rows whose title was not valid UTF-8 (kept with a NULL title).
  var damagedCategoryKeys = Set<Int64>()
  /// Tables SQLite found (complete or not).
  var foundTables = Set<DittoTable>()
  /// True when SQLite opened the store.
  var isOpened = false
  /// Why SQLite could not open or finish reading (codes only, no user text).
  var problems: [String] = []

  /// Reads the store at `path` (a private copy: CoreDataStore copies it once more before opening).
  static func read(path: String) -> SQLiteReading {
    do {
      return try CoreDataStore.withSnapshot(of: path) { store in
        var reading = SQLiteReading()
        reading.isOpened = true
        for table in DittoTable.allCases {
          reading.read(table, from: store)
        }
        return reading
      }
    } catch {
      var reading = SQLiteReading()
      reading.problems.append("SQLite could not open the store (\(error.code))")
      return reading
    }
  }

  private mutating func read(_ table: DittoTable, from store: CoreDataStore) {
    let name: String
    let columns: Set<String>
    do {
      if store.hasPrimaryKeyTable {
        guard let found = store.entity(named: table.entityName)?.table else { return }
        name = found
      } else {
        guard try store.hasTable(table.rawValue) else { return }
        name = table.rawValue
      }
      columns = try store.database.columnNames(of: name)
    } catch {
      problems.append(
        "SQLite could not read the schema of \(table.rawValue) (\(error.extendedCode))")
      return
    }
    guard columns.contains("Z_PK") else { return }
    foundTables.insert(table)
    func column(_ column: String) -> String { columns.contains(column) ? column : "NULL" }
    let quotedName = SQLText.quotedIdentifier(name)
    let sql: String
    switch table {
    case .profile: sql = "SELECT Z_PK FROM \(quotedName)"
    case .category:
      sql =
        "SELECT Z_PK, \(column("ZPROFILE")), \(column("Z_FOK_PROFILE")), \(column("ZTITLE")) FROM \(quotedName)"
    case .ditto:
      sql =
        "SELECT Z_PK, \(column("ZCATEGORY")), \(column("Z_FOK_CATEGORY")), \(column("ZTEXT")), \(column("ZUSE_COUNT")) FROM \(quotedName)"
    }
    do {
      let statement = try store.database.makeStatement(sql: sql)
      defer { statement.reset() }
      while try statement.step() {
        guard let key = statement.optionalInt64(at: 0) else { continue }
        switch table {
        case .profile:
          rows.profiles[key] = ProfileRow(key: key)
        case .category:
          let title = Self.strictText(statement, at: 3)
          if title == nil { damagedCategoryKeys.insert(key) }
          rows.categories[key] = CategoryRow(
            key: key, profile: statement.optionalInt64(at: 1),
            order: statement.optionalInt64(at: 2), title: title ?? nil)
        case .ditto:
          guard let text = Self.strictText(statement, at: 3) else {
            damagedDittoKeys.insert(key)
            continue
          }
          rows.dittos[key] = DittoRow(
            key: key, category: statement.optionalInt64(at: 1),
            order: statement.optionalInt64(at: 2), text: text,
            useCount: statement.optionalInt64(at: 4))
        }
      }
      completeTables.insert(table)
    } catch {
      problems.append("SQLite stopped reading \(table.rawValue) (\(error.extendedCode))")
    }
  }

  /// A text column: `.some(nil)` for NULL, `.some(text)` for valid UTF-8, nil for invalid bytes.
  private static func strictText(_ statement: Statement, at index: Int32) -> String?? {
    guard !statement.isNull(at: index) else { return .some(nil) }
    let bytes = statement.withTextBytes(at: index) { Array($0) }
    guard let text = decodeText(bytes, encoding: .utf8) else { return nil }
    return .some(text)
  }
}
