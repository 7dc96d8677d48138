import LibraryMerge
import SQLiteDB

// What makes a file a Ditto 3.x store this module reads and writes (StoreLayout.swift has the
// format). Each check either refuses the file (it cannot be read as a Ditto library: thrown) or
// notes a write problem (it reads, but an import would be refused: `writeProblems`).

extension StoreLayout {
  /// The tables, views and triggers of `sqlite_master`; refuses a file without Core Data's tables.
  static func readSchemaObjects(_ inspection: inout Inspection) throws {
    let master = try inspection.database.makeStatement(
      sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')")
    while try master.step() {
      guard let name = master.text(at: 1)?.uppercased() else { continue }
      switch master.text(at: 0) {
      case "view": inspection.views.insert(name)
      case "trigger": inspection.triggers += 1
      default: inspection.tables.insert(name)
      }
    }
    master.reset()
    let missing = ["Z_PRIMARYKEY", "Z_METADATA"].filter { !inspection.tables.contains($0) }
    if !missing.isEmpty {
      throw inspection.refuse(
        "not a Core Data store (no \(missing.joined(separator: " or ")) table), so not a Ditto 3.x library"
      )
    }
    if inspection.triggers > 0 {
      // Core Data makes no triggers for Ditto's model; one would run inside our inserts.
      inspection.writeProblems.append(
        "the schema has \(inspection.triggers) trigger(s) the app's model does not")
    }
  }

  /// The rows of `Z_PRIMARYKEY`; refuses a table without Core Data's columns.
  static func readEntities(_ inspection: inout Inspection) throws {
    let missing = primaryKeyColumns.subtracting(try inspection.columns(of: "Z_PRIMARYKEY")).sorted()
    if !missing.isEmpty {
      throw inspection.refuse(
        "not a Core Data store (Z_PRIMARYKEY has no column \(missing.joined(separator: ", ")))")
    }
    let rows = try inspection.database.makeStatement(
      sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    while try rows.step() {
      inspection.entities.append(
        EntityRow(
          number: rows.int64(at: 0), name: rows.text(at: 1) ?? "", superNumber: rows.int64(at: 2),
          max: rows.optionalInt64(at: 3) ?? 0))
    }
    rows.reset()
  }

  /// The three Ditto entities: refuses a store without them (naming a 2.x store as such); notes
  /// repeated, foreign or derived entities.
  static func checkEntities(_ inspection: inout Inspection) throws -> (
    profile: EntityRow, category: EntityRow, item: EntityRow
  ) {
    let entities = inspection.entities
    let names = ["Profile", "DittoCategory", "DittoItem"]
    let missing = names.filter { name in !entities.contains { $0.name == name } }
    if !missing.isEmpty {
      var reason =
        "not a Ditto 3.x store: Z_PRIMARYKEY has no entity \(missing.joined(separator: ", "))"
      if entities.contains(where: { $0.name == "Ditto" || $0.name == "Category" }) {
        reason += " (it looks like a Ditto 2.x store)"
      }
      throw inspection.refuse(reason)
    }
    for name in names where entities.filter({ $0.name == name }).count > 1 {
      inspection.writeProblems.append("Z_PRIMARYKEY names entity \(name) more than once")
    }
    for entity in entities where entity.number < 16000 && !names.contains(entity.name) {
      inspection.writeProblems.append(
        "Z_PRIMARYKEY names an entity the app does not have (Z_ENT \(entity.number))")
    }
    func row(_ name: String) -> EntityRow {
      entities.first { $0.name == name } ?? EntityRow(number: 0, name: name, superNumber: 0, max: 0)
    }
    let rows = (profile: row("Profile"), category: row("DittoCategory"), item: row("DittoItem"))
    for entity in [rows.profile, rows.category, rows.item] where entity.superNumber != 0 {
      inspection.writeProblems.append(
        "entity \(entity.name) has a parent entity (Z_SUPER \(entity.superNumber))")
    }
    return rows
  }

  /// The entity tables: refuses a missing table (or a view in its place) or a missing column;
  /// notes columns the app's model does not have.
  static func checkEntityTables(_ inspection: inout Inspection) throws {
    for (table, expected) in [
      ("ZPROFILE", profileColumns), ("ZDITTOCATEGORY", categoryColumns),
      ("ZDITTOITEM", itemColumns),
    ] {
      guard inspection.tables.contains(table) else {
        throw inspection.refuse(
          inspection.views.contains(table)
            ? "not a Ditto 3.x store: \(table) is a view, not a table"
            : "not a Ditto 3.x store: table \(table) is missing")
      }
      let found = try inspection.columns(of: table)
      let missing = expected.subtracting(found).sorted()
      if !missing.isEmpty {
        throw inspection.refuse(
          "not a Ditto 3.x store: table \(table) has no column \(missing.joined(separator: ", "))")
      }
      let unknown = found.subtracting(expected).sorted()
      if !unknown.isEmpty {
        inspection.writeProblems.append(
          "table \(table) has columns the app's model does not: \(unknown.joined(separator: ", "))")
      }
    }
  }

  /// The persistent-history tables: all three with the columns we write, or none; notes a partial
  /// or incomplete set.
  ///
  /// - Returns: whether history is kept, and `ACHANGE`'s columns.
  static func checkHistory(_ inspection: inout Inspection) throws -> (
    Bool, Set<String>, Set<String>
  ) {
    let historyTables = historyColumns.keys.sorted()
    let present = historyTables.filter { inspection.tables.contains($0) }
    guard present.count == historyTables.count else {
      if !present.isEmpty {
        inspection.writeProblems.append(
          "only some persistent-history tables exist (\(present.joined(separator: ", ")))")
      }
      return (false, [], [])
    }
    var hasHistory = true
    var changeColumns = Set<String>()
    var transactionColumns = Set<String>()
    for table in historyTables {
      let found = try inspection.columns(of: table)
      if table == "ACHANGE" { changeColumns = found }
      if table == "ATRANSACTION" { transactionColumns = found }
      let missing = (historyColumns[table] ?? []).subtracting(found).sorted()
      if !missing.isEmpty {
        hasHistory = false
        inspection.writeProblems.append(
          "history table \(table) has no column \(missing.joined(separator: ", "))")
      }
    }
    return (hasHistory, changeColumns, transactionColumns)
  }
}
