import EngineTestSupport
import Foundation
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

    /// Starts `arguments` (the built `ditto-recover`) on a new terminal, with `HOME` = `home`.
    func start(_ arguments: [String], home: String, in folder: String) throws {
      let tool = try #require(ToolRunner.executablePath)
      let command = ([tool] + arguments).map(shellQuoted).joined(separator: " ")
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

  @Test(arguments: ["Which backup? [1]: ", "Save the recovery file in this folder ["])
  func ctrlCAtAQuestionLeavesNothing(question: String) throws {
    let (folder, home) = try Self.home(devices: 1)
    let terminal = PseudoTerminal()
    try terminal.start(["guide"], home: home, in: folder.path)
    terminal.read(until: "Which backup? [1]: ")
    if question != "Which backup? [1]: " {
      terminal.type("\n")
      terminal.read(until: question)
    }
    terminal.type("\u{03}")  // Ctrl-C, as typed
    let shown = terminal.read(until: "interrupted by SIGINT")
    #expect(terminal.finish() == 130, "\(shown)")
    #expect(Self.recoveryFiles(in: home).isEmpty)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(leftovers.sorted() == ["home"], "\(leftovers)")
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

  /// Without a terminal (a pipe, CI), no arguments print the help, as always.
  @Test func withoutATerminalNoArgumentsPrintTheHelp() throws {
    let run = try ToolRunner.runProcess([])
    #expect(run.exitCode == 0)
    #expect(
      run.standardOutput.contains("USAGE: ditto-recover <subcommand>"), "\(run.standardOutput)")
  }
}
