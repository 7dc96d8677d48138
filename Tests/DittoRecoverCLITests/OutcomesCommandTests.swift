import EngineTestSupport
import Foundation
import LogArchiveFixtures
import TestSupport
import Testing

@Suite struct OutcomesCommandTests {
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("OutcomeReportTests/Samples").path

  static let outcomes: Set<String> = [
    "success", "no_new_data", "empty_store", "found_unreadable", "nothing_on_disk", "library_error",
  ]

  static func sampleFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: samples).sorted().map { samples + "/" + $0 }
  }

  @Test func countsEveryStyleAndGivesTheVerdict() throws {
    let files = try Self.sampleFiles()
    let run = ToolRunner.run(["outcomes", "--json"] + files)
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    for key in [
      "total", "malformed", "byOutcome", "bySource", "sums", "verdict", "unit", "weighed",
      "confidence", "intervals", "devices",
    ] {
      #expect(json.keys.contains(key), "\(key)")
    }
    let byOutcome = try #require(json["byOutcome"] as? [String: Int])
    #expect(Set(byOutcome.keys) == Self.outcomes)
    #expect(byOutcome.values.reduce(0, +) == json["total"] as? Int)
    let bySource = try #require(json["bySource"] as? [String: [String: Int]])
    #expect(Set(bySource.keys) == ["auto", "manual"])
    #expect(["recoverable", "gone", "mixed", "too_few"].contains(json["verdict"] as? String ?? ""))
    #expect(json["unit"] as? String == "device")
    #expect(json["weighed"] as? Int == files.count)
    let devices = try #require(json["devices"] as? [[String: Any]])
    #expect(devices.map { $0["input"] as? String } == files)
    let intervals = try #require(json["intervals"] as? [String: [Double]])
    #expect(Set(intervals.keys) == Self.outcomes.union(["recoverable", "gone"]))
  }

  @Test func aLockedFirstLaunchThenASuccessIsASuccessAndOnlyNotNowIsPending() throws {
    let folder = try TemporaryDirectory("outcomes-pending")
    func line(_ outcome: String, _ extra: String = "") -> String {
      "migration_outcome source=auto outcome=\(outcome) categories=0 dittos=0 inserted=0\(extra)"
    }
    let recovered = folder.appending("recovered.log")
    let locked = folder.appending("locked.log")
    try [line("found_unreadable", " reason=permission"), line("success")]
      .joined(separator: "\n").write(toFile: recovered, atomically: true, encoding: .utf8)
    try [line("found_unreadable", " reason=permission"), line("library_error")]
      .joined(separator: "\n").write(toFile: locked, atomically: true, encoding: .utf8)
    let run = ToolRunner.run(["outcomes", "--json", recovered, locked])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["pending"] as? Int == 1)
    #expect(json["weighed"] as? Int == 1)
    let devices = try #require(json["devices"] as? [[String: Any]])
    #expect(devices.map { $0["outcome"] as? String } == ["success", "pending"])
    let text = ToolRunner.run(["outcomes", recovered, locked]).standardOutput
    #expect(text.contains("1 device is pending"), "\(text)")
    let tags = try #require(
      ToolRunner.run(["outcomes", "--json", "--unit", "tag", recovered, locked]).json)
    #expect((tags["byOutcome"] as? [String: Int])?["found_unreadable"] == 2)
  }

  @Test func tagUnitWeighsEveryTag() throws {
    let files = try Self.sampleFiles()
    let json = try #require(ToolRunner.run(["outcomes", "--json", "--unit", "tag"] + files).json)
    #expect(json["unit"] as? String == "tag")
    #expect(json["devices"] == nil)
    #expect(json["weighed"] as? Int == json["tags"] as? Int)
    #expect((json["tags"] as? Int ?? 0) > files.count)
  }

  @Test func readsStandardInputInAProcess() throws {
    guard ToolRunner.executablePath != nil else { return }
    let lines = (0..<30).map { _ in
      "migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27"
    }.joined(separator: "\n")
    let run = try ToolRunner.runProcess(
      ["outcomes", "--json", "--unit", "tag"], standardInput: Data(lines.utf8))
    #expect(run.json?["verdict"] as? String == "recoverable")
    #expect(run.json?["total"] as? Int == 30)
    let device = try ToolRunner.runProcess(["outcomes", "--json"], standardInput: Data(lines.utf8))
    #expect(device.json?["weighed"] as? Int == 1)
    #expect(device.json?["verdict"] as? String == "too_few")
    let devices = device.json?["devices"] as? [[String: Any]]
    #expect(devices?.first?["input"] as? String == "-")
    #expect(devices?.first?["tags"] as? Int == 30)
    let text = try ToolRunner.runProcess(
      ["outcomes", "--unit", "tag"], standardInput: Data(lines.utf8))
    #expect(text.standardOutput.contains("Verdict: recoverable"))
  }

  @Test func confidenceAndWidthChangeTheVerdict() throws {
    let folder = try TemporaryDirectory("outcomes-devices")
    var files: [String] = []
    for index in 0..<5 {
      let path = folder.appending("device\(index).log")
      try Data(
        "migration_outcome source=auto outcome=success categories=1 dittos=1 inserted=1\n".utf8
      )
      .write(to: URL(fileURLWithPath: path))
      files.append(path)
    }
    // 5 of 5: lower bound 56.6% at 95%, 64.9% at 80%; 43.4 points wide.
    #expect(
      ToolRunner.run(["outcomes", "--json"] + files).json?["verdict"] as? String == "too_few")
    let sure = ToolRunner.run(["outcomes", "--json", "--confidence", "0.8"] + files).json
    #expect(sure?["verdict"] as? String == "recoverable")
    #expect(sure?["confidence"] as? Double == 0.8)
    let wide = ToolRunner.run(
      ["outcomes", "--json", "--max-width", "0.5", "--recoverable-threshold", "0.9"] + files)
    #expect(wide.json?["verdict"] as? String == "mixed")
    let text = ToolRunner.run(["outcomes"] + files).standardOutput
    #expect(text.contains("Weighed: 5 devices"))
    #expect(text.contains("DEVICE OUTCOME"))
    #expect(text.contains("95% INTERVAL"))
  }

  @Test func writesTheHTMLPage() throws {
    let folder = try TemporaryDirectory("outcomes-html")
    let page = folder.appending("report.html")
    let run = ToolRunner.run(["outcomes", "--html", page] + (try Self.sampleFiles()))
    #expect(run.exitCode == 0)
    #expect(run.standardOutput.contains("Verdict:"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.components(separatedBy: "<rect ").count - 1 == Self.outcomes.count)
    #expect(!html.contains("<script"))
    let missing = ToolRunner.run(["outcomes", "--html", "/no/such/folder/report.html"])
    #expect(missing.exitCode == 74)
  }

  @Test func badOptionsAreUsageErrors() {
    #expect(ToolRunner.run(["outcomes", "--recoverable-threshold", "abc"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "--gone-threshold", "0"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "--confidence", "1"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "--max-width", "0"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "--unit", "line"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "/no/such/file"]).exitCode == 66)
  }
}

/// What `outcomes` does not read is named and makes the verdict incomplete: a FIFO, a socket or a
/// link in a folder is never opened; a device given by name is refused (`/dev/zero` never ends);
/// `-` reads standard input.
@Suite struct OutcomesUnreadInputsTests {
  static let tag =
    "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=2\n"

  @Test func whatAFolderHoldsThatIsNoFileIsNamedAndTheSampleIncomplete() throws {
    let folder = try TemporaryDirectory("outcomes-special")
    try Data(Self.tag.utf8).write(to: URL(fileURLWithPath: folder.appending("tester-a.log")))
    #expect(mkfifo(folder.appending("tester-b.log"), 0o644) == 0)
    #expect(symlink(folder.appending("tester-a.log"), folder.appending("tester-c.log")) == 0)
    let run = try ToolRunner.runProcess(["outcomes", "--json", folder.path])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["incomplete"] as? Bool == true)
    let problems = try #require(json["inputProblems"] as? [[String: Any]])
    let named = Set(problems.compactMap { $0["input"] as? String })
    #expect(named == [folder.appending("tester-b.log"), folder.appending("tester-c.log")])
    #expect(problems.allSatisfy { $0["problemCode"] as? String == "not_read" })
    #expect(run.standardError.contains("tester-b.log: not read: a FIFO"))
  }

  @Test func aDeviceIsRefusedByName() throws {
    let run = try ToolRunner.runProcess(["outcomes", "/dev/zero"])
    #expect(run.exitCode == 66)
    #expect(run.standardError.contains("/dev/zero: is a character device"))
  }

  @Test func aDashReadsStandardInput() throws {
    let run = try ToolRunner.runProcess(
      ["outcomes", "--json", "-"], standardInput: Data(Self.tag.utf8))
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect((json["byOutcome"] as? [String: Int])?["success"] == 1)
  }
}

/// Inputs are classified file by file: a loose tracev3 file in a testers' folder is one device of
/// its own and swallows nothing beside it.
@Suite struct LooseTraceV3Tests {
  @Test func aLooseTraceV3AmongCapturesIsItsOwnDevice() throws {
    let folder = try TemporaryDirectory("outcomes-loose")
    let tag = { (outcome: String) in
      "migration_outcome source=auto outcome=\(outcome) categories=1 dittos=2 inserted=2\n"
    }
    try Data(tag("success").utf8).write(to: URL(fileURLWithPath: folder.appending("alice.log")))
    try Data(tag("no_new_data").utf8).write(to: URL(fileURLWithPath: folder.appending("bob.log")))
    let entries = [
      LogArchiveWriter.Entry(
        offsetNanoseconds: 1_000, message: tag("nothing_on_disk").trimmingCharacters(in: .newlines))
    ]
    try Data(LogArchiveWriter().traceV3(entries)).write(
      to: URL(fileURLWithPath: folder.appending("carol.tracev3")))
    let run = try ToolRunner.runProcess(["outcomes", "--json", folder.path])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["inputs"] as? Int == 3)
    let byOutcome = try #require(json["byOutcome"] as? [String: Int])
    #expect(byOutcome["success"] == 1 && byOutcome["no_new_data"] == 1)
    #expect(byOutcome["nothing_on_disk"] == 1)
  }
}
