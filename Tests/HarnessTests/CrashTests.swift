import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// SIGKILL at every write step of an import (and at random moments): nothing is ever lost.
@Suite(.serialized)
struct CrashTests {
  let budget = HarnessBudget.current

  /// A container with a 2.x store (bulk-copied categories) and keyboard additions (row-by-row writes).
  func makeContainer(_ path: String) throws -> Int {
    let builder = try ContainerBuilder(root: path)
    try LibraryFixtures.copy(.empty, toFolder: path)
    let spec = FixtureContent.make(
      categories: budget.categories, dittosPerCategory: budget.dittosPerCategory, seed: 99)
    try builder.writeStore(spec, journal: .walOnly)
    try builder.writeDefaults([
      "pendingCategories": ["Keyboard"],
      "pendingDittos": ["Keyboard": ["k1", "k2", "k3"], "Work 💼": ["added"]],
      "dittos": ["v1 one", "v1 two"],
    ])
    return spec.readableDittoCount + 6
  }

  struct LibraryState {
    var dittos: Int
    var isIntact: Bool
  }

  /// The library after a run: its dittos, and whether it is intact (integrity ok, no text twice in a
  /// category, `Z_MAX` at or above every `Z_PK`, one history change per inserted row).
  func libraryState(_ path: String) throws -> LibraryState {
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWrite)
    defer { try? database.close() }
    func count(_ sql: String) throws -> Int {
      Int(try database.makeStatement(sql: sql).scalarInt64() ?? -1)
    }
    let check = try database.makeStatement(sql: "PRAGMA integrity_check")
    _ = try check.step()
    let intact = check.text(at: 0) == "ok"
    check.reset()
    let items = try count("SELECT count(*) FROM ZDITTOITEM")
    let distinct = try count(
      "SELECT count(*) FROM (SELECT DISTINCT ZCATEGORY, ZTEXT FROM ZDITTOITEM)")
    let keysAbove = try count(
      """
      SELECT (SELECT count(*) FROM ZDITTOITEM WHERE Z_PK > (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoItem'))
        + (SELECT count(*) FROM ZDITTOCATEGORY WHERE Z_PK > (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'DittoCategory'))
        + (SELECT count(*) FROM ZPROFILE WHERE Z_PK > (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Profile'))
      """)
    let rows = try count(
      "SELECT (SELECT count(*) FROM ZDITTOITEM) + (SELECT count(*) FROM ZDITTOCATEGORY) + (SELECT count(*) FROM ZPROFILE)"
    )
    let changes = try count("SELECT count(*) FROM ACHANGE WHERE ZCHANGETYPE = 0")
    return LibraryState(
      dittos: items, isIntact: intact && items == distinct && keysAbove == 0 && changes == rows)
  }

  func flagIsSet(_ container: String) throws -> Bool {
    try AppGroupDefaults(path: ContainerLayout(container: container).defaultsPath)
      .isMigrationComplete()
  }

  /// Runs one kill scenario and checks every invariant; returns whether the process was killed.
  @discardableResult
  func killAndRecover(stage: String? = nil, delay: TimeInterval? = nil, label: String)
    throws -> Bool
  {
    let folder = try TemporaryDirectory("crash")
    let container = folder.appending("device")
    let total = try makeContainer(container)
    let before = try FileHashes(of: container)
    let library = container + "/Ditto.store"
    var childEnvironment = ProcessInfo.processInfo.environment
    // A process killed with SIGKILL cannot remove its snapshot folder: keep it in this test's own
    // folder (beside the container, never inside it), which is removed with the test.
    childEnvironment["TMPDIR"] = folder.path
    let launcher =
      if let stage {
        try ProcessLauncher(
          [container, stage], environment: childEnvironment, executable: ToolRunner.crashToolPath)
      } else {
        try ProcessLauncher(["migrate", "--container", container], environment: childEnvironment)
      }
    if let delay {
      Thread.sleep(forTimeInterval: delay)
      kill(launcher.process.processIdentifier, SIGKILL)
    }
    let run = launcher.finish()
    let killed = run.exitCode == SIGKILL && launcher.process.terminationReason == .uncaughtSignal

    let after = try FileHashes(of: container)
    let changed = after.changes(since: before).filter {
      !$0.hasPrefix("/Ditto.store")
        && $0 != "/Library/Preferences/group.io.kern.ditto.plist"
    }
    #expect(changed.isEmpty, "\(label): legacy files changed: \(changed)")
    let state = try libraryState(library)
    #expect(state.isIntact, "\(label): library damaged or duplicated")
    #expect(
      state.dittos == 0 || state.dittos == total,
      "\(label): partial import \(state.dittos)/\(total)")
    if state.dittos == 0 {
      #expect(try !flagIsSet(container), "\(label): flag set without an import")
    }
    // Every read-only command works right after the kill (a hot -wal is read on a snapshot).
    for command in [
      ["status", "--container", container, "--json"], ["export", "--library", library],
      ["recover", "--container", container, "--dry-run", "--json"],
      ["inventory", "--container", container],
    ] {
      let run = try ToolRunner.runProcess(command)
      #expect(run.exitCode == 0, "\(label): \(command[0]) after the kill: \(run.standardError)")
    }
    // A second, normal run completes the import without duplicates.
    let second = try ToolRunner.runProcess(["recover", "--container", container, "--json"])
    #expect(second.exitCode == 0, "\(label): \(second.standardError)")
    let final = try libraryState(library)
    #expect(
      final.isIntact && final.dittos == total, "\(label): after recovery \(final.dittos)/\(total)")
    return killed
  }

  /// Kills inside the write transaction (planned, nothing written yet), after the commit and after
  /// the flag is written; kills in the middle of the inserts come from the random delays below.
  @Test func killedAtEveryStage() throws {
    #expect(ToolRunner.crashToolPath != nil, "crash-harness-tool was not built")
    var killed = 0
    for stage in ["in-transaction", "committed", "flag-written"] {
      if try killAndRecover(stage: stage, label: stage) { killed += 1 }
    }
    #expect(killed == 3, "every stage must stop the process there")
    report(
      "crash: 3 deterministic kill points (in the write transaction, committed, flag written), \(killed) killed the process, nothing lost"
    )
  }

  @Test func killedAtRandomMoments() throws {
    var generator = SeededGenerator(seed: 2026)
    var killed = 0
    for index in 0..<budget.randomKills {
      let delay = Double(generator.next() % 60_000) / 1_000_000
      if try killAndRecover(delay: delay, label: "random kill \(index) at \(delay)s") {
        killed += 1
      }
    }
    report(
      "crash: \(budget.randomKills) random-delay kills tried (\(killed) hit a running process), nothing lost"
    )
  }
}
