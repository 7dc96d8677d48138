import DittoRecoverCLI
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// Words that work as printed: plurals right, JSON wherever --json is given, and a `next:` line at
/// each dead end that pastes and runs.
@Suite struct WordsThatWorkTests {
  /// The `next:` commands of a run's standard error (or output), without their labels.
  static func nextCommands(_ text: String) -> [String] {
    text.split(separator: "\n").filter { $0.hasPrefix("next: ") }.map { line in
      let command = line.dropFirst("next: ".count)
      guard let label = command.range(of: "  # ") else { return String(command) }
      return String(command[..<label.lowerBound])
    }
  }

  @Test func oneOfAnythingIsSingular() throws {
    let folder = try TemporaryDirectory("words-plural")
    let container = folder.appending("device")
    _ = try FixtureScenario.intact2x.build(
      at: container,
      parameters: .init(categories: 1, dittosPerCategory: 1, seed: 3, library: .empty))
    let run = ToolRunner.run(["recover", "--container", container])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("read: 1 category, 1 ditto\n"), "\(run.standardOutput)")
    #expect(
      run.standardOutput.contains("inserted: 1 new category, 1 new ditto (skipped 0 duplicates)"))
    let again = ToolRunner.run(["recover", "--container", container])
    #expect(again.standardOutput.contains("(skipped 1 duplicate)"), "\(again.standardOutput)")
    // The tool's own lines; the first line is the seed's message, word for word ("Recovered N
    // dittos from your previous version."), which the app localizes with its plural rules.
    let own = (run.standardOutput + again.standardOutput).split(separator: "\n").filter {
      !$0.hasPrefix("Recovered ") && !$0.hasPrefix("Your old dittos")
    }
    for wrong in ["1 categories", "1 dittos", "1 duplicates"] {
      #expect(!own.contains { $0.contains(wrong) }, "\(wrong)")
    }
  }

  @Test func versionAndCompletionPrintJSONUnderJSON() throws {
    let version = ToolRunner.run(["--version", "--json"])
    #expect(version.exitCode == 0)
    let object = try #require(version.json)
    #expect(object["version"] as? String == Tool.version)
    #expect(object["name"] as? String == "ditto-recover")
    #expect(object.keys.contains("commit") && object.keys.contains("built"))
    for shell in ["bash", "zsh", "fish"] {
      let completion = ToolRunner.run(["completion", shell, "--json"])
      #expect(completion.exitCode == 0)
      #expect(completion.json?["shell"] as? String == shell)
      #expect((completion.json?["script"] as? String)?.contains("ditto-recover") == true)
    }
  }

  @Test func anExistingOutputNamesTheSameCommandWithAFreeName() throws {
    let folder = try TemporaryDirectory("words-exists")
    let container = folder.appending("device")
    _ = try FixtureScenario.intact2x.build(at: container, parameters: .init(seed: 4))
    let out = folder.appending("out.dittorecovery")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: out))
    let run = ToolRunner.run(["extract", "--container", container, "--out", out])
    #expect(run.exitCode == 73)
    let next = Self.nextCommands(run.standardError)
    #expect(
      next == [
        "ditto-recover extract --container \(container) --out \(shown(folder.appending("out-2.dittorecovery")))"
      ])
    let pasted = try ToolRun.pasted(try #require(next.first), in: folder.path)
    #expect(pasted.exitCode == 0, "\(pasted.standardError)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "mine")

    let html = folder.appending("outcomes.html")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: html))
    let log = folder.appending("a.log")
    try Data(
      "migration_outcome source=auto outcome=success categories=1 dittos=1 inserted=1\n".utf8
    )
    .write(to: URL(fileURLWithPath: log))
    let outcomes = ToolRunner.run(["outcomes", log, "--html", html])
    #expect(outcomes.exitCode == 73)
    #expect(
      outcomes.standardError.contains("e.g. --html \(shown(folder.appending("outcomes-2.html")))"))
    let rerun = Self.nextCommands(outcomes.standardError)
    #expect(
      rerun == [
        "ditto-recover outcomes \(log) --html \(shown(folder.appending("outcomes-2.html")))"
      ])
  }

  @Test func aGarbageStoreNamesSalvage() throws {
    let folder = try TemporaryDirectory("words-garbage")
    let container = folder.appending("device")
    _ = try FixtureScenario.garbage.build(
      at: container, parameters: .init(seed: 5, library: .empty))
    let store = shown(container + "/Ditto.sqlite")
    let recover = ToolRunner.run(["recover", "--container", container])
    #expect(recover.exitCode == 65)
    #expect(
      Self.nextCommands(recover.standardOutput + recover.standardError).contains(
        "ditto-recover salvage \(store)"))
    let export = ToolRunner.run([
      "export", "--legacy", container + "/Ditto.sqlite", "--format", "csv",
    ])
    #expect(export.exitCode == 65)
    let next = Self.nextCommands(export.standardError)
    #expect(next == ["ditto-recover salvage \(store) --format csv"])
    let pasted = try ToolRun.pasted(try #require(next.first), in: folder.path)
    #expect([0, 65].contains(pasted.exitCode), "\(pasted.standardError)")
  }

  @Test func aReadOnlyLibraryNamesTheWayToWriteIt() throws {
    let folder = try TemporaryDirectory("words-read-only")
    let container = folder.appending("device")
    _ = try FixtureScenario.intact2x.build(
      at: container, parameters: .init(seed: 6, library: .empty))
    let library = container + "/Ditto.store"
    var files = [library]
    for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: library + suffix) {
      files.append(library + suffix)
    }
    for file in files { chmod(file, 0o444) }
    let run = ToolRunner.run(["recover", "--container", container])
    #expect(run.exitCode == 74)
    let next = Self.nextCommands(run.standardOutput)
    #expect(next.first == (["chmod", "u+w"] + files.map(shown)).joined(separator: " "))
    #expect(next.last == "ditto-recover recover --container \(container)")
    for command in next {
      let pasted = try ToolRun.pasted(command, in: folder.path)
      #expect(pasted.exitCode == 0, "\(command): \(pasted.standardError)")
    }
  }
}
