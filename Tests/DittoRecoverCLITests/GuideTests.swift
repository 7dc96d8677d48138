import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The guided recovery as a person meets it: `ditto-recover` with no arguments on a terminal (a
/// pseudo-terminal here), answers typed, in a home whose Finder-style backup folder holds one or
/// two devices, none, or one the user may not read; Ctrl-C at a question leaves nothing.
@Suite(.serialized) struct GuideTests {
  /// The tool on a pseudo-terminal, through `script` (util-linux; BSD's on a Mac): what the test
  /// types reaches the tool as a person's keys (Ctrl-C included: the terminal turns it into
  /// SIGINT), and what the tool prints comes back.
  final class PseudoTerminal: @unchecked Sendable {
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var printed: [UInt8] = []
    private(set) var process = Process()

    /// Starts `arguments` (the built `ditto-recover`, or `tool` after the words of `wrapper`) on
    /// a new terminal, with `HOME` = `home`.
    func start(
      _ arguments: [String], home: String, in folder: String, tool: String? = nil,
      wrapper: [String] = []
    ) throws {
      let tool = try #require(tool ?? ToolRunner.executablePath)
      let command = (wrapper + [tool] + arguments).map(shellQuoted).joined(separator: " ")
      process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
      #if os(macOS)
        process.arguments = ["-q", "/dev/null", "/bin/sh", "-c", command]
      #else
        process.arguments = ["-q", "-f", "-e", "-c", command, "/dev/null"]
      #endif
      var environment = ProcessInfo.processInfo.environment
      environment["HOME"] = home
      environment["TERM"] = "dumb"
      process.environment = environment
      process.currentDirectoryURL = URL(fileURLWithPath: folder)
      process.standardInput = input
      process.standardOutput = output
      process.standardError = output
      output.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self, !data.isEmpty else { return }
        self.lock.withLock { self.printed += data }
      }
      try process.run()
    }

    /// Everything printed so far, once it holds `text` (or after `seconds`: a hang fails the
    /// test that waits for what never comes).
    @discardableResult
    func read(until text: String, deadline seconds: Double = 120) -> String {
      let end = Date().addingTimeInterval(seconds)
      while true {
        let shown = lock.withLock { String(decoding: printed, as: UTF8.self) }
        if shown.contains(text) || Date() > end { return shown }
        usleep(20_000)
      }
    }

    func type(_ text: String) {
      input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Waits for the end; returns the tool's exit status.
    func finish() -> Int32 {
      process.waitUntilExit()
      output.fileHandleForReading.readabilityHandler = nil
      return process.terminationStatus
    }
  }

  /// A home with `devices` Finder-style backups (the second encrypted with `secret`), and a Desktop.
  static func home(devices: Int) throws -> (TemporaryDirectory, home: String) {
    let folder = try TemporaryDirectory("guide")
    let home = folder.appending("home")
    let root = home + "/Library/Application Support/MobileSync/Backup"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: home + "/Desktop", withIntermediateDirectories: true)
    for device in 0..<devices {
      try DittoBackupFixture.build(
        at: root + "/0000803\(device)-0001", date: Date(timeIntervalSince1970: 1_700_000_000),
        deviceName: "Phone \(device + 1)",
        encryption: device == 1 ? BackupEncryption(password: "secret") : nil, library: nil)
    }
    return (folder, home)
  }

  static func recoveryFiles(in home: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: home + "/Desktop")) ?? [])
      .filter { $0.hasSuffix(".dittorecovery") }
  }

  @Test func answersTypedOnATerminalWriteTheRecoveryFileToTheDesktop() throws {
    let (folder, home) = try Self.home(devices: 2)
    let terminal = PseudoTerminal()
    try terminal.start([], home: home, in: folder.path)
    terminal.read(until: "Which backup? [1]: ")
    terminal.type("2\n")
    let asked = terminal.read(until: "not shown as you type): ")
    #expect(asked.contains("(recommended)"), "\(asked)")
    terminal.type("secret\n")
    terminal.read(until: "Save the recovery file in this folder [")
    terminal.type("\n")
    let all = terminal.read(until: "The one step left, on the iPhone")
    #expect(terminal.finish() == 0, "\(all)")
    #expect(!all.contains("secret"), "the password was shown")
    #expect(all.contains("$ "), "the commands it ran are printed")
    let files = Self.recoveryFiles(in: home)
    #expect(files.count == 1, "\(all)")
    let status = try ToolRunner.runProcess(["status", "--from", home + "/Desktop/" + files[0]])
    #expect(
      status.standardOutput.contains("holds 4 categories, 9 dittos"), "\(status.standardOutput)")
  }

  /// Ctrl-C at each question: the backup, the password (its echo turned off), the folder.
  @Test(arguments: [
    ("Which backup? [1]: ", ""), ("not shown as you type): ", "2\n"),
    ("Save the recovery file in this folder [", "\n"),
  ])
  func ctrlCAtAQuestionLeavesNothing(question: String, answer: String) throws {
    let (folder, home) = try Self.home(devices: 2)
    let terminal = PseudoTerminal()
    try terminal.start(["guide"], home: home, in: folder.path)
    terminal.read(until: "Which backup? [1]: ")
    if !answer.isEmpty {
      terminal.type(answer)
      terminal.read(until: question)
    }
    terminal.type("\u{03}")  // Ctrl-C, as typed
    let shown = terminal.read(until: "interrupted by SIGINT")
    #expect(terminal.finish() == 130, "\(shown)")
    #expect(Self.recoveryFiles(in: home).isEmpty)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(leftovers.sorted() == ["home"], "\(leftovers)")
  }

  /// Ctrl-D (the input ends) at a question that needs an answer: the guide says it stopped, and
  /// the run ends as one with no answer does (exit 0), nothing written.
  @Test func theInputEndingAtAQuestionStopsTheGuide() throws {
    let (folder, home) = try Self.home(devices: 2)
    let terminal = PseudoTerminal()
    try terminal.start(["guide"], home: home, in: folder.path)
    terminal.read(until: "Which backup? [1]: ")
    terminal.type("\u{04}")  // Ctrl-D, as typed
    let shown = terminal.read(until: "nothing was written")
    #expect(terminal.finish() == 0, "\(shown)")
    #expect(shown.contains("Stopped (the input ended at a question)"), "\(shown)")
    #expect(Self.recoveryFiles(in: home).isEmpty)
  }

  @Test func aHomeWithoutBackupsAsksForTheFolder() throws {
    let (folder, home) = try Self.home(devices: 0)
    let elsewhere = folder.appending("elsewhere")
    try DittoBackupFixture.build(
      at: elsewhere + "/00008099-0001", date: Date(timeIntervalSince1970: 1_700_000_000),
      library: nil)
    let terminal = PseudoTerminal()
    try terminal.start(["guide"], home: home, in: folder.path)
    let asked = terminal.read(until: "The folder holding your iPhone backups: ")
    #expect(asked.contains("No backup folder was found"), "\(asked)")
    terminal.type(elsewhere + "\n")
    terminal.read(until: "Which backup? [1]: ")
    terminal.type("\n")
    terminal.read(until: "Save the recovery file in this folder [")
    terminal.type("\n")
    let all = terminal.read(until: "The one step left, on the iPhone")
    #expect(terminal.finish() == 0, "\(all)")
    #expect(Self.recoveryFiles(in: home).count == 1)
  }

  /// A backup folder the user may not read is named with the reason, never taken for "no
  /// backups" in silence (root reads anything: as root, the run drops to nobody).
  @Test func aBackupFolderTheUserMayNotReadIsNamed() throws {
    let (folder, home) = try Self.home(devices: 1)
    let root = home + "/Library/Application Support/MobileSync/Backup"
    var tool: String?
    var wrapper: [String] = []
    #if os(Linux)
      if getuid() == 0 {
        try #require(Unprivileged.cannotDrop == nil, "\(Unprivileged.cannotDrop ?? "")")
        (tool, wrapper) = (Unprivileged.executable, Unprivileged.wrapper)
      }
    #endif
    chmod(folder.path, 0o755)  // the way to the home is open; only the backups are not
    #expect(chmod(root, 0) == 0)
    defer { chmod(root, 0o755) }
    let terminal = PseudoTerminal()
    try terminal.start(["guide"], home: home, in: folder.path, tool: tool, wrapper: wrapper)
    let asked = terminal.read(until: "The folder holding your iPhone backups: ")
    #expect(asked.contains("Cannot read \(root): "), "\(asked)")
    #expect(asked.contains("ermission denied"), "\(asked)")
    terminal.type("\u{03}")
    terminal.read(until: "interrupted by SIGINT")
    #expect(terminal.finish() == 130)
    #expect(Self.recoveryFiles(in: home).isEmpty)
  }

  /// Without a terminal (a pipe, CI), no arguments print the help, as always.
  @Test func withoutATerminalNoArgumentsPrintTheHelp() throws {
    let run = try ToolRunner.runProcess([])
    #expect(run.exitCode == 0)
    #expect(
      run.standardOutput.contains("USAGE: ditto-recover <subcommand>"), "\(run.standardOutput)")
  }
}

/// Progress on long work: on a terminal, one updating line on standard error; in a pipe, none, and
/// the results byte for byte the same.
@Suite struct ProgressLineTests {
  /// The capture's text: `count` Ditto tags among lines of another process.
  static func capture(tags count: Int) -> String {
    var text = ""
    for index in 0..<count {
      text +=
        "2026-11-30 10:15:3\(index % 10).000000-0800  0x1a2b  Default  0x0  1234  0  Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=success categories=1 dittos=\(index) inserted=0\n"
      text +=
        "2026-11-30 10:15:30.000000-0800  0x1a2b  Default  0x0  99  0  Other: something unrelated happened here\n"
    }
    return text
  }

  /// The capture arrives through a FIFO in two halves, the second after a pause the test makes:
  /// the read lasts more than a second on any machine, and the line must show; in a pipe the
  /// results carry no escape byte and are the same.
  @Test func outcomesShowsProgressOnATerminalAndNoneInAPipe() throws {
    let folder = try TemporaryDirectory("progress")
    let text = Array(Self.capture(tags: 2_000).utf8)
    let file = folder.appending("capture.log")
    try Data(text).write(to: URL(fileURLWithPath: file))
    let fifo = folder.appending("slow.log")
    #expect(mkfifo(fifo, 0o600) == 0)

    // Held open for writing before the tool opens it (O_RDWR does not wait for a reader), so the
    // tool never reads an end before the first byte is written.
    let descriptor = open(fifo, O_RDWR)
    #expect(descriptor >= 0)
    let writer = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    let terminal = GuideTests.PseudoTerminal()
    try terminal.start(["outcomes", fifo], home: folder.path, in: folder.path)
    let half = text.count / 2
    writer.write(Data(text[..<half]))
    Thread.sleep(forTimeInterval: 1.5)
    var start = half
    while start < text.count {
      let end = min(text.count, start + 4096)
      writer.write(Data(text[start..<end]))
      start = end
    }
    try writer.close()
    let shown = terminal.read(until: "Verdict:")
    #expect(terminal.finish() == 0, "\(shown)")
    #expect(shown.contains("\r\u{1B}[Koutcomes: "), "no progress line on a terminal: \(shown)")

    let piped = try ToolRunner.runProcess(["outcomes", file])
    #expect(piped.exitCode == 0)
    #expect(
      !(piped.standardError + piped.standardOutput).contains("\u{1B}"), "escape bytes in a pipe")
    let again = try ToolRunner.runProcess(["outcomes", file])
    #expect(again.standardOutput == piped.standardOutput)
  }

  /// An import into a pipe prints no progress line (the line is for a terminal only).
  @Test func anImportIntoAPipeShowsNoProgress() throws {
    let folder = try TemporaryDirectory("progress-import")
    let container = folder.appending("container")
    try ContainerBuilder(root: container).writeStore(
      FixtureContent.make(categories: 4, dittosPerCategory: 3_000, seed: 7))
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    let piped = try ToolRunner.runProcess(["recover", "--container", container])
    #expect(piped.exitCode == 0, "\(piped.standardError)")
    #expect(!(piped.standardError + piped.standardOutput).contains("\u{1B}"))
  }
}
