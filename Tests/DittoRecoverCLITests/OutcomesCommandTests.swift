import Foundation
import TestSupport
import Testing

@Suite struct OutcomesCommandTests {
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("OutcomeReportTests/Samples").path

  @Test func countsEveryStyleAndGivesTheVerdict() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples).sorted()
      .map { Self.samples + "/" + $0 }
    let run = ToolRunner.run(["outcomes", "--json"] + files)
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    for key in ["total", "malformed", "byOutcome", "bySource", "sums", "verdict"] {
      #expect(json.keys.contains(key))
    }
    let byOutcome = try #require(json["byOutcome"] as? [String: Int])
    #expect(
      Set(byOutcome.keys) == [
        "success", "no_new_data", "empty_store", "found_unreadable", "nothing_on_disk",
      ])
    #expect(byOutcome.values.reduce(0, +) == json["total"] as? Int)
    let bySource = try #require(json["bySource"] as? [String: [String: Int]])
    #expect(Set(bySource.keys) == ["auto", "manual"])
    #expect(["recoverable", "gone", "mixed", "too_few"].contains(json["verdict"] as? String ?? ""))
  }

  @Test func readsStandardInputInAProcess() throws {
    guard ToolRunner.executablePath != nil else { return }
    let lines = (0..<30).map { _ in
      "migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27"
    }.joined(separator: "\n")
    let run = try ToolRunner.runProcess(["outcomes", "--json"], standardInput: Data(lines.utf8))
    #expect(run.json?["verdict"] as? String == "recoverable")
    #expect(run.json?["total"] as? Int == 30)
    let text = try ToolRunner.runProcess(["outcomes"], standardInput: Data(lines.utf8))
    #expect(text.standardOutput.contains("recoverable"))
  }

  @Test func badThresholdsAreUsageErrors() {
    #expect(ToolRunner.run(["outcomes", "--recoverable-threshold", "abc"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "--gone-threshold", "0"]).exitCode == 64)
    #expect(ToolRunner.run(["outcomes", "/no/such/file"]).exitCode == 66)
  }
}
