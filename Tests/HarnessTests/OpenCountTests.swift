import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// One look per run: in one run of `status`, `migrate`, `recover` or `extract`, the legacy store
/// and the App Group defaults plist are each opened at most 3 times, a store that cannot be read
/// included (salvage and the search nearby read it too). Counted from outside the tool's code: a
/// library preloaded into the built binary counts every successful open of each file, known by
/// its device and inode (`Shims/open-count.c`). `scripts/open-counts` measures the same with
/// strace.
@Suite struct OpenCountTests {
  static let bound = 3

  /// A container whose `Ditto.sqlite` has an SQLite header and then bytes SQLite cannot read,
  /// beside an empty library and a defaults plist.
  static func container(in folder: String, seed: UInt64) throws -> String {
    let container = folder + "/group.io.kern.ditto"
    let builder = try ContainerBuilder(root: container)
    var generator = SeededGenerator(seed: seed)
    let noise = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try builder.writeBytes(Array("SQLite format 3\0".utf8) + noise, at: "Ditto.sqlite")
    try builder.writeDefaults(["io.kern.ditto.theme": .string("dark")])
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    return container
  }

  static func buildCounter(in folder: String) throws -> String {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Shims/open-count.c").path
    let output = folder + "/open-count.so"
    var messages = ""
    for compiler in ["cc", "clang"] {
      let run = try ToolRun.shell(
        [compiler, "-O1", "-shared", "-fPIC", "-o", output, source, "-ldl"].map(shellQuoted)
          .joined(separator: " ") + " 2>&1", in: folder)
      if run.exitCode == 0 { return output }
      messages += run.standardOutput
    }
    throw CounterError(description: "no C compiler could build \(source): \(messages)")
  }

  struct CounterError: Error, CustomStringConvertible {
    let description: String
  }

  static func identity(_ path: String) throws -> String {
    let status = try #require(try FileStatus.of(path: path))
    return "\(status.identity.device):\(status.identity.inode)"
  }

  @Test(arguments: ["status", "migrate", "recover", "extract"])
  func eachLegacyFileIsOpenedAtMostThreeTimes(command: String) throws {
    #if os(Linux)
      let folder = try TemporaryDirectory("open-count")
      let counter = try Self.buildCounter(in: folder.path)
      let container = try Self.container(in: folder.path, seed: FamilySeed.base(0x0C47))
      let store = container + "/Ditto.sqlite"
      let plist = AppGroupDefaults(path: ContainerLayout(container: container).defaultsPath).path
      let files = [store: try Self.identity(store), plist: try Self.identity(plist)]
      let report = folder.appending("counts.txt")
      var environment = ProcessInfo.processInfo.environment
      environment["LD_PRELOAD"] = counter
      environment["DITTO_COUNT_OPENS"] = files.values.sorted().joined(separator: ",")
      environment["DITTO_COUNT_OPENS_OUT"] = report
      let extra = command == "extract" ? ["--out", folder.appending("out.dittorecovery")] : []
      let run = try ToolRunner.runProcess(
        [command, "--container", container] + extra, environment: environment,
        currentDirectory: folder.path)
      #expect(run.exitCode != 1, "\(command): \(run.standardError)")
      let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
      var counts: [String: Int] = [:]
      for line in lines {
        let parts = line.split(separator: " ")
        counts[String(parts[0])] = Int(parts[1])
      }
      for (path, identity) in files {
        let count = try #require(counts[identity], "\(command): \(path) was not counted")
        // Opened at all: the counter sees the tool's opens.
        #expect(count >= 1, "\(command): \(path) never opened (is the counter preloaded?)")
        #expect(count <= Self.bound, "\(command): \(path) opened \(count) times")
      }
    #else
      Issue.record("the open counter is preloaded with LD_PRELOAD: run these tests on Linux")
    #endif
  }
}
