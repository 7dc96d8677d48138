import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Never "nothing here" while the dittos are one folder away, and one answer per file from every
/// command: each case runs the built `ditto-recover` as a child process, and every legacy file is
/// byte-identical afterwards.
@Suite struct OneAnswerPerFileTests {
  static let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 33)

  /// `path` with its links resolved (on a Mac, and in the Mac layout, TMPDIR is behind a link and
  /// the tool names folders by their resolved path).
  static func real(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// True when `text` names `path`, as given or resolved.
  static func names(_ text: String, _ path: String) -> Bool {
    text.contains(path) || text.contains(real(path))
  }

  /// True when `shown` is `path`, as given or resolved.
  static func same(_ shown: String?, _ path: String) -> Bool {
    shown.map { $0 == path || real($0) == real(path) } ?? false
  }

  /// A container whose store 3.0.0 removed, leaving its `-wal` (every row in it), cut by `cut`
  /// bytes at its end (1: its only commit frame is gone), beside an empty library.
  static func loneWALContainer(_ label: String, spec: LegacyStoreSpec, cut: Int) throws -> (
    TemporaryDirectory, String
  ) {
    let folder = try TemporaryDirectory(label)
    let container = folder.appending("group.io.kern.ditto")
    let builder = try ContainerBuilder(root: container)
    try builder.writeStore(spec, journal: .walOnly)
    for suffix in ["", "-shm"]
    where FileManager.default.fileExists(atPath: builder.path("Ditto.sqlite" + suffix)) {
      try FileManager.default.removeItem(atPath: builder.path("Ditto.sqlite" + suffix))
    }
    if cut > 0 {
      let wal = URL(fileURLWithPath: builder.path("Ditto.sqlite-wal"))
      let bytes = try Data(contentsOf: wal)
      try bytes.prefix(bytes.count - cut).write(to: wal)
    }
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    return (folder, container)
  }

  /// The device sentence, which must never answer a folder whose copy nearby holds the dittos.
  static let deviceSentence = "No legacy dittos were found on this device"

  /// A folder holding `group.io.kern.ditto` (only the app's library in it) and, at `copy`
  /// (relative to the folder), a container copy holding a 2.x store.
  static func layout(copy: String) throws -> (
    folder: TemporaryDirectory, given: String, copy: String
  ) {
    let folder = try TemporaryDirectory("nearby")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    let copyPath = folder.appending(copy)
    try ContainerBuilder(root: copyPath).writeStore(spec)
    _ = try LibraryFixtures.copy(.empty, toFolder: copyPath)
    return (folder, given, copyPath)
  }

  @Test(arguments: [
    "group.io.kern.ditto copy", "group.io.kern.ditto 2", "group.io.kern.ditto (1)",
    "group.io.kern.ditto copy 2", "group.io.kern.ditto Kopie", "Ditto 2026-12-01.xcappdata/AppData",
  ])
  func aCopyBesideTheFolderIsNamedNeverNothing(copy: String) throws {
    let (folder, given, copyPath) = try Self.layout(copy: copy)
    let before = try FileHashes(of: copyPath)
    let defaults = given + "/Library/Preferences/group.io.kern.ditto.plist"

    let status = try ToolRunner.runProcess(["status", "--container", given])
    #expect(status.exitCode == 0)
    #expect(status.standardOutput.hasPrefix("recoverable: nothing in this folder; a copy"))
    #expect(Self.names(status.standardOutput, copyPath))
    #expect(status.standardOutput.contains("15 dittos"))
    #expect(status.standardOutput.contains("next: \(ToolRunner.programAsRun) status --container "))

    let json = try ToolRunner.runProcess(["status", "--container", given, "--json"])
    let copies = try #require(json.json?["nearbyCopies"] as? [[String: Any]])
    #expect(copies.count == 1)
    #expect(Self.same(copies.first?["path"] as? String, copyPath))
    #expect(copies.first?["dittos"] as? Int == 15)
    #expect(
      Self.same((json.json?["recoverable"] as? [String: Any])?["nearbyCopy"] as? String, copyPath))

    for command in [["recover"], ["recover", "--dry-run"], ["migrate"], ["extract"]] {
      let run = try ToolRunner.runProcess(
        command + ["--container", given], currentDirectory: folder.path)
      #expect(run.exitCode == 66, "\(command): \(run.standardError)")
      #expect(!run.standardOutput.contains(Self.deviceSentence), "\(command)")
      #expect(Self.names(run.standardError, copyPath), "\(command)")
      #expect(
        run.standardError.contains(
          "next: \(ToolRunner.programAsRun) \(command.joined(separator: " ")) --container "))
      #expect(run.outcomeLines.isEmpty, "\(command): no attempt ran")
    }
    // Nothing was written: no flag, no library change, no recovery file.
    #expect(!FileManager.default.fileExists(atPath: defaults))
    #expect(try DittoStoreFile.content(at: given + "/Ditto.store").dittoCount == 0)
    #expect(try FileHashes(of: copyPath) == before)

    // The command it printed reads the copy into the folder's own library.
    let stopped = try ToolRunner.runProcess(["recover", "--container", given])
    let next = try #require(
      stopped.standardError.split(separator: "\n").first { $0.hasPrefix("next: ") })
    #expect(next.contains("--library"))
    let words = ["recover", "--container", copyPath, "--library", given + "/Ditto.store"]
    let recovered = try ToolRunner.runProcess(words)
    #expect(recovered.exitCode == 0, "\(recovered.standardError)")
    #expect(try DittoStoreFile.content(at: given + "/Ditto.store").dittoCount == 15)
    #expect(try FileHashes(of: copyPath).preserves(before))
  }

  @Test(arguments: ["zip/group.io.kern.ditto", "a/b/group.io.kern.ditto", "a/b/c"])
  func aContainerTwoOrThreeFoldersDownIsNamed(below: String) throws {
    let folder = try TemporaryDirectory("below")
    let given = folder.appending("download")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: given + "/unrelated/empty", withIntermediateDirectories: true)
    let container = given + "/" + below
    try ContainerBuilder(root: container).writeStore(Self.spec)
    let status = try ToolRunner.runProcess(["status", "--container", given, "--json"])
    let copies = try #require(status.json?["nearbyCopies"] as? [[String: Any]])
    #expect(Self.same(copies.first?["path"] as? String, container), "\(status.standardOutput)")
    #expect(copies.first?["relation"] as? String == "below")
    let dry = try ToolRunner.runProcess(["recover", "--dry-run", "--container", given])
    #expect(dry.exitCode == 66)
    #expect(Self.names(dry.standardError, container))
  }

  /// A folder holding fewer dittos than its copy: `migrate` writes no flag and stops; `recover`
  /// imports what it was given and names the copy.
  @Test func fewerDittosThanACopyNearby() throws {
    let folder = try TemporaryDirectory("fewer")
    let given = folder.appending("group.io.kern.ditto")
    try ContainerBuilder(root: given).writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 3))
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    let copy = folder.appending("group.io.kern.ditto copy")
    try ContainerBuilder(root: copy).writeStore(Self.spec)
    let migrate = try ToolRunner.runProcess(["migrate", "--container", given])
    #expect(migrate.exitCode == 66, "\(migrate.standardError)")
    #expect(Self.names(migrate.standardError, copy))
    #expect(
      !FileManager.default.fileExists(
        atPath: given + "/Library/Preferences/group.io.kern.ditto.plist"))
    let recover = try ToolRunner.runProcess(["recover", "--container", given])
    #expect(recover.exitCode == 0)
    #expect(
      recover.standardError.contains(
        "note: a copy of this container nearby holds dittos this folder does not"))
    #expect(Self.names(recover.standardError, copy))
  }

  /// A lone `-wal` cut one byte before the end of its only commit frame: every command gives the
  /// same answer (no committed ditto; 15 in frames never committed), and only a command asked for
  /// them by name imports them.
  @Test func aCutWALGivesOneAnswerThroughEveryCommand() throws {
    let (folder, container) = try Self.loneWALContainer("cut-wal", spec: Self.spec, cut: 1)
    _ = folder
    let wal = container + "/Ditto.sqlite-wal"
    let before = try FileHashes(of: container)
    let target = ["--container", container]

    let salvage = try ToolRunner.runProcess(["salvage", wal, "--json"])
    let categories = try #require(salvage.json?["categories"] as? [[String: Any]])
    let rows = categories.flatMap { ($0["dittos"] as? [[String: Any]]) ?? [] }
    let neverCommitted = try #require(salvage.json?["neverCommitted"] as? Int)
    #expect(neverCommitted > 0)
    #expect(rows.count == neverCommitted)
    #expect(rows.allSatisfy { $0["neverCommitted"] as? Bool == true })

    let status = try ToolRunner.runProcess(["status"] + target + ["--json"])
    let recoverable = try #require(status.json?["recoverable"] as? [String: Any])
    #expect(recoverable["dittos"] as? Int == 0)
    #expect(recoverable["neverCommitted"] as? Int == neverCommitted)
    #expect(status.json?["hasRecoverableLegacyData"] as? Bool == true)
    let statusText = try ToolRunner.runProcess(["status"] + target)
    #expect(!statusText.standardOutput.contains("no legacy file in any probed place"))
    #expect(
      statusText.standardOutput.contains(
        "\(neverCommitted) dittos only in -wal frames never committed"))

    for command in [["recover", "--dry-run"], ["recover"], ["migrate"]] {
      let run = try ToolRunner.runProcess(command + target + ["--json"])
      #expect(run.json?["outcome"] as? String == "found_unreadable", "\(command)")
      #expect(run.exitCode == 65)
      #expect(run.json?["inserted"] as? Int == 0)
      if command[0] == "recover" {
        #expect(run.json?["neverCommitted"] as? Int == neverCommitted)
        #expect(
          (run.json?["next"] as? [String])?.contains { $0.contains("--include-never-committed") }
            == true)
      }
      #expect(!run.standardError.contains("outcome=nothing_on_disk"))
    }
    #expect(try DittoStoreFile.content(at: container + "/Ditto.store").dittoCount == 0)

    // The CSV the app imports holds no row never committed unless asked for, and then apart.
    let csv = try ToolRunner.runProcess(["salvage", wal, "--format", "csv"])
    #expect(csv.standardOutput.split(separator: "\n").count == 1)
    #expect(csv.standardError.contains("--include-never-committed"))
    let marked = try ToolRunner.runProcess([
      "salvage", wal, "--format", "csv", "--include-never-committed",
    ])
    // Every record's category is marked (texts may hold line breaks: count the marks).
    #expect(
      marked.standardOutput.components(separatedBy: " (never committed)").count - 1
        == neverCommitted)

    let included = try ToolRunner.runProcess(["recover"] + target + ["--include-never-committed"])
    #expect(included.exitCode == 0, "\(included.standardError)")
    #expect(try DittoStoreFile.content(at: container + "/Ditto.store").dittoCount == neverCommitted)
    let legacy = before.entries.filter { $0.key.contains("Ditto.sqlite") }
    #expect(!legacy.isEmpty)
    let after = try FileHashes(of: container)
    #expect(legacy.allSatisfy { after.entries[$0.key] == $0.value })
  }

  /// With only a `-wal` holding dittos on disk, the automatic attempt's tag is found_unreadable:
  /// nothing_on_disk would tell the cohort the data is gone.
  @Test func aLoneWALIsNeverTaggedNothingOnDisk() throws {
    let (folder, container) = try Self.loneWALContainer("lone-wal-tag", spec: Self.spec, cut: 0)
    _ = folder
    let before = try FileHashes(of: container)
    let run = try ToolRunner.runProcess(["migrate", "--container", container])
    #expect(
      run.outcomeLines
        == [
          "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0"
        ],
      "\(run.standardError)")
    #expect(run.exitCode == 65)
    #expect(run.standardOutput.contains("next: \(ToolRunner.programAsRun) recover --container"))
    let after = try FileHashes(of: container)
    #expect(
      before.entries.filter { $0.key.contains("Ditto.sqlite") }.allSatisfy {
        after.entries[$0.key] == $0.value
      })
  }
}
