import SafeFiles

// THE SCHEMA TABLE (https://www.sqlite.org/fileformat2.html#storage_of_the_sql_database_schema)
//
// Page 1 is the root of the table b-tree `sqlite_master`. Each row is a 5-column record:
//
//   COLUMN     TYPE     MEANING
//   type       TEXT     'table', 'index', 'view' or 'trigger'
//   name       TEXT     the object's name
//   tbl_name   TEXT     the table it belongs to
//   rootpage   INTEGER  root page of its b-tree (0 for views and triggers)
//   sql        TEXT     the CREATE statement as written (NULL for automatic indexes)
//
// Salvage needs, per table, its root page and its column list, in declaration order (a record
// stores its values in that order). The column list is parsed minimally from the CREATE TABLE
// text: the part between the first "(" and its matching ")", split at top-level commas; a part
// that starts with CONSTRAINT, PRIMARY, UNIQUE, CHECK or FOREIGN is a table constraint, anything
// else is a column whose first token (unquoted) is its name and whose following words up to the
// first constraint keyword are its declared type. A column declared `INTEGER PRIMARY KEY` is the
// rowid: its record value is NULL and the cell's rowid stands for it.
//
// A row is used only if (1) it decodes as a record of at least 5 values, (2) type, name and sql
// are text and rootpage an integer, and (3) for a table, its column list parses. WITHOUT ROWID
// tables are left out (Core Data never makes them). When page 1 is lost or no row decodes, the
// catalog is empty and the known Ditto layout is used instead.

/// How a column's declared type makes SQLite store values (only what salvage needs).
enum Affinity: Sendable, Equatable {
  case integer, text, blob, real, numeric

  /// SQLite's affinity rules (https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
  init(declaredType: String) {
    let type = declaredType.uppercased()
    if type.contains("INT") {
      self = .integer
    } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
      self = .text
    } else if type.isEmpty || type.contains("BLOB") {
      self = .blob
    } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
      self = .real
    } else {
      self = .numeric
    }
  }
}

/// One column of a table as declared.
struct ColumnSpec: Sendable, Equatable {
  /// The column name, uppercased (SQLite compares names case-insensitively).
  var name: String
  var affinity: Affinity
  /// True for the INTEGER PRIMARY KEY column (stored as NULL; the rowid is its value).
  var isRowidAlias: Bool
}

/// A table: name, columns in record order, root page.
struct TableSpec: Sendable, Equatable {
  /// The table name, uppercased.
  var name: String
  var columns: [ColumnSpec]
  /// Root page from the schema, nil when the schema was not recovered.
  var rootPage: Int?

  /// The position of column `name` (uppercased), nil when the table has no such column.
  func index(of name: String) -> Int? {
    columns.firstIndex { $0.name == name }
  }
}

/// The tables found in `sqlite_master`.
struct SchemaCatalog: Sendable {
  /// Tables by uppercased name.
  var tables: [String: TableSpec] = [:]
  /// Root pages of every b-tree the schema names (tables and indexes).
  var rootPages: [Int] = []

  /// Reads the schema b-tree rooted at page 1.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  static func read(source: PageSource, map: PageMap) throws(FileAccessError) -> SchemaCatalog {
    var catalog = SchemaCatalog()
    let leaves = try TreeWalk.leafPages(root: 1, source: source, map: map)
    for leaf in leaves {
      guard let bytes = try source.page(leaf),
        let page = BTreePage(bytes: bytes, number: leaf, usableSize: source.usableSize)
      else { continue }
      for offset in page.cellOffsets {
        guard let cell = page.tableLeafCell(at: offset),
          let payload = try source.payload(of: cell, accept: { !map.isStructural($0) }),
          let values = Record.decode(payload), values.count >= 5,
          case .text(let typeBytes) = values[0], case .text(let nameBytes) = values[1],
          let root = values[3].integer,
          let type = decodeText(typeBytes, encoding: source.encoding),
          let name = decodeText(nameBytes, encoding: source.encoding)
        else { continue }
        if root > 0, root <= Int64(source.pageCount) { catalog.rootPages.append(Int(root)) }
        guard type == "table", case .text(let sqlBytes) = values[4],
          let sql = decodeText(sqlBytes, encoding: source.encoding),
          !sql.uppercased().contains("WITHOUT ROWID"),
          let columns = parseColumns(createTable: sql)
        else { continue }
        let upper = name.uppercased()
        catalog.tables[upper] = TableSpec(
          name: upper, columns: columns,
          rootPage: root > 0 && root <= Int64(source.pageCount) ? Int(root) : nil)
      }
    }
    return catalog
  }

  // MARK: - CREATE TABLE

  private static let tableConstraintWords: Set<String> = [
    "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN",
  ]
  private static let columnConstraintWords: Set<String> = [
    "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE",
    "REFERENCES", "GENERATED", "AS",
  ]

  /// The columns of a `CREATE TABLE name (…)` statement, nil when no column list is found.
  static func parseColumns(createTable sql: String) -> [ColumnSpec]? {
    let characters = Array(sql)
    guard let open = characters.firstIndex(of: "(") else { return nil }
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quote: Character?
    var closed = false
    for character in characters[(open + 1)...] {
      if let active = quote {
        current.append(character)
        if character == active || (active == "[" && character == "]") { quote = nil }
        continue
      }
      switch character {
      case "\"", "'", "`", "[":
        quote = character
        current.append(character)
      case "(":
        depth += 1
        current.append(character)
      case ")" where depth == 0:
        closed = true
      case ")":
        depth -= 1
        current.append(character)
      case "," where depth == 0:
        parts.append(current)
        current = ""
      default:
        current.append(character)
      }
      if closed { break }
    }
    guard closed else { return nil }
    parts.append(current)
    var columns: [ColumnSpec] = []
    for part in parts {
      let words = splitWords(part)
      guard let first = words.first else { continue }
      if tableConstraintWords.contains(first.uppercased()) { continue }
      let typeWords = words.dropFirst().prefix { !columnConstraintWords.contains($0.uppercased()) }
      let type = typeWords.joined(separator: " ")
      let upperPart = part.uppercased()
      let isAlias = type.uppercased() == "INTEGER" && upperPart.contains("PRIMARY KEY")
      columns.append(
        ColumnSpec(
          name: unquote(first).uppercased(), affinity: Affinity(declaredType: type),
          isRowidAlias: isAlias))
    }
    return columns.isEmpty ? nil : columns
  }

  /// Splits a column definition into words, keeping quoted names and parenthesized groups whole.
  private static func splitWords(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var depth = 0
    for character in text {
      if let active = quote {
        current.append(character)
        if character == active || (active == "[" && character == "]") { quote = nil }
      } else if "\"'`[".contains(character) {
        quote = character
        current.append(character)
      } else if character == "(" {
        depth += 1
        current.append(character)
      } else if character == ")" {
        depth -= 1
        current.append(character)
      } else if character.isWhitespace, depth == 0 {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  private static func unquote(_ word: String) -> String {
    guard let first = word.first, let last = word.last, word.count >= 2 else { return word }
    if (first == "\"" && last == "\"") || (first == "`" && last == "`")
      || (first == "'" && last == "'") || (first == "[" && last == "]")
    {
      return String(word.dropFirst().dropLast())
    }
    return word
  }
}
