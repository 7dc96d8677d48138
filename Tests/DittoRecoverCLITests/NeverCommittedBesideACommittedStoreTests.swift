import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// A store SQLite reads whose `-wal` also holds a transaction that lost its commit frame: every
/// command imports or exports the committed rows, counts the others the same way, and only
/// `--include-never-committed` imports them, in categories of their own.
@Suite struct NeverCommittedBesideACommittedStoreTests {
  @Test func theCommittedRowsAndTheOthersApart() throws {
    let folder = try TemporaryDirectory("uncommitted")
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 4, seed: 5)
    let build = folder.appending("build")
    try ContainerBuilder(root: build).writeStore(spec, journal: .walOnly)
    let store = UserPath.resolvingFolder(of: build + "/Ditto.sqlite")
    let database = try Database(path: store, mode: .readWrite)
    try database.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    // Many rows in one transaction: its frames span many pages, then its commit frame is cut off.
    try database.execute(
      sql: """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
        INSERT INTO ZDITTO (Z_ENT, Z_OPT, ZCATEGORY, ZTEXT, ZUSE_COUNT, Z_FOK_CATEGORY)
        SELECT 2, 1, 1, 'never committed ' || i || ' ' || hex(randomblob(200)), 0, 100000 + i FROM n
        """)
    let container = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: store + suffix, toPath: container + "/Ditto.sqlite" + suffix)
    }
    try database.close()
    let wal = URL(fileURLWithPath: container + "/Ditto.sqlite-wal")
    let bytes = try Data(contentsOf: wal)
    try bytes.prefix(bytes.count - (4096 + 24)).write(to: wal)
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    let legacy = container + "/Ditto.sqlite"
    let hashes = [legacy, legacy + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
    let target = ["--container", container, "--json"]

    let salvage = try ToolRunner.runProcess(["salvage", legacy, "--json"])
    let extra = try #require(salvage.json?["neverCommitted"] as? Int)
    #expect(extra > 0)
    let status = try ToolRunner.runProcess(["status"] + target)
    let recoverable = try #require(status.json?["recoverable"] as? [String: Any])
    #expect(recoverable["dittos"] as? Int == 8)
    #expect(recoverable["neverCommitted"] as? Int == extra)
    let preview = try ToolRunner.runProcess(["recover", "--dry-run"] + target)
    #expect(preview.json?["dittos"] as? Int == 8)
    #expect(preview.json?["neverCommitted"] as? Int == extra)
    let export = try ToolRunner.runProcess(["export", "--legacy", legacy, "--format", "json"])
    let exported = (export.json?["categories"] as? [[String: Any]] ?? []).flatMap {
      ($0["dittos"] as? [Any]) ?? []
    }
    #expect(exported.count == 8)
    #expect(
      export.standardError.contains("\(extra) more dittos only in -wal frames never committed"))

    let recovered = try ToolRunner.runProcess(["recover", "--include-never-committed"] + target)
    #expect(recovered.exitCode == 0, "\(recovered.standardError)")
    let library = try DittoStoreFile.content(at: container + "/Ditto.store")
    #expect(library.dittoCount == 8 + extra)
    let marked = library.categories.filter { $0.title.hasSuffix(" (never committed)") }
    #expect(marked.reduce(0) { $0 + $1.dittos.count } == extra)
    #expect(
      [legacy, legacy + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) } == hashes)
  }
}
