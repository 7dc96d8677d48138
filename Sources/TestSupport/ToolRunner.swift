import DittoRecoverCLI
import EngineTestSupport
import FixtureTool
import Foundation
import SafeFiles

/// What one run of the tool produced.
package struct ToolRun: Sendable {
  package var exitCode: Int32
  package var standardOutput: String
  package var standardError: String

  package init(exitCode: Int32, standardOutput: String, standardError: String) {
    self.exitCode = exitCode
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Standard output parsed as one JSON object (nil when it is not one).
  package var json: [String: Any]? {
    do {
      return try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any]
    } catch {
      return nil
    }
  }

  /// The `migration_outcome` lines on standard error.
  package var outcomeLines: [String] {
    standardError.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("migration_outcome ")
    }
  }
}

/// Runs `ditto-recover` in-process (fast, for most tests) or as a child process (end to end).
package enum ToolRunner {
  /// Runs `Tool.main` with captured output.
  package static func run(_ arguments: [String]) -> ToolRun {
    let output = BufferOutput()
    let error = BufferOutput()
    let code = Tool.main(
      arguments, context: ToolContext(standardOutput: output, standardError: error))
    return ToolRun(exitCode: code, standardOutput: output.text, standardError: error.text)
  }

  /// How a child run names itself on its `next:` lines: the built executable's path (it was run by
  /// path), shell-quoted as the tool quotes words.
  package static var programAsRun: String {
    let path = executablePath ?? "ditto-recover"
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,")
    return path.allSatisfy { safe.contains($0) }
      ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Runs the developer's `ditto-fixture` in-process with captured output.
  package static func runFixture(_ arguments: [String]) -> ToolRun {
    let output = BufferOutput()
    let error = BufferOutput()
    let code = FixtureTool.main(
      arguments, context: ToolContext(standardOutput: output, standardError: error))
    return ToolRun(exitCode: code, standardOutput: output.text, standardError: error.text)
  }

  /// The built `ditto-recover` executable: `DITTO_RECOVER_EXECUTABLE` when set (to run the
  /// end-to-end tests against another build, such as the static one `scripts/bench` measures),
  /// else the one next to the test bundle.
  package static var executablePath: String? {
    if let chosen = ProcessInfo.processInfo.environment["DITTO_RECOVER_EXECUTABLE"], !chosen.isEmpty
    {
      return chosen  // used as given: a wrong path fails the tests instead of skipping them
    }
    var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("ditto-recover").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    for sub in [".build/debug", ".build/release"] {
      let candidate = root.appendingPathComponent(sub).appendingPathComponent("ditto-recover").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// The developer's `ditto-fixture` built beside the test bundle.
  package static var fixturePath: String? { builtExecutable("ditto-fixture") }

  /// The test-only `crash-harness-tool` built beside the test bundle (see Tests/CrashHarnessTool).
  package static var crashToolPath: String? { builtExecutable("crash-harness-tool") }

  /// An executable of this package built beside the test bundle (or in `.build/debug`).
  static func builtExecutable(_ name: String) -> String? {
    var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidate = root.appendingPathComponent(".build/debug/" + name).path
    return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
  }

  /// Runs the built executable as a child process (in `currentDirectory` when given); reads both
  /// pipes before waiting.
  package static func runProcess(
    _ arguments: [String], environment: [String: String]? = nil, standardInput: Data? = nil,
    currentDirectory: String? = nil, executable: String? = ToolRunner.executablePath
  ) throws -> ToolRun {
    guard let path = executable else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "ditto-recover"])
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory {
      process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory, isDirectory: true)
    }
    let output = Pipe()
    let error = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    try process.run()
    if let standardInput { input.fileHandleForWriting.write(standardInput) }
    try input.fileHandleForWriting.close()
    // Read stderr on another thread so neither pipe can fill up and block the child.
    let errorData = ErrorCollector(handle: error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errors = errorData.wait()
    process.waitUntilExit()
    return ToolRun(
      exitCode: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errors, as: UTF8.self))
  }
}

/// Reads a pipe to its end on a background thread.
package final class ErrorCollector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  package init(handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  package func wait() -> Data {
    done.wait()
    return data
  }
}

/// A child `ditto-recover` started now and collected later, so several can run at the same moment.
package final class ProcessLauncher {
  package let process = Process()
  private let output = Pipe()
  private let error = Pipe()
  private let collector: ErrorCollector

  /// Starts `ditto-recover` with `arguments` (and `environment`, when given), optionally through a
  /// wrapper command such as `setpriv --reuid=…`.
  package init(
    _ arguments: [String], environment: [String: String]? = nil, wrapper: [String] = [],
    executable: String? = nil
  ) throws {
    guard let path = executable ?? ToolRunner.executablePath else {
      throw CocoaError(.fileNoSuchFile)
    }
    if let launcher = wrapper.first {
      process.executableURL = URL(fileURLWithPath: launcher)
      process.arguments = Array(wrapper.dropFirst()) + [path] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
    }
    if let environment { process.environment = environment }
    process.standardOutput = output
    process.standardError = error
    collector = ErrorCollector(handle: error.fileHandleForReading)
    try process.run()
  }

  /// Waits for the process and returns what it printed.
  package func finish() -> ToolRun {
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = collector.wait()
    process.waitUntilExit()
    return ToolRun(
      exitCode: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }
}

/// What `ditto-recover` reports for a path a user typed: resolved, links followed (`UserPath`).
/// In the Mac-layout pass the test folders sit behind a link, so a reported path is compared with
/// this, never with the path as typed.
package func shown(_ path: String) -> String { UserPath.resolved(path) }

/// `word` as a POSIX shell reads it back (single quotes), for commands a test pastes into `sh`.
package func shellQuoted(_ word: String) -> String {
  var quoted = String.UnicodeScalarView()
  for scalar in word.unicodeScalars {
    if scalar == "'" {
      quoted.append(contentsOf: "'\\''".unicodeScalars)
    } else {
      quoted.append(scalar)
    }
  }
  return "'" + String(quoted) + "'"
}

extension ToolRun {
  /// Runs `command` exactly as printed with `/bin/sh -c`, `ditto-recover` (the built one) on the
  /// `PATH` as an installed tool is, in `folder` (a new temporary folder when nil).
  package static func pasted(_ command: String, in folder: String? = nil) throws -> ToolRun {
    guard let executable = ToolRunner.executablePath else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "ditto-recover"])
    }
    let bin = (executable as NSString).deletingLastPathComponent
    let scratch = folder == nil ? try TemporaryDirectory("pasted") : nil
    return try withExtendedLifetime(scratch) {
      try shell(
        "PATH=\(shellQuoted(bin)):\"$PATH\"; export PATH\n" + command,
        in: folder ?? scratch?.path ?? "/")
    }
  }

  /// Runs `command` with `/bin/sh -c` in `folder`, killed (SIGKILL) once `deadline` seconds have
  /// passed: a hang is reported, never waited on (no GNU `timeout` needed; a stock Mac has none).
  ///
  /// - Returns: what it printed; `timedOut` when the deadline killed it.
  package static func shell(_ command: String, in folder: String, deadline: Double) throws -> (
    run: ToolRun, timedOut: Bool
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: folder, isDirectory: true)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killed = KillSwitch()
    let watchdog = DispatchWorkItem {
      killed.set()
      kill(process.processIdentifier, SIGKILL)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: watchdog)
    let errors = ErrorCollector(handle: error.fileHandleForReading)
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.wait()
    process.waitUntilExit()
    watchdog.cancel()
    let run = ToolRun(
      exitCode: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
    return (run, killed.isSet)
  }

  /// Runs `command` with `/bin/sh -c` in `folder`, as a user pasting it would.
  package static func shell(_ command: String, in folder: String) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: folder, isDirectory: true)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = ErrorCollector(handle: error.fileHandleForReading)
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.wait()
    process.waitUntilExit()
    return ToolRun(
      exitCode: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }
}

/// A flag set once, from any thread.
final class KillSwitch: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
