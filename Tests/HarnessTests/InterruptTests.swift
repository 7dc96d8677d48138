import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP stop every long command cleanly at any moment: the real
/// ditto-recover is interrupted at ≥ 20 stages of each command (a stage is one file-system call,
/// counted by the preloaded Shims/stage-signal.c), each run with its own TMPDIR, and nothing is
/// left: no private folder, no partial output, the legacy files byte-identical, the library
/// rolled back or complete, one JSON object on standard output, exit 128 + the signal.
@Suite(.serialized)
struct InterruptTests {
  /// Stages interrupted per command.
  static let pointsPerCommand = 21

  /// One command to interrupt: what it reads, what it may write, how to check what it wrote.
  struct Scenario: Sendable {
    var name: String
    /// The command's arguments, in `work`.
    var arguments: @Sendable (_ work: String) -> [String]
    /// Builds the inputs in `work`.
    var setUp: @Sendable (_ work: String) throws -> Void
    /// Files under `work` the command may change (relative paths, as FileHashes names them).
    var mayChange: @Sendable (String) -> Bool = { _ in false }
    /// Checks what the run left in `work` after an interruption (its outputs absent or
    /// complete, a library rolled back or complete); returns problems.
    var check: @Sendable (_ work: String) throws -> [String] = { _ in [] }
  }

  static let expectedDittos = 400

  static func container(_ work: String) throws {
    let run = ToolRunner.runFixture([
      "--scenario", "intact-2x", "--out", work + "/device", "--library", "empty",
      "--categories", "10", "--dittos-per-category", "40",
    ])
    guard run.exitCode == 0 else { throw FixtureError(run.standardError) }
  }

  struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  static func count(_ sql: String, in path: String) throws -> Int {
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readOnly)
    defer { try? database.close() }
    let check = try database.makeStatement(sql: "PRAGMA integrity_check")
    _ = try check.step()
    guard check.text(at: 0) == "ok" else { return -1 }
    return Int(try database.makeStatement(sql: sql).scalarInt64() ?? -1)
  }

  /// The library holds none of the dittos or all of them (a rolled-back or committed import),
  /// and a recovery run afterwards leaves it with every ditto once.
  static func libraryIsWhole(_ work: String) throws -> [String] {
    let library = work + "/device/Ditto.store"
    let dittos = try count("SELECT count(*) FROM ZDITTOITEM", in: library)
    guard dittos == 0 || dittos == expectedDittos else {
      return ["the library holds \(dittos) dittos (a partial import?)"]
    }
    let again = ToolRunner.run(["recover", "--container", work + "/device"])
    let after = try count("SELECT count(*) FROM ZDITTOITEM", in: library)
    return again.exitCode == 0 && after == expectedDittos
      ? [] : ["a recovery afterwards: exit \(again.exitCode), \(after) dittos"]
  }

  /// A recovery file at `path` is absent or complete.
  static func recoveryFileIsWhole(_ path: String, dittos: Int) throws -> [String] {
    guard try FileStatus.of(path: path) != nil else { return [] }
    let found = try count("SELECT count(*) FROM ZDITTO", in: path)
    return found == dittos ? [] : ["\(path) holds \(found) of \(dittos) dittos"]
  }

  static func isLibraryOrFlag(_ path: String) -> Bool {
    path.hasPrefix("/device/Ditto.store")
      || path == "/device/Library/Preferences/group.io.kern.ditto.plist"
  }

  static let backupDate = Date(timeIntervalSince1970: 1_767_225_600)

  static let scenarios: [Scenario] = [
    Scenario(
      name: "recover",
      arguments: { ["recover", "--container", $0 + "/device", "--json"] },
      setUp: container, mayChange: isLibraryOrFlag, check: libraryIsWhole),
    Scenario(
      name: "migrate",
      arguments: { ["migrate", "--container", $0 + "/device", "--json"] },
      setUp: container, mayChange: isLibraryOrFlag, check: libraryIsWhole),
    Scenario(
      name: "extract",
      arguments: {
        ["extract", "--container", $0 + "/device", "--out", $0 + "/out.dittorecovery", "--json"]
      },
      setUp: container,
      check: { try recoveryFileIsWhole($0 + "/out.dittorecovery", dittos: expectedDittos) }),
    Scenario(
      name: "salvage",
      arguments: { ["salvage", $0 + "/device/Ditto.sqlite", "--json"] },
      setUp: container),
    Scenario(
      name: "backup extract",
      arguments: {
        ["backup", "extract", $0 + "/backup", "--out", $0 + "/out.dittorecovery", "--json"]
      },
      setUp: { try DittoBackupFixture.build(at: $0 + "/backup", date: backupDate) },
      check: {
        try recoveryFileIsWhole(
          $0 + "/out.dittorecovery", dittos: DittoBackupFixture.expectedDittos)
      }),
    Scenario(
      name: "backup extract (encrypted)",
      arguments: {
        [
          "backup", "extract", $0 + "/backup", "--out", $0 + "/out.dittorecovery",
          "--password-file", $0 + "/password.txt", "--json",
        ]
      },
      setUp: {
        try DittoBackupFixture.build(
          at: $0 + "/backup", date: backupDate, encryption: BackupEncryption(password: "pass"))
        try Data("pass\n".utf8).write(to: URL(fileURLWithPath: $0 + "/password.txt"))
      },
      check: {
        try recoveryFileIsWhole(
          $0 + "/out.dittorecovery", dittos: DittoBackupFixture.expectedDittos)
      }),
    Scenario(
      name: "backup recover",
      arguments: {
        [
          "backup", "recover", $0 + "/backup", "--out", $0 + "/rebuilt", "--password-file",
          $0 + "/password.txt", "--json",
        ]
      },
      setUp: {
        try DittoBackupFixture.build(
          at: $0 + "/backup", date: backupDate, encryption: BackupEncryption(password: "pass"))
        try Data("pass".utf8).write(to: URL(fileURLWithPath: $0 + "/password.txt"))
      },
      check: { work in
        // The rebuilt folder is this run's output: gone, or complete (kept once the recovery
        // finished).
        let rebuilt = work + "/rebuilt"
        guard try FileStatus.of(path: rebuilt) != nil else { return [] }
        let library = rebuilt + "/AppDomainGroup-group.io.kern.ditto/Ditto.store"
        let dittos = try count("SELECT count(*) FROM ZDITTOITEM", in: library)
        return dittos == DittoBackupFixture.expectedDittos
          ? [] : ["\(rebuilt) was left with a library of \(dittos) dittos"]
      }),
    Scenario(
      name: "outcomes",
      arguments: { work in
        ["outcomes", "--html", work + "/report.html", "--json"]
          + (0..<30).map { work + "/logs/device-\($0).log" }
      },
      setUp: { work in
        try FileManager.default.createDirectory(
          atPath: work + "/logs", withIntermediateDirectories: true)
        let outcomes = ["success", "nothing_on_disk", "found_unreadable", "empty_store"]
        for index in 0..<30 {
          let line =
            "2026-11-30 10:00:00.000000+0000 0x1 Default 0x0 1 0 Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=\(outcomes[index % 4]) categories=1 dittos=\(index) inserted=\(index)\n"
          try Data((line + line).utf8).write(
            to: URL(fileURLWithPath: work + "/logs/device-\(index).log"))
        }
      },
      check: { work in
        let html = work + "/report.html"
        guard let text = try? String(contentsOfFile: html, encoding: .utf8) else { return [] }
        return text.contains("</html>") ? [] : ["\(html) is partial"]
      }),
  ]

  /// Compiles the stage library into `folder`.
  static func buildStageLibrary(in folder: String) throws -> String {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Shims/stage-signal.c").path
    #if canImport(Darwin)
      let output = folder + "/stage-signal.dylib"
      let flags = ["-dynamiclib"]
    #else
      let output = folder + "/stage-signal.so"
      let flags = ["-shared", "-fPIC", "-ldl"]
    #endif
    var messages = ""
    for compiler in ["cc", "clang"] {
      let run = try ToolRun.shell(
        ([compiler, "-O1", "-o", output, source] + flags).map(shellQuoted).joined(separator: " ")
          + " 2>&1", in: folder)
      if run.exitCode == 0 { return output }
      messages += run.standardOutput
    }
    throw FixtureError("no C compiler could build \(source) (cc or clang): \(messages)")
  }

  struct Outcome {
    var run: ToolRun
    var stages: Int?
  }

  /// Runs `scenario` in `work` with the stage library: counting when `signal` is nil, else
  /// interrupted at `stage`.
  static func run(
    _ scenario: Scenario, in work: String, temporary: String, library: String, stage: Int? = nil,
    signal: Int32? = nil
  ) throws -> Outcome {
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    #if canImport(Darwin)
      environment["DYLD_INSERT_LIBRARIES"] = library
    #else
      environment["LD_PRELOAD"] = library
    #endif
    let countFile = work + "/../stages-" + UUID().uuidString
    if let stage, let signal {
      environment["DITTO_STAGE_SIGNAL_AT"] = String(stage)
      environment["DITTO_STAGE_SIGNAL"] = String(signal)
    } else {
      environment["DITTO_STAGE_COUNT_FILE"] = countFile
    }
    let run = try ToolRunner.runProcess(
      scenario.arguments(work), environment: environment, currentDirectory: work)
    let stages = (try? String(contentsOfFile: countFile, encoding: .utf8)).flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    unlink(countFile)
    return Outcome(run: run, stages: stages)
  }

  /// Everything in `root` whose name marks it as ours (private folders, scratch files).
  static func leftovers(in root: String) throws -> [String] {
    var found: [String] = []
    _ = try DirectoryWalker(reportLimit: 100_000).walk(root: root) { entry in
      let name = entry.displayPath.split(separator: "/").last.map(String.init) ?? ""
      if name.hasPrefix(".ditto-") || name.hasPrefix("ditto-") { found.append(entry.displayPath) }
    }
    return found
  }

  /// A scenario's inputs, built once, and the stage library, in a test's own folder.
  struct Bench {
    let folder: TemporaryDirectory
    let library: String
    let template: String

    init(_ scenario: Scenario, label: String) throws {
      folder = try TemporaryDirectory(label)
      library = try InterruptTests.buildStageLibrary(in: folder.path)
      template = folder.appending("template")
      try FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
      try scenario.setUp(template)
    }

    /// A fresh copy of the inputs and an empty TMPDIR for one run.
    func freshRun(_ name: String) throws -> (work: String, temporary: String) {
      let work = folder.appending(name)
      let temporary = folder.appending(name + "-tmp")
      try? FileManager.default.removeItem(atPath: work)
      try? FileManager.default.removeItem(atPath: temporary)
      try FileManagerCopy.copy(template, to: work)
      try FileManager.default.createDirectory(
        atPath: temporary, withIntermediateDirectories: true)
      return (work, temporary)
    }
  }

  @Test(arguments: 0..<8)
  func everyLongCommandStopsCleanlyAtAnyStage(index: Int) throws {
    let scenario = Self.scenarios[index]
    let bench = try Bench(scenario, label: "interrupt")
    let library = bench.library

    // The uninterrupted run: how many stages it has, and that it leaves nothing either.
    let (countedWork, countedTemporary) = try bench.freshRun("counted")
    let counted = try Self.run(
      scenario, in: countedWork, temporary: countedTemporary, library: library)
    #expect(
      counted.run.exitCode == 0, "\(scenario.name): \(counted.run.standardError)")
    let stages = try #require(counted.stages, "\(scenario.name): the stage count was not written")
    #expect(try DirectoryWalker.names(in: countedTemporary).isEmpty)
    #expect(try Self.leftovers(in: countedWork).isEmpty)
    try #require(stages >= Self.pointsPerCommand * 2, "\(scenario.name): only \(stages) stages")

    let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    // Spread over the run, the last one close to its end (a run's last calls are its exit's).
    let last = stages * 19 / 20
    let points = (0..<Self.pointsPerCommand).map {
      1 + $0 * (last - 1) / (Self.pointsPerCommand - 1)
    }
    var interrupted = 0
    for (number, stage) in points.enumerated() {
      let signal = signals[number % signals.count]
      let label = "\(scenario.name) at stage \(stage)/\(stages) (\(signal))"
      let (work, temporary) = try bench.freshRun("run-\(number)")
      let before = try FileHashes(of: work)

      let outcome = try Self.run(
        scenario, in: work, temporary: temporary, library: library, stage: stage, signal: signal)
      #expect(
        outcome.run.exitCode == 128 + signal,
        "\(label): exit \(outcome.run.exitCode): \(outcome.run.standardError)")
      if outcome.run.exitCode == 128 + signal { interrupted += 1 }
      // One JSON object on standard output, whatever the moment.
      let object = try? JSONSerialization.jsonObject(
        with: Data(outcome.run.standardOutput.utf8))
      #expect(object is [String: Any], "\(label): stdout is not one JSON object")
      #expect(
        outcome.run.standardError.contains("interrupted by"),
        "\(label): \(outcome.run.standardError)")
      // Nothing left: the private TMPDIR is empty, no private folder or scratch file anywhere.
      let inTemporary = try DirectoryWalker.names(in: temporary).map {
        String(decoding: $0, as: UTF8.self)
      }
      #expect(inTemporary.isEmpty, "\(label): left in TMPDIR: \(inTemporary)")
      let left = try Self.leftovers(in: work)
      #expect(left.isEmpty, "\(label): left: \(left)")
      let changed = try FileHashes(of: work).changes(since: before).filter {
        !scenario.mayChange($0)
      }
      #expect(changed.isEmpty, "\(label): inputs changed: \(changed)")
      let problems = try scenario.check(work)
      #expect(problems.isEmpty, "\(label): \(problems)")
      try? FileManager.default.removeItem(atPath: work)
      try? FileManager.default.removeItem(atPath: temporary)
    }
    #expect(interrupted == points.count)
    report(
      "interrupt: \(scenario.name): \(stages) stages, interrupted at \(points.count) of them (SIGINT, SIGTERM, SIGHUP), nothing left"
    )
  }

  /// True when the folder at `path` holds a private folder's ownership marker.
  static func isMarked(_ path: String) -> Bool {
    // Written whole (a kill between its open and its write leaves an empty one: no proof).
    let size = (try? FileStatus.of(path: path + "/.ditto-recover-owner"))??.size ?? 0
    return size > 0
  }

  /// Sets the modification time of `path` an hour back (what a folder left long ago looks like).
  static func backdate(_ path: String) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
  }

  static func names(in folder: String) throws -> [String] {
    try DirectoryWalker.names(in: folder).map { String(decoding: $0, as: UTF8.self) }
  }

  /// SIGKILL cannot be caught: what it leaves (decrypted copies in TMPDIR, a partial recovery
  /// file's folder beside the output) is removed by the next run, which says so; a live run's
  /// folder (locked), a folder made a moment ago, a link and the kept output of `backup recover`
  /// are left alone.
  @Test func whatSIGKILLLeftIsRemovedByTheNextRunAndNothingElse() throws {
    let scenario = Self.scenarios.first { $0.name == "backup extract (encrypted)" }!
    let bench = try Bench(scenario, label: "interrupt-kill")
    let library = bench.library
    let folder = bench.folder
    let (counting, countingTemporary) = try bench.freshRun("counting")
    let stages = try #require(
      try Self.run(scenario, in: counting, temporary: countingTemporary, library: library).stages)

    // Killed at later and later stages until one leaves both a private folder in TMPDIR and
    // the partial recovery file's folder beside the output.
    var work = ""
    var temporary = ""
    var leftInTemporary: [String] = []
    var leftBeside: [String] = []
    var stage = stages / 2
    while stage < stages, leftBeside.isEmpty || leftInTemporary.isEmpty {
      (work, temporary) = try bench.freshRun("work")
      let killed = try Self.run(
        scenario, in: work, temporary: temporary, library: library, stage: stage, signal: SIGKILL)
      #expect(killed.run.exitCode == SIGKILL)
      // Only folders that already hold their ownership marker are ours to remove: a kill in the
      // instant between mkdtemp and the marker leaves an empty folder no run may take for ours.
      leftInTemporary = try Self.names(in: temporary).filter {
        Self.isMarked(temporary + "/" + $0)
      }
      leftBeside = try Self.names(in: work).filter {
        $0.hasPrefix(".ditto-recovery-") && Self.isMarked(work + "/" + $0)
      }
      stage += 3
    }
    try #require(!leftInTemporary.isEmpty && !leftBeside.isEmpty, "no stage left both")
    let backupBefore = try FileHashes(of: work + "/backup")
    // A live run's folder (this process holds its lock), made before the leftovers look old:
    // making it looks for leftovers of its prefix here, as any run does.
    let live = try PrivateDirectory(prefix: "ditto-snapshot-", in: temporary)
    for name in leftInTemporary { try Self.backdate(temporary + "/" + name) }
    for name in leftBeside { try Self.backdate(work + "/" + name) }

    // What must stay: a live run's folder (this process holds its lock), one made a moment ago,
    // a link with a private folder's name, and a rebuilt backup folder (an output, kept).
    try Self.backdate(live.path)
    let young = temporary + "/ditto-salvage-abcdef"
    try FileManager.default.createDirectory(atPath: young, withIntermediateDirectories: false)
    let target = folder.appending("target")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: target + "/file"))
    let link = temporary + "/ditto-extract-linked"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let output = temporary + "/ditto-backup-OUTPUT"
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
    try Self.backdate(output)

    // The next run: the same extract, to the same output.
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    let next = try ToolRunner.runProcess(
      scenario.arguments(work), environment: environment, currentDirectory: work)
    #expect(next.exitCode == 0, "\(next.standardError)")
    for name in leftInTemporary {
      #expect(!FileManager.default.fileExists(atPath: temporary + "/" + name), "\(name) stayed")
      #expect(
        next.standardError.contains("/\(name): a private folder left by an earlier run"),
        "\(next.standardError)")
    }
    for name in leftBeside {
      #expect(!FileManager.default.fileExists(atPath: work + "/" + name), "\(name) stayed")
      #expect(next.standardError.contains("/\(name): a private folder"), "\(next.standardError)")
    }
    let remaining = Set(try Self.names(in: temporary))
    let expected: Set<String> = [
      String(live.path.split(separator: "/").last!), "ditto-salvage-abcdef",
      "ditto-extract-linked", "ditto-backup-OUTPUT",
    ]
    #expect(remaining == expected)
    #expect(try String(contentsOfFile: target + "/file", encoding: .utf8) == "keep")
    #expect(try FileHashes(of: work + "/backup") == backupBefore)
    #expect(
      try Self.recoveryFileIsWhole(
        work + "/out.dittorecovery", dittos: DittoBackupFixture.expectedDittos
      ).isEmpty)
    report(
      "interrupt: SIGKILL at stage \(stage - 3) of \(stages) left \(leftInTemporary.count) folders in TMPDIR and \(leftBeside.count) beside the output; the next run removed them and nothing else"
    )
  }
}

/// Touch only what it made: folders of the user's that merely look like ours (every private
/// prefix, an hour old, no lock held, holding the user's file) survive every command, in TMPDIR
/// and beside the outputs; commands that make no private folder look at nothing.
@Suite(.serialized) struct LookAlikeFoldersTests {
  static let prefixes = [
    "ditto-snapshot-", "ditto-extract-", "ditto-decrypted-", "ditto-salvage-", "ditto-recovery-",
    "ditto-list-", "ditto-recover-args-", ".ditto-recovery-", ".ditto-new-",
  ]

  /// `<prefix>TEST01` in `folder` for every prefix, with `important.txt`, an hour old.
  static func plant(in folder: String) throws -> [String] {
    try prefixes.map { prefix in
      let path = folder + "/" + prefix + "TEST01"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      try Data("the user's own file".utf8).write(to: URL(fileURLWithPath: path + "/important.txt"))
      try InterruptTests.backdate(path)
      return path
    }
  }

  @Test func usersFoldersWithOurNamesSurviveEveryCommand() throws {
    for scenario in InterruptTests.scenarios {
      let bench = try InterruptTests.Bench(scenario, label: "lookalike")
      let (work, temporary) = try bench.freshRun("work")
      let planted = try Self.plant(in: temporary) + Self.plant(in: work)
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = temporary
      var commands = [scenario.arguments(work)]
      if scenario.name == "recover" {
        commands += [["--version"], ["--help"], ["completion", "bash"], ["status", "--help"]]
      }
      for arguments in commands {
        let run = try ToolRunner.runProcess(
          arguments, environment: environment, currentDirectory: work)
        #expect(!run.standardError.contains("note: removed"), "\(arguments): \(run.standardError)")
        for path in planted {
          let text = try? String(contentsOfFile: path + "/important.txt", encoding: .utf8)
          #expect(
            text == "the user's own file", "\(scenario.name) \(arguments): \(path) was touched")
        }
      }
    }
  }
}

/// A reader that goes away (`… | head -1`) ends a run like Ctrl-C: whatever the run made is
/// removed and the exit status is 141 (128 + SIGPIPE), also when the parent ignored SIGPIPE (the
/// failed write's EPIPE ends it the same way).
@Suite(.serialized) struct ClosedPipeTests {
  static func device(in folder: TemporaryDirectory) throws -> String {
    let run = ToolRunner.runFixture([
      "--scenario", "intact-2x", "--out", folder.appending("device"), "--library", "none",
      "--categories", "30", "--dittos-per-category", "400",
    ])
    try #require(run.exitCode == 0, "\(run.standardError)")
    return folder.appending("device/Ditto.sqlite")
  }

  @Test(arguments: [0, 1, 200, 40_000])
  func aClosedPipeLeavesNothingBehind(bytesRead: Int) throws {
    let folder = try TemporaryDirectory("closed-pipe")
    let store = try Self.device(in: folder)
    let temporary = folder.appending("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let executable = try #require(ToolRunner.executablePath)
    let reader = bytesRead == 0 ? "true" : "head -c \(bytesRead) > /dev/null"
    for command in ["export --legacy '\(store)' --format csv", "salvage '\(store)' --format csv"] {
      for ignored in [false, true] {
        let line =
          (ignored ? "trap '' PIPE; " : "")
          + "TMPDIR='\(temporary)' '\(executable)' \(command) | \(reader)"
        let shell = try ToolRun.shell(line, in: folder.path, deadline: 60)
        #expect(!shell.timedOut, "\(line): hung")
        let left = try DirectoryWalker.names(in: temporary).map {
          String(decoding: $0, as: UTF8.self)
        }
        #expect(left.isEmpty, "\(line), after \(bytesRead) bytes: left \(left)")
      }
    }
  }

  /// The exit status of a run whose reader went away: 141, with the interruption said.
  @Test(arguments: [false, true])
  func theExitStatusIs141(ignored: Bool) throws {
    let folder = try TemporaryDirectory("closed-pipe-status")
    let store = try Self.device(in: folder)
    let executable = try #require(ToolRunner.executablePath)
    let script =
      (ignored ? "trap '' PIPE; " : "")
      + "\"$0\" export --legacy \"$1\" --format csv | head -c 10 > /dev/null; exit ${PIPESTATUS[0]}"
    let shell = try ToolRun.shell(
      "bash -c '\(script)' '\(executable)' '\(store)'", in: folder.path, deadline: 60)
    #expect(shell.run.exitCode == 141, "\(shell.run.standardError)")
    #expect(shell.run.standardError.contains("Error: interrupted by SIGPIPE"))
  }
}

/// SIGKILL (no handler runs) at 20 points of each command that writes under a name the user
/// chose (`backup recover --out`, `extract`, `backup extract`, `outcomes --html`): afterwards that
/// name holds nothing or the finished result, never a decrypted store or a partial file, and the
/// same command run again succeeds (removing the marked remains of the killed run).
@Suite(.serialized) struct SIGKILLThenRerunTests {
  static let names = ["backup recover", "extract", "backup extract", "outcomes"]
  static let points = 20

  @Test(arguments: names)
  func aKilledRunLeavesNothingUnderTheUsersNameAndTheRerunSucceeds(name: String) throws {
    let scenario = try #require(InterruptTests.scenarios.first { $0.name == name })
    let bench = try InterruptTests.Bench(scenario, label: "sigkill")
    let (countedWork, countedTemporary) = try bench.freshRun("counted")
    let stages = try #require(
      try InterruptTests.run(
        scenario, in: countedWork, temporary: countedTemporary, library: bench.library
      ).stages)
    let last = stages * 19 / 20
    for point in 0..<Self.points {
      let stage = 1 + point * (last - 1) / (Self.points - 1)
      let (work, temporary) = try bench.freshRun("work")
      let killed = try InterruptTests.run(
        scenario, in: work, temporary: temporary, library: bench.library, stage: stage,
        signal: SIGKILL)
      let label = "\(name), SIGKILL at stage \(stage) of \(stages)"
      #expect(killed.run.exitCode == SIGKILL, "\(label): exit \(killed.run.exitCode)")
      // The user's names: nothing, or the finished result.
      let problems = try scenario.check(work)
      #expect(problems.isEmpty, "\(label): \(problems)")
      if name == "backup recover", try FileStatus.of(path: work + "/rebuilt") != nil {
        let store = work + "/rebuilt/AppDomainGroup-group.io.kern.ditto/Ditto.store"
        #expect(try FileStatus.of(path: store) != nil, "\(label): a partial --out folder")
      }
      // What the killed run left is private and marked: once old, the rerun removes it.
      for folder in [work, temporary] {
        for entry in try DirectoryWalker.names(in: folder) {
          let path = folder + "/" + String(decoding: entry, as: UTF8.self)
          if path.contains("/ditto-") || path.contains("/.ditto-") {
            try InterruptTests.backdate(path)
          }
        }
      }
      // The rerun: the same command; an output the killed run finished is named anew.
      var arguments = scenario.arguments(work)
      if let index = arguments.firstIndex(of: "--out") ?? arguments.firstIndex(of: "--html"),
        try FileStatus.of(path: arguments[index + 1]) != nil
      {
        arguments[index + 1] += "-again"
      }
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = temporary
      let rerun = try ToolRunner.runProcess(
        arguments, environment: environment, currentDirectory: work)
      #expect(rerun.exitCode == 0, "\(label): the rerun: \(rerun.standardError)")
      let left = try InterruptTests.leftovers(in: work).filter {
        !$0.hasSuffix("/.ditto-recover-owner")
      }
      // Only an empty folder a kill left between mkdtemp and its marker may stay (no run can
      // prove it ours); nothing with content.
      let withContent = left.filter { path in
        ((try? DirectoryWalker.names(in: work + path)) ?? [[0]]).isEmpty == false
      }
      #expect(withContent.isEmpty, "\(label): left beside the outputs after the rerun: \(left)")
      try? FileManager.default.removeItem(atPath: work)
      try? FileManager.default.removeItem(atPath: temporary)
    }
  }
}
