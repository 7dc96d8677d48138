import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SQLiteDB
import SafeFiles
import StoreFixtures
import Telemetry
import TestSupport
import Testing

/// SQLite files built to mislead: none may crash, hang or execute anything, and each gives a clear outcome.
@Suite struct HostileStoreTests {
  static let primaryKeys = """
    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
    INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 9), (2, 'Ditto', 0, 9), (3, 'Profile', 0, 1);
    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
    INSERT INTO Z_METADATA VALUES (1, 'UUID', x'00');
    \(LegacySchema.profile.createStatement);
    INSERT INTO ZPROFILE VALUES (1, 3, 1);
    """
  static let categoryTable = LegacySchema.category.createStatement + ";"
  static let dittoTable = LegacySchema.ditto.createStatement + ";"

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var pragmas = ""
    var sql: String
    /// The outcome the manual path must give.
    var outcome: MigrationOutcome
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "tables as views",
      sql: primaryKeys + """
        CREATE TABLE real (t);
        CREATE VIEW ZCATEGORY AS SELECT 1 AS Z_PK, 1 AS ZPROFILE, 1 AS Z_FOK_PROFILE, 'x' AS ZTITLE;
        CREATE VIEW ZDITTO AS SELECT 1 AS Z_PK, 1 AS ZCATEGORY, 1 AS Z_FOK_CATEGORY, 'y' AS ZTEXT, 0 AS ZUSE_COUNT;
        """, outcome: .foundUnreadable),
    Case(
      name: "triggers that would write",
      sql: primaryKeys + categoryTable + dittoTable + """
        CREATE TABLE pwned (x);
        CREATE TRIGGER t1 AFTER INSERT ON ZDITTO BEGIN INSERT INTO pwned VALUES (1); END;
        CREATE TRIGGER t2 AFTER UPDATE ON ZDITTO BEGIN INSERT INTO pwned VALUES (2); END;
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 2048, 'Work');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 3, 1, 2048, 'hello');
        DELETE FROM pwned;
        """, outcome: .success),
    Case(
      name: "extra and missing columns",
      sql: primaryKeys + """
        CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, ZEXTRA BLOB, ZPROFILE INTEGER );
        CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, ZTEXT VARCHAR, ZCATEGORY INTEGER, ZMORE TEXT );
        INSERT INTO ZCATEGORY VALUES (1, x'00', 1);
        INSERT INTO ZDITTO VALUES (1, 'kept', 1, 'z'), (2, 'also kept', 1, NULL);
        """, outcome: .success),
    Case(
      name: "no ZTEXT column",
      sql: primaryKeys + categoryTable
        + "CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, ZCATEGORY INTEGER ); INSERT INTO ZDITTO VALUES (1, 1);",
      outcome: .foundUnreadable),
    Case(
      name: "wrong column types and invalid UTF-8",
      sql: primaryKeys + categoryTable + dittoTable + """
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 'not a number', x'FFFE');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 'twelve', 1, 2048, x'68656C6C6F');
        INSERT INTO ZDITTO VALUES (2, 2, 1, 3.7, 1, 3072, CAST(x'61FF62' AS TEXT));
        INSERT INTO ZDITTO VALUES (3, 2, 1, x'01', 1, 'x', 42);
        """, outcome: .success),
    Case(
      name: "an enormous text",
      sql: primaryKeys + categoryTable + dittoTable + """
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 2048, 'Big');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 0, 1, 2048, printf('%.*c', 10000000, 'x'));
        """, outcome: .success),
    Case(
      name: "cycles and dangling references",
      sql: """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 2, 9), (2, 'Ditto', 1, 9), (3, 'Profile', 3, 1);
        CREATE TABLE ZPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER );
        INSERT INTO ZPROFILE VALUES (1, 3, 1);
        """ + categoryTable + dittoTable + """
          INSERT INTO ZCATEGORY VALUES (1, 1, 1, 99, 2048, 'dangling profile'), (2, 1, 1, 2, 2048, 'self');
          INSERT INTO ZDITTO VALUES (1, 2, 1, 0, 77, 2048, 'dangling category'), (2, 2, 1, 0, 2, 2048, 'ok');
          """, outcome: .success),
    Case(
      name: "duplicate Z_PKs without a primary key",
      sql: primaryKeys + """
        CREATE TABLE ZCATEGORY ( Z_PK INTEGER, Z_ENT INTEGER, ZPROFILE INTEGER, Z_FOK_PROFILE INTEGER, ZTITLE VARCHAR );
        CREATE TABLE ZDITTO ( Z_PK INTEGER, ZUSE_COUNT INTEGER, ZCATEGORY INTEGER, Z_FOK_CATEGORY INTEGER, ZTEXT VARCHAR );
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 2048, 'A'), (1, 1, 1, 3072, 'A again');
        INSERT INTO ZDITTO VALUES (1, 0, 1, 2048, 'one'), (1, 0, 1, 2048, 'one'), (2, 0, 1, 3072, 'two');
        """, outcome: .success),
    Case(
      name: "UTF-16 encoding and 64 KiB pages",
      pragmas: "PRAGMA encoding = 'UTF-16le'; PRAGMA page_size = 65536;",
      sql: primaryKeys + categoryTable + dittoTable + """
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 2048, 'Ünïcödé 🚗');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 5, 1, 2048, '日本語 ✓');
        """, outcome: .success),
    Case(
      name: "512-byte pages", pragmas: "PRAGMA page_size = 512;",
      sql: primaryKeys + categoryTable + dittoTable + """
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 2048, 'Small pages');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 5, 1, 2048, printf('%.*c', 5000, 'y'));
        """, outcome: .success),
    Case(
      name: "a generated column calling functions",
      sql: primaryKeys + categoryTable + """
        CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, ZCATEGORY INTEGER, Z_FOK_CATEGORY INTEGER,
          ZTEXT TEXT GENERATED ALWAYS AS (hex(zeroblob(40000000))) VIRTUAL );
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 2048, 'Gen');
        INSERT INTO ZDITTO (Z_PK, ZCATEGORY, Z_FOK_CATEGORY) VALUES (1, 1, 2048);
        """, outcome: .foundUnreadable),
  ]

  func build(_ hostile: Case, at path: String) throws {
    let database = try Database(
      path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate,
      options: Database.Options(maximumValueBytes: 200 << 20))
    if !hostile.pragmas.isEmpty { try database.execute(sql: hostile.pragmas) }
    try database.execute(sql: hostile.sql)
    try database.close()
  }

  @Test(arguments: cases)
  func hostileStoresGiveAClearOutcome(hostile: Case) throws {
    let folder = try TemporaryDirectory("hostile-store")
    let container = folder.appending("device")
    let builder = try ContainerBuilder(root: container)
    try build(hostile, at: builder.path("Ditto.sqlite"))
    let before = try FileHashes(of: container)
    let log = InMemoryLogHandler()
    let library = try LibraryFixtures.copy(.empty, toFolder: folder.appending("library"))
    let migrator = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), library: library, logger: log.logger)
    let preview = migrator.recoverNowBlocking(dryRun: true)
    let report = migrator.recoverNowBlocking()
    #expect(report.outcome == hostile.outcome, "\(hostile.name): \(report.errorDescription ?? "")")
    if hostile.outcome == .foundUnreadable {
      #expect(report.errorDescription?.contains(builder.path("Ditto.sqlite")) == true)
    } else {
      #expect(preview.counts.inserted == report.counts.inserted, "\(hostile.name): preview differs")
    }
    #expect(log.outcomeLines.count == 1)
    let after = try FileHashes(of: container)
    #expect(after.changes(since: before).isEmpty, "\(hostile.name) changed the store")
    // Nothing the file's schema holds was executed.
    let check = try Database(
      path: UserPath.resolvingFolder(of: builder.path("Ditto.sqlite")), mode: .readOnly)
    if try check.makeStatement(sql: "SELECT count(*) FROM sqlite_master WHERE name = 'pwned'")
      .scalarInt64() == 1
    {
      #expect(try check.makeStatement(sql: "SELECT count(*) FROM pwned").scalarInt64() == 0)
    }
  }

  @Test func wrongTypesAreConvertedNotDropped() throws {
    let folder = try TemporaryDirectory("types")
    let container = folder.appending("device")
    let builder = try ContainerBuilder(root: container)
    try build(Self.cases[4], at: builder.path("Ditto.sqlite"))
    let libraryPath = try LibraryFixtures.copy(.empty, toFolder: container)
    let report = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), logger: .disabled
    ).recoverNowBlocking()
    #expect(report.counts.inserted == 3)
    let library = try DittoStoreFile.content(at: libraryPath)
    #expect(library.categories.first?.dittos.map(\.useCount) == [0, 3, 0])
    #expect(library.categories.first?.dittos.first?.text == "hello")
  }

  @Test func aHeaderClaimingAHugeSizeIsHandled() throws {
    let folder = try TemporaryDirectory("huge")
    let path = folder.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 1), to: path)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes.replaceSubrange(28..<32, with: [0x7F, 0xFF, 0xFF, 0xFF])  // database size in pages
    bytes.replaceSubrange(16..<18, with: [0x00, 0x01])  // page size 65536 claimed
    try bytes.write(to: URL(fileURLWithPath: path))
    do {
      let library = try LegacyStoreReader.read(path: path)
      #expect(library.dittoCount <= 2)
    } catch {
      #expect(!error.description.isEmpty)
    }
  }
}
