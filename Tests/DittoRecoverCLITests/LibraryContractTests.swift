import DittoStore
import EngineTestSupport
import Foundation
import LegacyStore
import StoreFixtures
import TestSupport
import Testing

/// The Ditto.store contract seen from the command line: the library must exist, read-only commands
/// work without one, and the seed's upgrade paths end as the app would end them.
@Suite struct LibraryContractTests {
  static let spec = FixtureContent.make(categories: 3, dittosPerCategory: 4, seed: 8)

  /// A container with an intact 2.x store and no Ditto.store.
  func containerWithoutLibrary(_ folder: TemporaryDirectory) throws -> String {
    let container = folder.appending("device")
    try ContainerBuilder(root: container).writeStore(Self.spec)
    return container
  }

  @Test(arguments: ["migrate", "recover", "import", "backup-recover"])
  func withoutALibraryWritingCommandsStopWithExit74AndSayWhatToDo(command: String) throws {
    let folder = try TemporaryDirectory("no-library")
    let container = try containerWithoutLibrary(folder)
    let csv = folder.appending("in.csv")
    try Data("Category,Ditto\nWork,a\n".utf8).write(to: URL(fileURLWithPath: csv))
    let backup = folder.appending("backup")
    try DittoBackupFixture.build(
      at: backup, date: Date(timeIntervalSince1970: 1_500_000_000), library: nil)
    let before = try FileHashes(of: folder.path)
    let arguments: [String] =
      switch command {
      case "import": ["import", "--library", container + "/Ditto.store", "--csv", csv]
      case "backup-recover": ["backup", "recover", backup, "--out", folder.appending("out")]
      default: [command, "--container", container]
      }
    let run = ToolRunner.run(arguments)
    #expect(run.exitCode == 74, "\(run.standardError)")
    if command == "backup-recover" {
      // A backup made before 3.0: not the device's advice, but what the backup holds and the
      // commands that fit it.
      #expect(run.standardError.contains("the backup was made before Ditto 3.0"))
      #expect(run.standardError.contains("next: ditto-recover backup extract"))
      #expect(run.standardError.contains("  # for the iPhone: a recovery file"))
    } else {
      #expect(run.standardError.contains("no Ditto 3.x library (Ditto.store) here"))
      #expect(run.standardError.contains("Run Ditto 3.0.2 on the device"))
      #expect(run.standardError.contains("recover --dry-run"))
    }
    #expect(!FileManager.default.fileExists(atPath: container + "/Ditto.store"))
    let changed = try FileHashes(of: folder.path).changes(since: before).filter {
      !$0.hasPrefix("/out")
    }
    #expect(changed.isEmpty, "\(changed)")
  }

  @Test func readOnlyCommandsWorkWithoutALibraryAsAgainstAnEmptyOne() throws {
    let folder = try TemporaryDirectory("no-library-read")
    let container = try containerWithoutLibrary(folder)
    let before = try FileHashes(of: container)
    let preview = ToolRunner.run(["recover", "--container", container, "--dry-run", "--json"])
    #expect(preview.exitCode == 0, "\(preview.standardError)")
    #expect(preview.json?["inserted"] as? Int == 12)
    #expect(preview.json?["insertedCategories"] as? Int == 3)
    let status = ToolRunner.run(["status", "--container", container, "--json"])
    #expect(status.exitCode == 0)
    let library = try #require(status.json?["library"] as? [String: Any])
    #expect(library["exists"] as? Bool == false)
    #expect(library["path"] as? String == shown(container) + "/Ditto.store")
    #expect(
      ToolRunner.run(["export", "--legacy", container + "/Ditto.sqlite", "--format", "csv"])
        .exitCode == 0)
    #expect(ToolRunner.run(["salvage", container + "/Ditto.sqlite", "--json"]).exitCode == 0)
    #expect(try FileHashes(of: container).changes(since: before).isEmpty)
  }

  @Test func statusDescribesTheLibrary() throws {
    let folder = try TemporaryDirectory("status-library")
    let container = folder.appending("device")
    try FixtureScenario.stale301Flag.build(at: container, parameters: .init(seed: 2))
    let status = ToolRunner.run(["status", "--container", container, "--json"])
    let library = try #require(status.json?["library"] as? [String: Any])
    for key in ["path", "exists", "categories", "dittos", "history", "cloudKit"] {
      #expect(library[key] != nil, "missing \(key)")
    }
    #expect(library["exists"] as? Bool == true)
    #expect(library["categories"] as? Int == 4)
    #expect(library["history"] as? Bool == true)
    #expect(library["cloudKit"] as? Bool == false)
  }

  /// 2.0.1 → 3.0.2: the app created an empty store (no Profile) and migrates into it: one Profile,
  /// the old categories in order, no presets.
  @Test func direct201To302FillsTheEmptyStoreTheAppCreated() throws {
    let folder = try TemporaryDirectory("path-201")
    let container = folder.appending("device")
    try FixtureScenario.intact2x.build(
      at: container,
      parameters: .init(categories: 3, dittosPerCategory: 4, seed: 8, library: .empty))
    let run = ToolRunner.run(["migrate", "--container", container, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.json?["outcome"] as? String == "success")
    #expect(run.json?["inserted"] as? Int == 12)
    let content = try DittoStoreFile.content(at: container + "/Ditto.store")
    #expect(content.profileCount == 1)
    let expected = try TestFixtures.expectedContent(at: container + "/expected.json")
    #expect(content.categories.map(\.title) == expected.map(\.title))
    #expect(
      content.categories.map { $0.dittos.map(\.text) } == expected.map { $0.dittos.map(\.text) })
    let again = ToolRunner.run(["recover", "--container", container, "--json"])
    #expect(again.json?["outcome"] as? String == "no_new_data")
    #expect(again.json?["skipped"] as? Int == 12)
  }

  /// 3.0.0/3.0.1 → 3.0.2: the store holds the presets; the old categories come after them.
  @Test func after300The578KBUserKeepsThePresetsAndGetsTheOldDittosAfterThem() throws {
    let folder = try TemporaryDirectory("path-300")
    let container = folder.appending("device")
    try FixtureScenario.user578kb.build(
      at: container, parameters: .init(categories: 3, dittosPerCategory: 4, seed: 8))
    let run = ToolRunner.run(["migrate", "--container", container, "--json"])
    #expect(run.json?["outcome"] as? String == "success", "\(run.standardError)")
    let titles = try DittoStoreFile.content(at: container + "/Ditto.store").categories.map(\.title)
    let presets = SwiftDataStoreSpec.presetCategories.compactMap(\.title)
    #expect(Array(titles.prefix(presets.count)) == presets)
    let expected = try TestFixtures.expectedContent(at: container + "/expected.json")
    #expect(Array(titles.dropFirst(presets.count)) == expected.map(\.title))
  }

  /// 2.x left an empty Documents/Ditto.sqlite in the app's home while 3.0.0 deleted the App Group's
  /// store but not its -wal: the manual path rebuilds the -wal's dittos; the automatic path and
  /// status name it.
  @Test func anEmptyTemplateBesideAnOrphanedWALIsNotTheEndOfTheStory() throws {
    let folder = try TemporaryDirectory("orphan-wal")
    let container = folder.appending("group")
    let home = folder.appending("home")
    let group = try ContainerBuilder(root: container)
    try group.writeStore(Self.spec, journal: .walOnly)
    // The test's own fixture: its main file goes, as 3.0.0's cleanup removed it.
    try FileManager.default.removeItem(atPath: group.path("Ditto.sqlite"))
    try FileManager.default.removeItem(atPath: group.path("Ditto.sqlite-shm"))
    try LibraryFixtures.copy(.empty, toFolder: container)
    try ContainerBuilder(root: home).writeStore(
      LegacyStoreSpec(categories: []), at: "Documents/Ditto.sqlite")
    let target = ["--container", container, "--home", home, "--json"]

    let status = ToolRunner.run(["status"] + target)
    #expect(status.json?["hasRecoverableLegacyData"] as? Bool == true)
    #expect(
      (status.json?["orphanWALs"] as? [[String: Any]])?.first?["path"] as? String
        == "Ditto.sqlite-wal")

    let auto = ToolRunner.run(["migrate"] + target)
    // The store read empty, but the -wal beside it may hold dittos the automatic path does not
    // rebuild: found_unreadable (never empty_store, which tells the cohort there was nothing).
    #expect(auto.json?["outcome"] as? String == "found_unreadable", "\(auto.standardError)")
    #expect(auto.exitCode == 65)
    #expect(
      (auto.json?["next"] as? [String])?.contains { $0.contains("ditto-recover recover") } == true)
    #expect((auto.json?["orphanWALs"] as? [[String: Any]])?.count == 1)
    #expect(auto.json?["salvaged"] == nil)

    let manual = ToolRunner.run(["recover"] + target)
    #expect(manual.json?["outcome"] as? String == "success", "\(manual.standardError)")
    #expect(manual.json?["salvaged"] as? Int == 12)
    #expect(manual.json?["result"] as? String == "salvaged")
    #expect(manual.standardError.contains("salvaged=12"))
    #expect(try DittoStoreFile.content(at: container + "/Ditto.store").dittoCount == 12)
  }

  @Test func theAppHomesApplicationSupportDittoFolderIsProbed() throws {
    let folder = try TemporaryDirectory("home-probe")
    let container = folder.appending("group")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    let home = folder.appending("home")
    try ContainerBuilder(root: home).writeStore(
      Self.spec, at: "Library/Application Support/Ditto/Ditto.sqlite")
    let status = ToolRunner.run(["status", "--container", container, "--home", home, "--json"])
    #expect(status.json?["chosen"] as? String == "Library/Application Support/Ditto/Ditto.sqlite")
  }
}
