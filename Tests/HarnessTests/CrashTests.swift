import DittoStore
import Foundation
import LegacyMigration
import SQLiteDB
import StoreFixtures
import TestSupport
import Testing

/// SIGKILL at every write step of an import (and at random moments): nothing is ever lost.
@Suite(.serialized, .enabled(if: ToolRunner.executablePath != nil, "needs the built ditto-recover"))
struct CrashTests {
  let budget = HarnessBudget.current

  /// A container with a 2.x store (bulk-copied categories) and keyboard additions (row-by-row writes).
  func makeContainer(_ path: String) throws -> Int {
    let builder = try ContainerBuilder(root: path)
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

  func libraryState(_ path: String) throws -> LibraryState {
    guard FileManager.default.fileExists(atPath: path) else {
      return LibraryState(dittos: 0, isIntact: true)
    }
    let database = try Database(path: path, mode: .readWrite)
    let check = try database.makeStatement(sql: "PRAGMA integrity_check")
    _ = try check.step()
    let intact = check.text(at: 0) == "ok"
    check.reset()
    // Killed while the library was being created: the schema transaction never committed, so the
    // file holds nothing (the next run adopts it).
    let tables = try database.makeStatement(
      sql: "SELECT count(*) FROM sqlite_master WHERE name = 'ditto'"
    ).scalarInt64()
    guard tables == 1 else { return LibraryState(dittos: 0, isIntact: intact) }
    let count = try database.makeStatement(sql: "SELECT count(*) FROM ditto").scalarInt64() ?? -1
    let distinct =
      try database.makeStatement(
        sql: "SELECT count(*) FROM (SELECT DISTINCT category_id, text FROM ditto)"
      )
      .scalarInt64() ?? -2
    return LibraryState(dittos: Int(count), isIntact: intact && count == distinct)
  }

  func flagIsSet(_ container: String) throws -> Bool {
    try AppGroupDefaults(path: ContainerLayout(container: container).defaultsPath)
      .isMigrationComplete()
  }

  /// Runs one kill scenario and checks every invariant; returns whether the process was killed.
  @discardableResult
  func killAndRecover(environment: [String: String], delay: TimeInterval? = nil, label: String)
    throws -> Bool
  {
    let folder = try TemporaryDirectory("crash")
    let container = folder.appending("device")
    let total = try makeContainer(container)
    let before = try FileHashes(of: container)
    let library = container + "/DittoLibrary.sqlite"
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment.merge(environment) { $1 }
    // A process killed with SIGKILL cannot remove its snapshot folder: keep it in this test's own
    // folder (beside the container, never inside it), which is removed with the test.
    childEnvironment["TMPDIR"] = folder.path
    let launcher = try ProcessLauncher(
      ["migrate", "--container", container], environment: childEnvironment)
    if let delay {
      Thread.sleep(forTimeInterval: delay)
      kill(launcher.process.processIdentifier, SIGKILL)
    }
    let run = launcher.finish()
    let killed = run.exitCode == SIGKILL && launcher.process.terminationReason == .uncaughtSignal

    let after = try FileHashes(of: container)
    let changed = after.changes(since: before).filter {
      !$0.hasPrefix("/DittoLibrary.sqlite")
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
    // A second, normal run completes the import without duplicates.
    let second = try ToolRunner.runProcess(["recover", "--container", container, "--json"])
    #expect(second.exitCode == 0, "\(label): \(second.standardError)")
    let final = try libraryState(library)
    #expect(
      final.isIntact && final.dittos == total, "\(label): after recovery \(final.dittos)/\(total)")
    return killed
  }

  @Test func killedAtEveryWriteStepAndStage() throws {
    var tried = 0
    var killed = 0
    var step = 1
    while step < 10_000 {
      let wasKilled = try killAndRecover(
        environment: ["DITTO_RECOVER_CRASH_AFTER_WRITES": String(step)],
        label: "after write \(step)")
      tried += 1
      if wasKilled { killed += 1 } else { break }
      step += 1
    }
    #expect(killed >= budget.categories, "too few write steps were reached")
    for stage in ["committed", "flag-written"] {
      #expect(try killAndRecover(environment: ["DITTO_RECOVER_CRASH_AT": stage], label: stage))
      tried += 1
      killed += 1
    }
    report(
      "crash: \(tried) deterministic kill points tried, \(killed) killed the process, nothing lost")
  }

  @Test func killedAtRandomMoments() throws {
    var generator = SeededGenerator(seed: 2026)
    var killed = 0
    for index in 0..<budget.randomKills {
      let delay = Double(generator.next() % 60_000) / 1_000_000
      if try killAndRecover(
        environment: [:], delay: delay, label: "random kill \(index) at \(delay)s")
      {
        killed += 1
      }
    }
    report(
      "crash: \(budget.randomKills) random-delay kills tried (\(killed) hit a running process), nothing lost"
    )
  }
}
