import EngineTestSupport
import LegacyStore
import SQLiteDB
import Testing

/// The one definition of the 2.x tables is what Core Data wrote in the stores made outside this
/// repository: the same DDL, entity numbers and names.
@Suite struct LegacySchemaTests {
  @Test(arguments: TestFixtures.dittoStores)
  func theDefinitionIsWhatCoreDataWrote(name: String) throws {
    let store = try CoreDataStore(path: TestFixtures.path("ditto-2x/\(name)/Ditto.sqlite"))
    defer { store.snapshot.remove() }
    var statements: [String] = []
    try store.database.makeStatement(sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")
      .forEachRow { row in statements.append(row.text(at: 0) ?? "") }
    for statement in LegacySchema.createStatements {
      #expect(statements.contains(statement), "\(name): \(statement)")
    }
    for table in LegacySchema.tables {
      let entity = store.entities.first { $0.name == table.entity }
      #expect(entity?.number == table.entityNumber, "\(name): \(table.entity)")
      #expect(entity?.table == table.name, "\(name): \(table.entity)")
    }
  }

  @Test func eachTableHasItsKeyAndText() {
    #expect(LegacySchema.ditto.columnNames.contains(LegacySchema.categoryKey))
    #expect(LegacySchema.category.columnNames.contains(LegacySchema.profileKey))
    #expect(LegacySchema.ditto.textColumns == ["ZTEXT"])
    #expect(LegacySchema.category.textColumns == ["ZTITLE"])
    #expect(Set(LegacySchema.tables.map(\.entityNumber)).count == 3)
  }
}
