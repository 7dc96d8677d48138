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
@Suite struct OneTrueAnswerTests {
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
      return try OneTrueAnswerTests.loneWALContainer(
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

/// `outcomes` through the built binary over one capture of three tags saved six ways: every tag
/// read, nothing counted as unreadable, the verdict complete.
@Suite struct CaptureFormsThroughTheToolTests {
  static let lines: [String] = {
    let prefix =
      "0x2f1a0c   Default     0x0                  812    0    Ditto: [io.kern.ditto:LegacyDataMigrator] "
    let tags = [
      "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0",
      "migration_outcome source=manual outcome=success categories=4 dittos=28 inserted=28 salvaged=28",
      "migration_outcome source=manual outcome=no_new_data categories=4 dittos=28 inserted=0",
    ]
    return [
      "Timestamp                       Thread     Type        Activity             PID    TTL  "
    ]
      + tags.enumerated().map {
        "2026-11-30 08:0\($0.offset + 1):00.000001-0800 " + prefix + $0.element
      }
  }()

  /// Hard wrap at `width`, cutting words.
  static func fold(_ width: Int) -> String {
    lines.flatMap { line -> [String] in
      stride(from: 0, to: line.count, by: width).map {
        String(line.dropFirst($0).prefix(width))
      }
    }.joined(separator: "\n") + "\n"
  }

  static var forms: [String: [UInt8]] {
    let ends = ["\n", "\r", "\r\n"]
    let rtfBody = lines.map {
      $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "{", with: "\\{")
        .replacingOccurrences(of: "}", with: "\\}")
    }.joined(separator: "\\\n")
    // The tag word cut in the middle: the wrap falls inside "migration_outcome".
    let cut = lines[1].range(of: "migration_out")!.upperBound.utf16Offset(in: lines[1])
    return [
      "cr-only.log": Array((lines.joined(separator: "\r") + "\r").utf8),
      "mixed.log": Array(lines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined().utf8),
      "textedit.rtf": Array(
        ("{\\rtf1\\ansi\\ansicpg1252\\cocoartf2761\n{\\fonttbl\\f0\\fmodern\\fcharset0 Courier;}\n{\\colortbl;\\red255\\green255\\blue255;}\n\\pard\\f0\\fs24 \\cf0 "
          + rtfBody + "}").utf8),
      "wrapped-100.log": Array(fold(100).utf8),
      "wrapped-72.log": Array(fold(72).utf8),
      "tag-split.log": Array(fold(cut).utf8),
    ]
  }

  @Test func everyFormGivesTheSameThreeTags() throws {
    let folder = try TemporaryDirectory("capture-forms")
    for (name, bytes) in Self.forms {
      let path = folder.appending(name)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let run = try ToolRunner.runProcess(["outcomes", path, "--json"])
      #expect(run.exitCode == 0, "\(name): \(run.standardError)")
      #expect(run.json?["tags"] as? Int == 3, "\(name): \(run.standardError)")
      #expect(run.json?["unreadable"] as? Int == 0, "\(name)")
      #expect(run.json?["incomplete"] as? Bool == false, "\(name)")
      #expect(!run.standardError.contains("warning:"), "\(name): \(run.standardError)")
    }
  }
}

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

/// Run as `./ditto-recover` (the download unpacked, not on PATH), every `next:` line names the
/// program the same way, and each one pasted in the same folder runs (never 127, never a usage
/// error).
@Suite struct PastedAsRunTests {
  @Test func everyNextLineOfARunByPathPastesAndRuns() throws {
    let folder = try TemporaryDirectory("as-run")
    let executable = try #require(ToolRunner.executablePath)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("ditto-recover"), withDestinationPath: executable)
    // A container with only its library, beside a Finder copy holding the store.
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    try ContainerBuilder(root: folder.appending("group.io.kern.ditto copy")).writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 9))
    let environment = "PATH=/usr/bin:/bin "
    var pasted = 0
    for command in [
      "./ditto-recover recover --container group.io.kern.ditto",
      "./ditto-recover status --container group.io.kern.ditto",
      "./ditto-recover --json migrate --container group.io.kern.ditto",
    ] {
      let run = try ToolRun.shell(environment + command, in: folder.path, deadline: 60)
      let lines = (run.run.standardOutput + run.run.standardError).split(separator: "\n")
        .filter { $0.hasPrefix("next: ") }.map { String($0.dropFirst("next: ".count)) }
      let fromJSON =
        (try? JSONSerialization.jsonObject(with: Data(run.run.standardOutput.utf8)))
        .flatMap { ($0 as? [String: Any])?["next"] as? [String] } ?? []
      #expect(!(lines + fromJSON).isEmpty, "\(command): \(run.run.standardError)")
      for line in lines + fromJSON {
        #expect(line.hasPrefix("./ditto-recover "), "\(command): \(line)")
        let again = try ToolRun.shell(environment + line, in: folder.path, deadline: 60)
        #expect(
          again.run.exitCode != 127 && again.run.exitCode != 64,
          "\(line): \(again.run.standardError)")
        pasted += 1
      }
    }
    #expect(pasted >= 3)
  }
}

/// A folder whose name is not UTF-8 (`odd\xFFname`): the commands that take a folder, a file in
/// it, or run from inside it work, nothing prints this run's private link for it, and a `next:`
/// line names it in bash's `$'…'` form, which pasted runs.
@Suite struct NotUTF8FolderTests {
  @Test func everyCommandWorksAndEveryNextLinePastes() throws {
    let folder = try TemporaryDirectory("not-utf8")
    let odd = try OddFileName.makeFolder(in: folder.path)
    let name = odd.shellWord
    let executable = try #require(ToolRunner.executablePath)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("ditto-recover"), withDestinationPath: executable)
    // A container, a capture folder and a CSV inside the odd folder (made by the shell, by bytes).
    let container = folder.appending("container")
    try ContainerBuilder(root: container).writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 4))
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    let setup = try ToolRun.shell(
      "mv container \(name)/c && mkdir \(name)/logs && "
        + "echo 'migration_outcome source=auto outcome=success categories=1 dittos=1 inserted=1' > \(name)/logs/a.log && "
        + "printf 'Category,Ditto\\r\\nA,b\\r\\n' > \(name)/x.csv",
      in: folder.path)
    try #require(setup.exitCode == 0, "\(setup.standardError)")
    // A container whose own name is not UTF-8 (the argument reaches the tool as a link).
    let oddContainer = String(name.dropLast()) + "-c\""
    try #require(
      try ToolRun.shell("cp -R \(name)/c \(oddContainer)", in: folder.path).exitCode == 0)
    let inventory = try ToolRun.shell(
      "./ditto-recover inventory --container \(oddContainer)", in: folder.path)
    #expect(inventory.standardOutput.contains("inventory[appgroup] "), "\(inventory.standardError)")
    #expect(inventory.standardOutput.contains(" /Ditto.sqlite"), "\(inventory.standardOutput)")
    let commands = [
      ("inventory", "./ditto-recover inventory --container \(name)/c"),
      ("outcomes", "./ditto-recover outcomes \(name)/logs"),
      ("import", "./ditto-recover import --library \(name)/c/Ditto.store --csv \(name)/x.csv"),
      ("extract", "./ditto-recover extract --container \(name)/c --out \(name)/out.dittorecovery"),
      ("status --from", "./ditto-recover status --from \(name)/out.dittorecovery"),
      ("extract inside", "cd \(name) && ../ditto-recover extract --container c"),
      (
        "extract again",
        "./ditto-recover extract --container \(name)/c --out \(name)/out.dittorecovery"
      ),
    ]
    var nextLines: [String] = []
    for (label, command) in commands {
      let run = try ToolRun.shell(command, in: folder.path)
      let expected: Int32 = label == "extract again" ? 73 : 0
      #expect(run.exitCode == expected, "\(label): \(run.standardError)")
      let printed = run.standardOutput + run.standardError
      #expect(!printed.contains("ditto-recover-args-"), "\(label) shows a private link: \(printed)")
      #expect(!printed.contains("\u{FFFD}"), "\(label) shows a replacement character: \(printed)")
      nextLines += printed.split(separator: "\n").filter { $0.hasPrefix("next: ") }.map {
        String($0.dropFirst("next: ".count))
      }
    }
    let status = try ToolRun.shell(
      "./ditto-recover status --from \(name)/out.dittorecovery", in: folder.path)
    #expect(
      status.standardOutput.contains("from container \(odd.shown)/c"), "\(status.standardOutput)")
    #expect(!nextLines.isEmpty)
    for line in nextLines where line.hasPrefix("./ditto-recover") {
      #expect(line.contains("$'odd\\x"), "\(line)")
      let pasted = try ToolRun.shell("bash -c \(ShellQuote.single(line))", in: folder.path)
      #expect(pasted.exitCode == 0, "\(line): \(pasted.standardError)")
    }
  }
}

/// A string in single quotes for `sh` (test code).
enum ShellQuote {
  static func single(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
