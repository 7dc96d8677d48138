import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles
import StoreFixtures
import Testing

/// History as Core Data writes a save, iCloud stores without a Profile, and the check before the
/// commit.
@Suite struct HistoryAndChecksTests {
  static let sources = ImportTests.sources

  @Test(arguments: Fixtures.names)
  func theTransactionNamesOurBundleAndProcessAsCoreDataDoes(name: String) throws {
    let folder = try TemporaryDirectory("history-columns")
    let store = try Fixtures.copy(name, into: folder)
    let destination = DittoStoreDestination(path: store)
    _ = try destination.merge(Self.sources)
    let transaction = try #require(destination.lastReceipt()?.historyTransactionID)
    let database = try openStore(store)
    #expect(
      try rows(
        database,
        """
        SELECT a.ZNAME, b.ZNAME, p.ZNAME, t.ZCONTEXTNAMETS, t.ZQUERYGEN, t.ZAUTHOR, t.ZBUNDLEID,
          t.ZCONTEXTNAME, t.ZPROCESSID, t.Z_OPT
        FROM ATRANSACTION t
          JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
          JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
          JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
        WHERE t.Z_PK = \(transaction)
        """)
        == [
          [
            "t:ditto-recover", "t:io.kern.ditto-recover", "t:ditto-recover", "NULL", "NULL", "NULL",
            "NULL", "NULL", "NULL", "NULL",
          ]
        ])
    // Interned once: a second import reuses the strings.
    _ = try DittoStoreDestination(path: store).merge([
      MergeSource(
        kind: "v1", categories: [MergeCategory(title: "Again", dittos: [.init(text: "z")])])
    ])
    #expect(
      try scalar(
        database,
        "SELECT count(*) FROM ATRANSACTIONSTRING WHERE ZNAME IN ('ditto-recover', 'io.kern.ditto-recover')"
      ) == 2)
  }

  @Test func aStoreFromAPhoneWhoseClockRanAheadKeepsItsHistoryInOrder() throws {
    let folder = try TemporaryDirectory("history-clock")
    let store = try Fixtures.copy("presets", into: folder)
    // The latest transaction three days ahead of this machine's clock.
    let writer = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWrite)
    let latest = try #require(
      try rows(writer, "SELECT max(ZTIMESTAMP) FROM ATRANSACTION").first?.first
        .flatMap { Double($0.dropFirst(2)) })
    let ahead = max(latest, pinnedNow) + 86_400 * 3
    try writer.execute(
      sql:
        "UPDATE ATRANSACTION SET ZTIMESTAMP = \(ahead) WHERE Z_PK = (SELECT max(Z_PK) FROM ATRANSACTION)"
    )
    try writer.close()
    let destination = DittoStoreDestination(path: store, now: { pinnedNow })
    _ = try destination.merge(Self.sources)
    let transaction = try #require(destination.lastReceipt()?.historyTransactionID)
    let database = try openStore(store)
    let stamp = try #require(
      try rows(database, "SELECT ZTIMESTAMP FROM ATRANSACTION WHERE Z_PK = \(transaction)")
        .first?.first.flatMap { Double($0.dropFirst(2)) })
    #expect(abs(stamp - (ahead + 0.001)) < 1e-6)
    #expect(
      try scalar(
        database,
        "SELECT count(*) FROM ATRANSACTION WHERE ZTIMESTAMP >= \(stamp) AND Z_PK <> \(transaction)"
      ) == 0)
  }

  @Test(arguments: [true, false])
  func aStoreWithoutAProfileGetsOneOnlyWithoutICloudTables(iCloud: Bool) throws {
    let folder = try TemporaryDirectory("no-profile")
    let store = folder.appending("Ditto.store")
    var spec = SwiftDataStoreSpec(profiles: 0, categories: [])
    spec.hasCloudKitTables = iCloud
    try SwiftDataStoreWriter.write(spec, to: store)
    let before = try FileHashes(of: folder.path)
    let destination = DittoStoreDestination(path: store)
    do {
      _ = try destination.merge(Self.sources)
      #expect(!iCloud, "a Profile was made in a store that waits for iCloud")
      #expect(destination.lastReceipt()?.createdProfileID != nil)
    } catch {
      #expect(iCloud, "\(error)")
      guard case .library(let problem) = error.reason else {
        Issue.record("\(error)")
        return
      }
      #expect(problem.kind == .refused)
      #expect(problem.reason == DittoStoreFile.awaitingICloudReason)
      #expect(problem.cause == .awaitingICloud)
      #expect(try FileHashes(of: folder.path) == before)
    }
  }

  /// An unused page at the end of the file: SQLite's integrity_check says so, and the import that
  /// would have been committed is rolled back (`library_error`), the store as it was.
  @Test func aLibraryThatFailsItsIntegrityCheckIsRolledBack() throws {
    let folder = try TemporaryDirectory("integrity-check")
    let store = try Fixtures.copy("presets", into: folder)
    let checkpoint = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWrite)
    try checkpoint.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    let pageSize = try #require(
      try checkpoint.makeStatement(sql: "PRAGMA page_size").scalarInt64())
    try checkpoint.close()
    // Append one zeroed page and count it in the header (offset 28: pages; 92: valid-for = 24).
    let handle = try #require(FileHandle(forUpdatingAtPath: store))
    let size = try handle.seekToEnd()
    try handle.write(contentsOf: Data(count: Int(pageSize)))
    try handle.seek(toOffset: 24)
    let header = try #require(try handle.read(upToCount: 8))
    let pages = UInt32(size / UInt64(pageSize)) + 1
    try handle.seek(toOffset: 28)
    try handle.write(contentsOf: withUnsafeBytes(of: pages.bigEndian) { Data($0) })
    try handle.seek(toOffset: 92)
    try handle.write(contentsOf: header.prefix(4))
    try handle.close()
    let content = try DittoStoreFile.content(at: store)
    let destination = DittoStoreDestination(path: store)
    expectRefusedAsDamaged(destination)
    #expect(try DittoStoreFile.content(at: store) == content)
    #expect(destination.lastReceipt() == nil)
  }

  /// An index that disagrees with its table (found by the `ditto-store` fuzz target: one changed
  /// byte in an index page), made with ``DamagedIndex``: `ZDITTOITEM_ZCATEGORY_INDEX` built on
  /// `ZUSECOUNT`, declared on `ZCATEGORY`. Lookups by category then miss the dittos that are there,
  /// so the import would add "What's the address?" to Driving a second time. quick_check does not
  /// compare indexes with tables and says ok; the integrity_check before the first write does not,
  /// and the import is rolled back, the files byte-identical.
  @Test func aLibraryWhoseIndexDisagreesWithItsTableIsRolledBack() throws {
    let folder = try TemporaryDirectory("damaged-index")
    let store = try Fixtures.copy("presets", into: folder)
    try DamagedIndex.make(
      "ZDITTOITEM_ZCATEGORY_INDEX", of: "ZDITTOITEM", declared: "ZCATEGORY", builtOn: "ZUSECOUNT",
      in: store)
    let check = try openStore(store)
    #expect(try check.makeStatement(sql: "PRAGMA quick_check").scalarText() == "ok")
    try check.close()
    let before = try FileHashes(of: folder.path)
    let destination = DittoStoreDestination(path: store)
    expectRefusedAsDamaged(destination)
    #expect(try FileHashes(of: folder.path) == before)
    #expect(destination.lastReceipt() == nil)
  }

  /// The import stops with "the library is damaged" (integrity_check), the library's error.
  private func expectRefusedAsDamaged(
    _ destination: DittoStoreDestination, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      _ = try destination.merge(Self.sources)
    } throws: { error in
      guard case .library(let problem) = (error as? ImportFailure)?.reason else { return false }
      return problem.kind == .readFailed && problem.reason.contains("integrity_check")
    }
  }
}
