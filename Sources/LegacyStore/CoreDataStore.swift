import Foundation
import PropertyLists
import SQLiteDB
import SQLiteSnapshot

// CORE DATA SQLITE STORE (what CoreDataStore relies on; facts in shared/reference/coredata-sqlite-format.md)
//
//   TABLE          COLUMN                        MEANING
//   Z_PRIMARYKEY   Z_ENT, Z_NAME, Z_SUPER, Z_MAX entity number, name, parent entity (0 = root), last key
//   Z_METADATA     Z_VERSION, Z_UUID, Z_PLIST    one row: store UUID; binary plist (NSStoreType, versions)
//   Z<ROOT>        Z_PK, Z_ENT, Z_OPT            one table per hierarchy root; Z_ENT names the concrete entity
//   A<NAME>        (Z_ENT >= 16000)              system entities: persistent history (ACHANGE, ATRANSACTION)
//
//   HEADER OFFSET  SIZE  MEANING
//   18             1     file format write version: 1 = rollback journal, 2 = WAL
//
// A sub-entity has no table of its own: its rows live in its root's table with its own Z_ENT.
// Entity tables are found by name ('Z' + uppercased root name) and confirmed in sqlite_master as tables
// (a view with that name is not accepted). Columns are found with PRAGMA table_info, never by position.

/// How the store's file says it journals (header byte 18).
package enum JournalMode: String, Sendable, Equatable {
  case wal
  case delete
}

/// One row of `Z_PRIMARYKEY`, resolved to the table that holds its rows.
package struct CoreDataEntity: Sendable, Equatable {
  /// The model's entity name, case preserved (`Category`).
  package let name: String
  /// `Z_ENT`: the entity number.
  package let number: Int64
  /// `Z_SUPER`: the parent entity's number, 0 for a root.
  package let superNumber: Int64
  /// `Z_MAX`: the highest primary key handed out in this hierarchy.
  package let maxPrimaryKey: Int64
  /// The table holding this entity's rows (its root's table), nil when no such table exists.
  package let table: String?
}

/// A Core Data SQLite store opened read-only on a private snapshot.
///
/// ```swift
/// let store = try CoreDataStore(path: "/container/Ditto.sqlite")
/// for entity in store.entities { print(entity.name, try store.rowCount(of: entity) ?? 0) }
/// ```
package final class CoreDataStore {
  /// The original file, as given: every error names it.
  package let file: String
  /// The open connection to the snapshot copy.
  package let database: Database
  /// The private copy; removed with the store.
  package let snapshot: StoreSnapshot
  /// Entities from `Z_PRIMARYKEY`, by number. Empty when the table is missing.
  package let entities: [CoreDataEntity]
  /// `Z_METADATA.Z_UUID`, when present.
  package let storeUUID: String?
  /// The database's text encoding (`UTF-8`, `UTF-16le`, `UTF-16be`).
  package var textEncoding: String {
    do {
      return try database.makeStatement(sql: "PRAGMA encoding").scalarText() ?? "UTF-8"
    } catch {
      return "UTF-8"
    }
  }

  /// `NSPersistenceFrameworkVersion` from the metadata plist, when present and readable.
  package var frameworkVersion: Int? { metadataPlist.frameworkVersion }
  /// `NSStoreType` from the metadata plist, when present and readable.
  package var storeType: String? { metadataPlist.storeType }
  /// Decoded on first use only: reading dittos never needs it, and decoding a plist is a
  /// noticeable part of a small store's migration.
  private lazy var metadataPlist: (frameworkVersion: Int?, storeType: String?) =
    hasMetadataTable ? Self.readMetadataPlist(database) : (nil, nil)
  /// When the `-wal` beside the main file is another store's (with it applied, the Core Data store
  /// UUID is not the main file's own: a `-wal` copied or restored beside the wrong file), the
  /// store as that `-wal` makes it, still open on the same snapshot, to count and name; this
  /// store is then the main file alone, the `-wal` not applied. Nil otherwise.
  package private(set) var foreignWAL: CoreDataStore?
  /// True when `Z_PRIMARYKEY` exists.
  package let hasPrimaryKeyTable: Bool
  /// True when `Z_METADATA` exists.
  package let hasMetadataTable: Bool

  /// Opens the store at `path` on a private snapshot, runs `body` with it, and removes the
  /// snapshot when `body` returns or throws (no caller removes it by hand).
  ///
  /// - Throws: ``LegacyStoreError``, from opening or from `body`.
  package static func withSnapshot<Value>(
    of path: String, _ body: (CoreDataStore) throws(LegacyStoreError) -> Value
  ) throws(LegacyStoreError) -> Value {
    try withSnapshot(of: path, mapError: { $0 }, body)
  }

  /// Opens the store at `path` on a private snapshot, runs `body` with it, and removes the
  /// snapshot when `body` returns or throws.
  ///
  /// - Parameter mapError: turns the error of opening into `body`'s error type.
  /// - Throws: `body`'s error, or the opening's through `mapError`.
  package static func withSnapshot<Value, Failure: Error>(
    of path: String, mapError: (LegacyStoreError) -> Failure,
    _ body: (CoreDataStore) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let store: CoreDataStore
    do {
      store = try CoreDataStore(path: path)
    } catch {
      throw mapError(error)
    }
    defer { store.snapshot.remove() }
    return try body(store)
  }

  /// Snapshots and opens the store at `path`.
  ///
  /// - Throws: ``LegacyStoreError``. A database without `Z_PRIMARYKEY` opens (the Ditto reader may still
  ///   find its tables by their conventional names); callers that need Core Data check ``hasPrimaryKeyTable``.
  package init(path: String) throws(LegacyStoreError) {
    file = path
    do {
      snapshot = try StoreSnapshot(of: path)
    } catch {
      throw LegacyStoreError.from(error, file: path)
    }
    do {
      let merged = try snapshot.open(displayName: path)
      // A -wal is applied only to its own database: when the main file alone names another store
      // than the two together, the -wal is another store's, and the main file is read alone.
      if snapshot.hasWAL, let alone = Self.openMainFileAlone(snapshot, displayName: path),
        let aloneUUID = Self.storeUUID(of: alone), let mergedUUID = Self.storeUUID(of: merged),
        aloneUUID != mergedUUID
      {
        database = alone
        foreignWAL = try CoreDataStore(file: path, database: merged, snapshot: snapshot)
      } else {
        database = merged
      }
      let tables = try Self.tableNames(in: database)
      hasPrimaryKeyTable = tables.contains("Z_PRIMARYKEY")
      hasMetadataTable = tables.contains("Z_METADATA")
      entities = hasPrimaryKeyTable ? try Self.readEntities(database, tables: tables) : []
      storeUUID = hasMetadataTable ? try Self.readStoreUUID(database) : nil
    } catch {
      snapshot.remove()
      throw LegacyStoreError.from(error, file: path)
    }
  }

  /// The store `database` shows, on `snapshot` (a foreign `-wal`'s view).
  private init(file: String, database: Database, snapshot: StoreSnapshot) throws(SQLiteError) {
    self.file = file
    self.database = database
    self.snapshot = snapshot
    let tables = try Self.tableNames(in: database)
    hasPrimaryKeyTable = tables.contains("Z_PRIMARYKEY")
    hasMetadataTable = tables.contains("Z_METADATA")
    entities = hasPrimaryKeyTable ? try Self.readEntities(database, tables: tables) : []
    storeUUID = hasMetadataTable ? try Self.readStoreUUID(database) : nil
  }

  /// The snapshot's main file opened alone (SQLite's `immutable`: its `-wal` is not applied), on
  /// our private copy; nil when it cannot be read that way (a store whose tables live only in its
  /// `-wal`).
  private static func openMainFileAlone(_ snapshot: StoreSnapshot, displayName: String)
    -> Database?
  {
    guard let real = realpath(snapshot.directory, nil) else { return nil }
    defer { free(real) }
    let name = snapshot.mainCopy.split(separator: "/").last.map(String.init) ?? ""
    let path = String(cString: real) + "/" + name
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        encoded.append(Character(Unicode.Scalar(byte)))
      default:
        encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    var options = StoreSnapshot.readerOptions
    options.allowsURIFilenames = true
    do {
      return try Database(
        path: "file:" + encoded + "?immutable=1", mode: .readOnly, displayName: displayName,
        options: options)
    } catch {
      return nil
    }
  }

  /// `Z_METADATA.Z_UUID` as `database` shows it; nil when it has none or cannot be read.
  private static func storeUUID(of database: Database) -> String? {
    do {
      guard try tableNames(in: database).contains("Z_METADATA") else { return nil }
      return try readStoreUUID(database)
    } catch {
      return nil
    }
  }

  /// The journal mode recorded in the file header.
  package var journalMode: JournalMode {
    snapshot.header.count > 18 && snapshot.header[18] == 2 ? .wal : .delete
  }

  /// The entity named `name` (case-sensitive, as Core Data stores it).
  package func entity(named name: String) -> CoreDataEntity? {
    entities.first { $0.name == name }
  }

  /// Rows of exactly this entity (`Z_ENT` = its number) with the `-wal` applied; nil when it has no table.
  ///
  /// - Throws: ``LegacyStoreError`` when the table cannot be read.
  package func rowCount(of entity: CoreDataEntity) throws(LegacyStoreError) -> Int? {
    guard let table = entity.table else { return nil }
    do {
      let columns = try database.columnNames(of: table)
      let sql =
        columns.contains("Z_ENT")
        ? "SELECT count(*) FROM \(quoted(table)) WHERE Z_ENT = ?"
        : "SELECT count(*) FROM \(quoted(table))"
      let statement = try database.makeStatement(sql: sql)
      if columns.contains("Z_ENT") { try statement.bind(.integer(entity.number)) }
      return Int(try statement.scalarInt64() ?? 0)
    } catch {
      throw LegacyStoreError.from(error, file: file)
    }
  }

  /// True when a table (not a view) named `name` exists, compared case-insensitively as SQLite does.
  package func hasTable(_ name: String) throws(SQLiteError) -> Bool {
    try Self.tableNames(in: database).contains(name.uppercased())
  }

  // MARK: - Reading the system tables

  static func tableNames(in database: Database) throws(SQLiteError) -> Set<String> {
    let statement = try database.makeStatement(
      sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    var names = Set<String>()
    while try statement.step() {
      if let name = statement.text(at: 0) { names.insert(name.uppercased()) }
    }
    statement.reset()
    return names
  }

  private static func readEntities(_ database: Database, tables: Set<String>)
    throws(SQLiteError) -> [CoreDataEntity]
  {
    let statement = try database.makeStatement(
      sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    var rows: [(number: Int64, name: String, superNumber: Int64, max: Int64)] = []
    while try statement.step() {
      rows.append(
        (
          statement.int64(at: 0), statement.text(at: 1) ?? "", statement.int64(at: 2),
          statement.int64(at: 3)
        ))
    }
    statement.reset()
    let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    return rows.map { row in
      // Follow Z_SUPER to the root. An entity on a cycle (only a hostile file has one) is its own root.
      var root = row
      var seen: Set<Int64> = [row.number]
      while root.superNumber != 0, let parent = byNumber[root.superNumber] {
        guard seen.insert(parent.number).inserted else {
          root = row
          break
        }
        root = parent
      }
      let prefix = root.number >= 16000 ? "A" : "Z"
      let table = prefix + root.name.uppercased()
      return CoreDataEntity(
        name: row.name, number: row.number, superNumber: row.superNumber,
        maxPrimaryKey: row.max, table: tables.contains(table) ? table : nil)
    }
  }

  private static func readStoreUUID(_ database: Database) throws(SQLiteError) -> String? {
    try database.makeStatement(
      sql: "SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"
    ).scalarText()
  }

  /// The metadata plist's framework version and store type; nil for what is missing or unreadable
  /// (the plist is informational only: a store whose metadata plist is damaged is still read).
  private static func readMetadataPlist(_ database: Database) -> (
    frameworkVersion: Int?, storeType: String?
  ) {
    let plist: PropertyListValue
    do {
      let statement = try database.makeStatement(
        sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
      defer { statement.reset() }
      guard try statement.step(), let bytes = statement.blob(at: 0), !bytes.isEmpty else {
        return (nil, nil)
      }
      plist = try PropertyListReader.decode(bytes).value
    } catch {
      return (nil, nil)
    }
    let version = plist["NSPersistenceFrameworkVersion"]?.integer.map { Int($0) }
    return (version, plist["NSStoreType"]?.string)
  }
}

/// `"name"` with embedded quotes doubled: safe to splice a table or column name into SQL.
func quoted(_ identifier: String) -> String {
  SQLText.quotedIdentifier(identifier)
}

@available(*, unavailable)
extension CoreDataStore: Sendable {}
