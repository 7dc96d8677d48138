import EngineTestSupport
import Foundation
import LogArchiveFixtures
import StoreFixtures
import TestSupport
import Testing

/// Inputs that expand: a generated family over the container (a gzip capture, a zip of captures, a
/// sysdiagnose `.tar.gz` holding a zero-filled tracev3, a tracev3 whose LZ4 ChunkSets expand to
/// zeros) and the expansion ratio (what a byte of the file becomes: a few to tens of thousands).
/// Each is read by `outcomes` (and `logs`, for the log archives) to its end in memory that does not
/// grow with what it expands to (under 48 MB above `--version` for 32 to 64 MiB expanded), with an
/// answer, in a child process killed at a deadline.
@Suite struct ExpansionFamilyTests {
  enum Container: CaseIterable {
    case gzipCapture, zipCapture, sysdiagnoseZeros, lz4Zeros
  }

  static let deadline: TimeInterval = 120

  /// Peak memory (KB) of one run of the tool, and the run.
  static func peak(_ arguments: [String]) throws -> (kilobytes: Int, run: ToolRun) {
    let launcher = try ProcessLauncher(arguments, wrapper: ["/usr/bin/time", "-f", "maxrss_kb=%M"])
    let watchdog = DispatchWorkItem { kill(launcher.process.processIdentifier, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline, execute: watchdog)
    let result = launcher.finish()
    watchdog.cancel()
    let line = result.standardError.split(separator: "\n").last { $0.hasPrefix("maxrss_kb=") }
    return (line.flatMap { Int($0.dropFirst("maxrss_kb=".count)) } ?? Int.max, result)
  }

  /// Writes the member and returns its path and how many bytes it expands to.
  static func make(
    _ container: Container, in folder: String, using generator: inout SeededGenerator
  ) throws -> (path: String, expanded: Int) {
    let mebibytes = Int.random(in: 32...64, using: &generator)
    let size = mebibytes << 20
    // Plain text repeated (a ratio of about a thousand), or with a share of random bytes in each
    // line (tens down to a few).
    let randomShare = [0, 0, 8, 32].randomElement(using: &generator)!
    let line =
      "migration_outcome source=auto outcome=success categories=3 dittos=9 inserted=9 and some padding"
    let text =
      randomShare == 0
      ? "yes '\(line)' | head -c \(size)"
      : "head -c \(size / 2) /dev/urandom | od -An -tx1 | tr -s ' ' | head -c \(size)"
    /// Runs `command` in `folder`, which writes `file` there.
    func written(_ file: String, by command: String) throws -> (path: String, expanded: Int) {
      let made = try ToolRun.shell(command, in: folder)
      #expect(made.exitCode == 0, "\(made.standardError)")
      return (folder + "/" + file, size)
    }
    let sysdiagnose = "sysdiagnose_2026.12.01_09-00-00-0800_iPhone-OS_iPhone_22B83"
    switch container {
    case .gzipCapture:
      let level = Int.random(in: 1...9, using: &generator)
      return try written("tester.log.gz", by: "\(text) | gzip -\(level) > tester.log.gz")
    case .zipCapture:
      return try written(
        "captures.zip",
        by:
          "\(text) > tester.log && python3 -c \"import zipfile; z = zipfile.ZipFile('captures.zip', 'w', zipfile.ZIP_DEFLATED); z.write('tester.log'); z.close()\" && rm tester.log"
      )
    case .sysdiagnoseZeros:
      let trace = "\(sysdiagnose)/system_logs.logarchive/Persist/0000000000000001.tracev3"
      return try written(
        sysdiagnose + ".tar.gz",
        by:
          "mkdir -p \((trace as NSString).deletingLastPathComponent) && head -c \(size) /dev/zero > \(trace) && tar czf \(sysdiagnose).tar.gz \(sysdiagnose) && rm -r \(sysdiagnose)"
      )
    case .lz4Zeros:
      // A real file's head (header, catalog), then ChunkSets of 1 to 16 MiB of zeros each.
      var bytes = LogArchiveWriter().traceV3([])
      var expanded = 0
      while expanded < size {
        let piece = min(size - expanded, Int.random(in: 1...16, using: &generator) << 20)
        bytes += LogArchiveWriter.chunk(
          tag: 0x600D, subtag: 0,
          LogArchiveWriter.compress([UInt8](repeating: 0, count: piece), .lz4))
        expanded += piece
      }
      let path = folder + "/zeros.tracev3"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return (path, expanded)
    }
  }

  /// One member per container (run side by side), its size, ratio and level drawn from the seed.
  @Test(arguments: Container.allCases)
  func anExpansionIsReadInMemoryThatDoesNotGrowWithIt(container: Container) throws {
    var generator = SeededGenerator(
      seed: FamilySeed.base(0xB0B5) &+ UInt64(Container.allCases.firstIndex(of: container)!))
    let baseline = try Self.peak(["--version"]).kilobytes
    do {
      let folder = try TemporaryDirectory("expansion")
      let (path, expanded) = try Self.make(container, in: folder.path, using: &generator)
      let packed = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 1
      let label =
        "\(container): \(packed) bytes expanding to \(expanded) (\(expanded / max(packed, 1))x)"
      var commands = [["outcomes", path]]
      if container == .sysdiagnoseZeros || container == .lz4Zeros {
        commands.append(["logs", path])
      }
      for command in commands {
        let (kilobytes, run) = try Self.peak(command)
        // An answer: read (0), or damage named (65); never a signal or the deadline's kill.
        #expect([0, 65, 66].contains(run.exitCode), "\(label): \(command[0]) exit \(run.exitCode)")
        #expect(
          kilobytes - baseline < 48 * 1024,
          "\(label): \(command[0]) peaked \(kilobytes - baseline) KB above --version")
        // Problems said in a few lines, never one per piece of the expansion.
        #expect(run.standardError.split(separator: "\n").count < 40, "\(label): \(command[0])")
      }
    }
  }
}
