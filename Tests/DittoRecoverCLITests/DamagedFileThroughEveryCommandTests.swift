import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Each damaged-file case of the salvage suite through every command that reads it: `status`,
/// `recover --dry-run`, `migrate --dry-run`, `extract --salvage` and `salvage` give the same
/// counts (one survey), committed and never committed apart.
@Suite struct DamagedFileThroughEveryCommandTests {
  enum Damage: String, CaseIterable {
    /// 3.0.0 removed the store; its -wal holds every committed row.
    case loneWAL = "lone -wal"
    /// The lone -wal's only commit frame cut off (one byte short).
    case cutWAL = "cut -wal"
    /// The store's first 100 bytes zeroed: SQLite cannot open it.
    case zeroedHeader = "zeroed header"
    /// The store cut to 60% of its pages.
    case truncated = "truncated store"
  }

  static let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 21)

  static func container(_ damage: Damage) throws -> (TemporaryDirectory, String) {
    if damage == .loneWAL || damage == .cutWAL {
      return try OneAnswerPerFileTests.loneWALContainer(
        "damaged", spec: spec, cut: damage == .cutWAL ? 1 : 0)
    }
    let folder = try TemporaryDirectory("damaged")
    let container = folder.appending("group.io.kern.ditto")
    let builder = try ContainerBuilder(root: container)
    let store = builder.path("Ditto.sqlite")
    switch damage {
    case .loneWAL, .cutWAL:
      break
    case .zeroedHeader:
      try builder.writeStore(spec)
      var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
      bytes.replaceSubrange(0..<100, with: [UInt8](repeating: 0, count: 100))
      try bytes.write(to: URL(fileURLWithPath: store))
    case .truncated:
      try builder.writeStore(spec)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
      let pages = bytes.count / 4096
      try bytes.prefix(max(pages * 6 / 10, 2) * 4096).write(to: URL(fileURLWithPath: store))
    }
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    return (folder, container)
  }

  @Test(arguments: Damage.allCases)
  func everyCommandGivesTheSameCounts(damage: Damage) throws {
    let (folder, container) = try Self.container(damage)
    let before = try FileHashes(of: container)
    let target = ["--container", container, "--json"]
    let file =
      container + (damage == .loneWAL || damage == .cutWAL ? "/Ditto.sqlite-wal" : "/Ditto.sqlite")

    let salvage = try ToolRunner.runProcess(["salvage", file, "--json"])
    let rows = (salvage.json?["categories"] as? [[String: Any]] ?? []).flatMap {
      ($0["dittos"] as? [[String: Any]]) ?? []
    }
    let neverCommitted = rows.filter { $0["neverCommitted"] as? Bool == true }.count
    let committed = rows.count - neverCommitted
    #expect(salvage.json?["neverCommitted"] as? Int == neverCommitted, "\(damage)")
    #expect(rows.count > 0, "\(damage): \(salvage.standardError)")

    let status = try ToolRunner.runProcess(["status"] + target)
    let recoverable = try #require(status.json?["recoverable"] as? [String: Any])
    #expect(recoverable["dittos"] as? Int == committed, "\(damage): status")
    #expect(recoverable["neverCommitted"] as? Int == neverCommitted, "\(damage): status")
    #expect(status.json?["hasRecoverableLegacyData"] as? Bool == true)

    let preview = try ToolRunner.runProcess(["recover", "--dry-run"] + target)
    #expect(preview.json?["dittos"] as? Int == committed, "\(damage): recover --dry-run")
    #expect(
      (preview.json?["neverCommitted"] as? Int ?? 0) == neverCommitted,
      "\(damage): recover --dry-run")

    let automatic = try ToolRunner.runProcess(["migrate", "--dry-run"] + target)
    #expect(automatic.json?["outcome"] as? String == "found_unreadable", "\(damage): migrate")
    #expect(
      (automatic.json?["salvageable"] as? Int ?? 0) == committed, "\(damage): migrate --dry-run")
    #expect(
      (automatic.json?["neverCommitted"] as? Int ?? 0) == neverCommitted,
      "\(damage): migrate --dry-run")

    let out = folder.appending("out.dittorecovery")
    let extract = try ToolRunner.runProcess(["extract", "--salvage", "--out", out] + target)
    if committed > 0 {
      #expect(extract.json?["dittos"] as? Int == committed, "\(damage): extract")
      #expect(
        (extract.json?["neverCommittedLeft"] as? Int ?? 0) == neverCommitted, "\(damage): extract")
    } else {
      #expect(extract.exitCode == 65, "\(damage): extract")
      #expect(extract.standardError.contains("--include-never-committed"), "\(damage): extract")
    }
    if neverCommitted > 0 {
      let all = folder.appending("all.dittorecovery")
      let included = try ToolRunner.runProcess(
        [
          "extract", "--include-never-committed", "--out", all,
        ] + target)
      #expect(included.json?["dittos"] as? Int == committed + neverCommitted, "\(damage)")
      #expect(
        (included.json?["recovery"] as? [String: Any])?["neverCommitted"] as? Int
          == neverCommitted)
    }
    #expect(try FileHashes(of: container) == before, "\(damage): nothing changed")
  }
}
