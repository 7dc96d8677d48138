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

// "Not now" is never "gone": every failure that says nothing about the legacy bytes, driven for
// real against the built ditto-recover, leaves the flag store unwritten for as many runs as it
// lasts, and the run after the cause is removed migrates everything. Legacy files stay
// byte-identical throughout.

/// A container copy for one test: a 2.x store (or 1.x defaults), an empty library, and App Group
/// defaults holding an unrelated key, so that "the flag store was not written" is a byte
/// comparison of a file that exists.
final class TransientDevice {
  let folder: TemporaryDirectory
  let container: String
  let builder: ContainerBuilder
  /// A temporary folder of the child's own (`TMPDIR`).
  let temporary: String
  let spec: LegacyStoreSpec

  init(
    _ label: String, spec: LegacyStoreSpec, store: String? = "Ditto.sqlite",
    journal: LegacyStoreWriter.Journal = .walCheckpointed
  ) throws {
    folder = try TemporaryDirectory(label)
    chmod(folder.path, 0o755)
    container = folder.appending("device")
    builder = try ContainerBuilder(root: container)
    self.spec = spec
    if let store { try builder.writeStore(spec, at: store, journal: journal) }
    try LibraryFixtures.copy(.empty, toFolder: container)
    try builder.writeDefaults(["unrelated": "kept"])
    temporary = folder.appending("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
  }

  var defaultsPath: String { ContainerLayout(container: container).defaultsPath }
  var library: String { container + "/Ditto.store" }

  /// Hashes of the legacy files (every `*.sqlite*` and the defaults are checked separately).
  func legacyHashes() throws -> [String: String] {
    try FileHashes(of: container).entries.filter { $0.key.lowercased().contains(".sqlite") }
  }

  func defaultsBytes() throws -> Data? {
    guard try FileStatus.of(path: defaultsPath) != nil else { return nil }
    return try Data(contentsOf: URL(fileURLWithPath: defaultsPath))
  }

  /// Runs ditto-recover with `TMPDIR` set to the device's own folder (unless `environment` says
  /// otherwise), as `wrapper` says.
  func run(
    _ arguments: [String], wrapper: [String] = [], executable: String? = nil,
    environment extra: [String: String] = [:]
  ) throws -> ToolRun {
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    environment.merge(extra) { _, new in new }
    let launcher = try ProcessLauncher(
      arguments, environment: environment, wrapper: wrapper, executable: executable)
    let watchdog = DispatchWorkItem { kill(launcher.process.processIdentifier, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    defer { watchdog.cancel() }
    return launcher.finish()
  }

  /// Three automatic runs that must each end `found_unreadable reason=<reason>` and write nothing,
  /// then `fix`, then a fourth that migrates everything.
  ///
  /// - Parameter legacy: the legacy files' hashes to hold the runs to; nil while a writer of the
  ///   test's own changes them (they are then checked by the caller once it stopped).
  func expectNotNowThenSuccess(
    reason: String, wrapper: [String] = [], executable: String? = nil,
    legacy: [String: String]?? = .none, environment: [String: String] = [:],
    fix: () throws -> Void
  ) throws {
    let legacy = try legacy ?? legacyHashes()
    let defaults = try defaultsBytes()
    for attempt in 1...3 {
      let run = try run(
        ["migrate", "--container", container, "--json"], wrapper: wrapper, executable: executable,
        environment: environment)
      #expect(run.exitCode == 65, "run \(attempt): \(run.standardError)")
      #expect(run.json?["outcome"] as? String == "found_unreadable", "\(run.standardOutput)")
      #expect(run.json?["reason"] as? String == reason, "\(run.standardOutput)")
      #expect(run.json?["transient"] as? Bool == true)
      // The counter is reported as it stands (0), or not at all when the defaults file that holds
      // it is the file that cannot be read.
      if reason == "defaults" {
        #expect(run.json?["attempts"] == nil)
      } else {
        #expect(run.json?["attempts"] as? Int == 0, "the counter moved")
      }
      #expect(run.outcomeLines.count == 1)
      #expect(run.outcomeLines.first?.hasSuffix(" reason=\(reason)") == true, "\(run.outcomeLines)")
      #expect(try defaultsBytes() == defaults, "run \(attempt) wrote the flag store")
      if let legacy {
        #expect(try legacyHashes() == legacy, "run \(attempt) changed a legacy file")
      }
    }
    try fix()
    let fixedLegacy = try legacyHashes()
    let last = try run(
      ["migrate", "--container", container, "--json"], wrapper: wrapper, executable: executable)
    #expect(last.exitCode == 0, "\(last.standardError)")
    #expect(last.json?["outcome"] as? String == "success", "\(last.standardOutput)")
    #expect(last.json?["reason"] == nil)
    #expect(try DittoStoreFile.content(at: library).dittoCount == spec.readableDittoCount)
    #expect(try AppGroupDefaults(path: defaultsPath).isMigrationComplete())
    #expect(try AppGroupDefaults(path: defaultsPath).load()?["unrelated"] == "kept")
    #expect(try legacyHashes() == fixedLegacy)
  }
}

/// A store another process keeps writing while it is copied, and a writer holding its
/// transaction open: the engine reads a state the store really had, or says "not now".
@Suite(.serialized)
struct ConcurrentWriterTests {
  /// Rewrites the store's change counter (header bytes 24–27) as fast as it can, on a thread of
  /// this process, until stopped; then puts the original bytes back.
  final class ChangeCounterWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let original: [UInt8]
    private let stopped = NSCondition()
    private var isStopped = false
    private var isFinished = false

    init(path: String) throws {
      descriptor = open(path, O_RDWR)
      guard descriptor >= 0 else { throw POSIXError(.EACCES) }
      var bytes = [UInt8](repeating: 0, count: 4)
      guard pread(descriptor, &bytes, 4, 24) == 4 else { throw POSIXError(.EIO) }
      original = bytes
      Thread.detachNewThread { [self] in loop() }
      // Return only once the loop runs: a copy made before its first write would hold still.
      stopped.lock()
      while writes < 1_000 { stopped.wait() }
      stopped.unlock()
    }

    /// Writes made so far (until 1,000: the loop signals when it is running).
    private var writes = 0

    private func loop() {
      #if os(Linux)
        // Ahead of every other test's threads (root may raise a priority), so that it writes during
        // every copy even on a loaded machine.
        let raised = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -20)  // this thread
        if getuid() == 0 { precondition(raised == 0, "setpriority failed as root") }
      #endif
      var counter = UInt32(0)
      while true {
        stopped.lock()
        let stop = isStopped
        stopped.unlock()
        if stop { break }
        counter &+= 1
        var bytes = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
        _ = pwrite(descriptor, &bytes, 4, 24)
        if counter == 1_000 {
          stopped.lock()
          writes = 1_000
          stopped.broadcast()
          stopped.unlock()
        }
      }
      stopped.lock()
      isFinished = true
      stopped.broadcast()
      stopped.unlock()
    }

    /// Stops the loop and restores the original bytes.
    func stop() {
      stopped.lock()
      isStopped = true
      while !isFinished { stopped.wait() }
      stopped.unlock()
      var bytes = original
      _ = pwrite(descriptor, &bytes, 4, 24)
      close(descriptor)
    }
  }

  @Test func aStoreRewrittenWhileItIsCopiedIsNotNowNeverDamaged() throws {
    let spec = FixtureContent.make(categories: 4, dittosPerCategory: 50, seed: 41)
    let device = try TransientDevice("changing", spec: spec, journal: .delete)
    // 12 MB of a table the reader ignores: each copy takes milliseconds, so the writer always gets
    // in, however loaded the machine is.
    let filler = try Database(
      path: UserPath.resolvingFolder(of: device.builder.path("Ditto.sqlite")), mode: .readWrite)
    try filler.execute(
      sql: """
        CREATE TABLE ZFILLER (Z_PK INTEGER PRIMARY KEY, ZBYTES BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
        INSERT INTO ZFILLER (ZBYTES) SELECT randomblob(1048576) FROM n;
        """)
    try filler.close()
    let legacy = try device.legacyHashes()
    let writer = try ChangeCounterWriter(path: device.builder.path("Ditto.sqlite"))
    var stopped = false
    defer { if !stopped { writer.stop() } }
    try device.expectNotNowThenSuccess(reason: "changing", legacy: .some(nil)) { () throws in
      writer.stop()
      stopped = true
      #expect(try device.legacyHashes() == legacy, "the writer's bytes were not put back")
    }
  }

  enum Mode: String, CaseIterable {
    case wal
    case rollbackWithHotJournal
  }

  /// The test process holds a write transaction with uncommitted changes spilled to disk (into the
  /// `-wal`, or into the main file with the originals in a hot `-journal`) while ditto-recover
  /// runs: it reads the last committed state or reports a transient failure, never a permanent
  /// one and never an uncommitted row.
  @Test(arguments: Mode.allCases)
  func aWriterHoldingATransactionIsNeverReadHalfWritten(mode: Mode) throws {
    let spec = FixtureContent.make(categories: 4, dittosPerCategory: 400, seed: 42)
    let device = try TransientDevice(
      "writer-\(mode.rawValue)", spec: spec,
      journal: mode == .wal ? .walCheckpointed : .delete)
    let store = device.builder.path("Ditto.sqlite")
    let writer = try Database(path: UserPath.resolvingFolder(of: store), mode: .readWrite)
    try writer.execute(sql: "PRAGMA cache_size = 2; PRAGMA cache_spill = 1")
    try writer.execute(sql: "BEGIN IMMEDIATE")
    try writer.execute(sql: "UPDATE ZDITTO SET ZTEXT = ZTEXT || ' (uncommitted)'")
    // The uncommitted pages really are on disk, beside or inside the store.
    switch mode {
    case .wal:
      #expect(try FileStatus.of(path: store + "-wal")?.size ?? 0 > 0)
    case .rollbackWithHotJournal:
      #expect(try FileStatus.of(path: store + "-journal")?.size ?? 0 > 0)
    }
    let during = try device.legacyHashes()
    let run = try device.run(["migrate", "--container", device.container, "--json"])
    #expect(try device.legacyHashes() == during, "ditto-recover changed a legacy file")
    try writer.execute(sql: "ROLLBACK")
    try writer.close()
    report(
      "writer holding a transaction (\(mode.rawValue)): \(run.outcomeLines.first ?? run.standardError)"
    )
    switch run.json?["outcome"] as? String {
    case "success":
      let content = try DittoStoreFile.content(at: device.library)
      #expect(content.dittoCount == spec.readableDittoCount)
      #expect(
        !content.categories.contains { $0.dittos.contains { $0.text.hasSuffix("(uncommitted)") } })
    case "found_unreadable":
      #expect(
        run.json?["transient"] as? Bool == true, "a writer made it permanent: \(run.standardOutput)"
      )
      #expect(try device.defaultsBytes().map { _ in true } == true)
    default:
      Issue.record("unexpected: \(run.standardOutput) \(run.standardError)")
    }
  }
}

/// The permanent causes still count, and automatic migration stops after three.
@Suite struct PermanentFailureTests {
  enum Cause: String, CaseIterable {
    case zeroBytes, garbage, notADittoStore
  }

  @Test(arguments: Cause.allCases)
  func aPermanentCauseCountsAndStopsAfterThreeAttempts(cause: Cause) throws {
    let spec = FixtureContent.make(categories: 1, dittosPerCategory: 1, seed: 60)
    let device = try TransientDevice("permanent-\(cause.rawValue)", spec: spec, store: nil)
    switch cause {
    case .zeroBytes: try device.builder.writeBytes([], at: "Ditto.sqlite")
    case .garbage: try device.builder.writeGarbage(count: 50_000, seed: 4, at: "Ditto.sqlite")
    case .notADittoStore:
      let database = try Database(
        path: UserPath.resolvingFolder(of: device.builder.path("Ditto.sqlite")),
        mode: .readWriteCreate)
      try database.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
      try database.close()
    }
    let legacy = try device.legacyHashes()
    for attempt in 1...3 {
      let run = try device.run(["migrate", "--container", device.container, "--json"])
      #expect(run.exitCode == 65, "\(run.standardError)")
      #expect(run.json?["outcome"] as? String == "found_unreadable")
      #expect(run.json?["transient"] as? Bool == false)
      #expect(run.json?["reason"] == nil)
      #expect(run.json?["attempts"] as? Int == attempt)
      #expect(run.outcomeLines.first?.contains("reason=") == false)
    }
    let skipped = try device.run(["migrate", "--container", device.container, "--json"])
    #expect(skipped.json?["attempted"] as? Bool == false)
    #expect(try device.legacyHashes() == legacy)
  }
}

#if os(Linux)
  /// Permission errors need a process that is not root (root reads anything): these runs drop to
  /// `nobody` with `setpriv`. CI runs as root; a machine where privileges cannot be dropped fails
  /// these tests, it does not skip them.
  @Suite(.serialized)
  struct PermissionTests {
    func requireDroppablePrivileges() throws -> String {
      try #require(Unprivileged.cannotDrop == nil, "\(Unprivileged.cannotDrop ?? "")")
      return try #require(Unprivileged.executable)
    }

    /// Gives `path` and everything under it to `nobody` (links themselves, never their targets).
    static func giveToNobody(_ path: String) throws {
      #expect(
        try ToolRun.system([
          "/bin/chown", "-R", "-h", "\(Unprivileged.nobody):\(Unprivileged.nobody)", path,
        ]) == 0)
    }

    enum Cause: String, CaseIterable {
      /// A root-owned `Ditto.sqlite`, mode 0600.
      case store
      /// The store readable, its `-wal` (holding every row) root-owned, mode 0600.
      case wal
      /// The folder holding the store root-owned, mode 0700.
      case folder
      /// No store; the App Group defaults (1.x dittos, and the flags) root-owned, mode 0600.
      case defaults
    }

    @Test(arguments: Cause.allCases)
    func aFileThisUserMayNotReadIsNotNowAndCountsForNothing(cause: Cause) throws {
      let executable = try requireDroppablePrivileges()
      let spec: LegacyStoreSpec
      let device: TransientDevice
      switch cause {
      case .defaults:
        spec = FixtureContent.make(categories: 1, dittosPerCategory: 3, seed: 50)
        device = try TransientDevice("perm-defaults", spec: spec, store: nil)
        let texts = FixtureContent.expectedCategories(of: spec).flatMap { $0.dittos.map(\.text) }
        try FileManager.default.removeItem(atPath: device.defaultsPath)
        try device.builder.writeDefaults([
          "dittos": .array(texts.map { .string($0) }), "unrelated": "kept",
        ])
      case .store, .wal, .folder:
        spec = FixtureContent.make(categories: 3, dittosPerCategory: 20, seed: 51)
        device = try TransientDevice(
          "perm-\(cause.rawValue)", spec: spec,
          store: cause == .folder ? "Library/Application Support/Ditto.sqlite" : "Ditto.sqlite",
          journal: cause == .wal ? .walOnly : .walCheckpointed)
      }
      try Self.giveToNobody(device.folder.path)
      let locked: String
      let mode: mode_t
      switch cause {
      case .store: (locked, mode) = (device.builder.path("Ditto.sqlite"), 0o600)
      case .wal: (locked, mode) = (device.builder.path("Ditto.sqlite-wal"), 0o600)
      case .folder: (locked, mode) = (device.builder.path("Library/Application Support"), 0o700)
      case .defaults: (locked, mode) = (device.defaultsPath, 0o600)
      }
      lchown(locked, 0, 0)
      chmod(locked, mode)
      defer { Self.restore(locked) }

      // status, as nobody, names what it may not read and how to get past it.
      let status = try device.run(
        ["status", "--container", device.container], wrapper: Unprivileged.wrapper,
        executable: executable)
      #expect(status.exitCode == 0, "\(status.standardError)")
      #expect(
        status.standardOutput.contains(
          "not read now (\(cause == .defaults ? "defaults" : "permission"))"),
        "\(status.standardOutput)")
      #expect(status.standardOutput.contains("sudo"), "\(status.standardOutput)")
      #expect(status.standardOutput.contains("nobody"), "\(status.standardOutput)")

      try device.expectNotNowThenSuccess(
        reason: cause == .defaults ? "defaults" : "permission", wrapper: Unprivileged.wrapper,
        executable: executable
      ) {
        lchown(locked, Unprivileged.nobody, Unprivileged.nobody)
      }
    }

    /// The app's case, as a device before its first unlock shows it: `UserDefaults` answers no
    /// legacy key while the preferences file (holding the 1.x list) cannot be opened. Nothing is
    /// written to the flag store; the line says `reason=locked`.
    @Test func defaultsAnsweringNothingWhileTheirFileIsProtectedAreNotNow() throws {
      _ = try requireDroppablePrivileges()
      let tool = try #require(Unprivileged.crashTool, "cannot copy crash-harness-tool for nobody")
      let device = try TransientDevice(
        "perm-unlock", spec: LegacyStoreSpec(categories: []), store: nil)
      try FileManager.default.removeItem(atPath: device.defaultsPath)
      try device.builder.writeDefaults(["dittos": ["On my way", "Thanks!"]])
      try Self.giveToNobody(device.folder.path)
      lchown(device.defaultsPath, 0, 0)
      chmod(device.defaultsPath, 0o600)
      defer { Self.restore(device.defaultsPath) }
      let launcher = try ProcessLauncher(
        [device.container, "defaults-before-first-unlock"], wrapper: Unprivileged.wrapper,
        executable: tool)
      let run = launcher.finish()
      #expect(run.exitCode == 0, "\(run.standardError)")
      let lines = run.standardOutput.split(separator: "\n").map(String.init)
      #expect(
        lines == [
          "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=locked",
          "flag-writes=0",
        ])
    }

    /// Gives a locked file back to root with its usual mode, so the folder can be removed.
    static func restore(_ path: String) {
      lchown(path, 0, 0)
      chmod(path, 0o755)
    }

    @Test func theManualPathSaysWhatToDoInWordsAUserUnderstands() throws {
      let executable = try requireDroppablePrivileges()
      let spec = FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 52)
      let device = try TransientDevice("perm-manual", spec: spec)
      try Self.giveToNobody(device.folder.path)
      let store = device.builder.path("Ditto.sqlite")
      lchown(store, 0, 0)
      chmod(store, 0o600)
      defer { Self.restore(store) }
      let run = try device.run(
        ["recover", "--container", device.container, "--json"], wrapper: Unprivileged.wrapper,
        executable: executable)
      #expect(run.exitCode == 65)
      #expect(run.json?["result"] as? String == "foundButUnreadable")
      #expect(
        run.json?["message"] as? String
          == "Found old data on this device, but couldn't read it. Please send a sysdiagnose so we can investigate."
      )
      let advice = (run.json?["advice"] as? [String]) ?? []
      #expect(advice.first?.contains("belongs to root (mode 0600)") == true, "\(advice)")
      #expect(advice.first?.contains("nobody") == true, "\(advice)")
      // The program by its absolute path: sudo's secure_path need not hold its folder.
      let sudo = advice.first { $0.hasPrefix("sudo ") && $0.hasSuffix("  # as an administrator") }
      let program = sudo?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
      #expect(program.hasPrefix("/") && access(program, X_OK) == 0, "\(advice)")
      #expect(sudo?.contains("ditto-recover recover --container") == true, "\(advice)")
      let text = try device.run(
        ["recover", "--container", device.container], wrapper: Unprivileged.wrapper,
        executable: executable)
      #expect(text.standardOutput.contains("next: "), "\(text.standardOutput)")
      #expect(text.outcomeLines.first?.hasSuffix("reason=permission") == true)
    }
  }
#endif
