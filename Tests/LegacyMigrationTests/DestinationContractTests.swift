import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import PropertyLists
import SQLiteDB
import SafeFiles
import StoreFixtures
import Telemetry
import Testing

/// The engine against the destination and flag-store protocols: a library's error is never a
/// legacy-read error, and the flag policy follows the outcome.
@Suite struct DestinationContractTests {
  /// A 2.x store in UTF-16 (or UTF-8): the same rows, both text encodings SQLite stores.
  static func writeUTF16Store(at path: String, encoding: String = "UTF-16le") throws {
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try database.execute(
      sql: """
        PRAGMA encoding = '\(encoding)';
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Category', 0, 2), (2, 'Ditto', 0, 3), (3, 'Profile', 0, 1);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        INSERT INTO Z_METADATA VALUES (1, 'UUID', x'00');
        CREATE TABLE ZPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER );
        INSERT INTO ZPROFILE VALUES (1, 3, 1);
        CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPROFILE INTEGER, Z_FOK_PROFILE INTEGER, ZTITLE VARCHAR );
        CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSE_COUNT INTEGER, ZCATEGORY INTEGER, Z_FOK_CATEGORY INTEGER, ZTEXT VARCHAR );
        INSERT INTO ZCATEGORY VALUES (1, 1, 1, 1, 1024, 'Work'), (2, 1, 1, 1, 2048, 'Caf\u{E9}');
        INSERT INTO ZDITTO VALUES (1, 2, 1, 0, 1, 1024, 'hello'), (2, 2, 1, 4, 1, 2048, 'world'),
          (3, 2, 1, 0, 2, 1024, '\u{1F600}');
        """)
    try database.close()
  }

  @Test(arguments: ["UTF-16le", "UTF-8"])
  func aDestinationThatRejectsEveryInsertIsALibraryErrorNeverUnreadable(encoding: String) throws {
    let folder = try TemporaryDirectory("utf16")
    try Self.writeUTF16Store(at: folder.path + "/Ditto.sqlite", encoding: encoding)
    let before = try FileHashes(of: folder.path)
    let destination = InMemoryDestination()
    destination.failure = DestinationError(
      .writeFailed, file: "Ditto.store", reason: "every insert rejected")
    let flags = InMemoryFlagStore()
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: folder.path), destination: destination, flags: flags,
      legacyDefaults: nil, logger: log.logger)
    let report = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
    #expect(report.outcome == .libraryError)
    #expect(report.readError == nil)
    #expect(report.destinationError?.kind == .writeFailed)
    #expect(flags.flags == MigrationFlags())
    #expect(flags.writes == 0)
    #expect(destination.categories.isEmpty)
    #expect(log.outcomeLines.count == 1)
    #expect(log.outcomeLines.first?.contains("outcome=library_error") == true)
    #expect(try FileHashes(of: folder.path).changes(since: before).isEmpty)
  }

  @Test func theSameStoreIntoAWorkingDestinationSucceedsAndSetsTheFlag() throws {
    let folder = try TemporaryDirectory("utf16-ok")
    try Self.writeUTF16Store(at: folder.path + "/Ditto.sqlite")
    let destination = InMemoryDestination()
    let flags = InMemoryFlagStore()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: folder.path), destination: destination, flags: flags,
      legacyDefaults: nil, logger: InMemoryLogHandler().logger)
    let report = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
    #expect(report.outcome == .success)
    #expect(report.counts.inserted == 3)
    #expect(destination.hasProfile)
    #expect(destination.contents.map(\.0) == ["Work", "Caf\u{E9}"])
    #expect(destination.contents.first?.1 == ["hello", "world"])
    #expect(flags.flags.isComplete)
    #expect(migrator.migrateIfNeededBlocking().attemptedReport == nil)
  }

  @Test func anUnreadableStoreCountsAttemptsAndNeverReachesTheDestination() throws {
    let folder = try TemporaryDirectory("garbage")
    let builder = try ContainerBuilder(root: folder.path)
    try builder.writeGarbage(count: 8192, seed: 3, at: "Ditto.sqlite")
    let destination = InMemoryDestination()
    let flags = InMemoryFlagStore()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: folder.path), destination: destination, flags: flags,
      legacyDefaults: nil, logger: InMemoryLogHandler().logger)
    for attempt in 1...3 {
      let report = try #require(migrator.migrateIfNeededBlocking().attemptedReport)
      #expect(report.outcome == .foundUnreadable)
      #expect(report.attempts == attempt)
    }
    #expect(flags.flags == MigrationFlags(isComplete: true, attempts: 3))
    #expect(destination.applied == 0)
  }

  @Test func flagPolicyLeavesLibraryErrorsAndEveryTransientFailureAlone() {
    let none = MigrationFlags()
    #expect(FlagPolicy.flags(after: .libraryError, transientReason: nil, current: none) == nil)
    for reason in TransientReason.allCases {
      for outcome in MigrationOutcome.allCases {
        #expect(
          FlagPolicy.flags(after: outcome, transientReason: reason, current: none) == nil,
          "\(outcome) \(reason)")
      }
    }
    #expect(
      FlagPolicy.flags(after: .foundUnreadable, transientReason: nil, current: none)
        == MigrationFlags(isComplete: false, attempts: 1))
    #expect(
      FlagPolicy.flags(
        after: .foundUnreadable, transientReason: nil, current: MigrationFlags(attempts: 2))
        == MigrationFlags(isComplete: true, attempts: 3))
    for outcome in [MigrationOutcome.success, .noNewData, .emptyStore, .nothingOnDisk] {
      #expect(
        FlagPolicy.flags(after: outcome, transientReason: nil, current: none)?.isComplete == true)
    }
  }

  @Test func userDefaultsStoreKeepsFlagsAndReadsLegacyKeys() throws {
    let suite = "io.kern.ditto.tests.\(UUID().uuidString)"
    let store = try #require(UserDefaultsStore(suiteName: suite))
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    #expect(try store.readFlags() == MigrationFlags())
    #expect(try store.legacyValues() == nil)
    defaults.set(["one", "two"], forKey: "dittos")
    defaults.set("kept", forKey: "unrelated")
    try store.writeFlags(MigrationFlags(isComplete: false, attempts: 2))
    #expect(try store.readFlags() == MigrationFlags(isComplete: false, attempts: 2))
    try store.writeFlags(MigrationFlags(isComplete: true, attempts: 2))
    #expect(defaults.bool(forKey: AppGroupDefaults.completionKey))
    #expect(defaults.string(forKey: "unrelated") == "kept")
    let values = try #require(try store.legacyValues())
    #expect(values["dittos"] == ["one", "two"])
    #expect(values["unrelated"] == nil)
    let content = DefaultsLegacyContent(values: values)
    #expect(content.version1.first?.title == DefaultsLegacyContent.generalTitle)
    #expect(content.version1.first?.dittos.map(\.text) == ["one", "two"])
  }

  @Test func whatUserDefaultsAnswersBecomesPropertyListValuesNeverAGuessedType() {
    let answered: [Any] = ["a", 1, 2.5, true, ["k": Data([1, 2])], Date(timeIntervalSince1970: 0)]
    #expect(
      PropertyListValue(userDefaultsValue: answered)
        == .array([
          .string("a"), .integer(1), .real(2.5), .bool(true), .dictionary(["k": .data([1, 2])]),
          .date(Date(timeIntervalSince1970: 0)),
        ]))
    #expect(PropertyListValue(userDefaultsValue: NSNumber(value: 7)) == .integer(7))
    // Nothing a property list holds: the value cannot be read (never taken for "not set").
    #expect(PropertyListValue(userDefaultsValue: ["ok", NSObject()] as [Any]) == nil)
  }
}

extension LegacyDataMigrator.AutomaticMigration {
  /// The report, when an attempt ran.
  var attemptedReport: MigrationReport? {
    if case .attempted(let report) = self { return report }
    return nil
  }

}
