import EngineTestSupport
import Foundation
import LegacyMigration
import StoreFixtures
import TestSupport
import Testing

/// The app and its keyboard extension may run the migrator at the same moment on the same container.
@Suite
struct ConcurrencyTests {
  let budget = HarnessBudget.current

  @Test(arguments: [2, 8], ["migrate", "recover"])
  func simultaneousProcessesNeverInsertTwice(processes: Int, command: String) throws {
    var outcomesSeen: [String: Int] = [:]
    for round in 0..<budget.concurrencyRounds {
      let folder = try TemporaryDirectory("concurrent")
      let container = folder.appending("device")
      try FixtureScenario.intact2x.build(
        at: container,
        parameters: .init(
          categories: budget.categories, dittosPerCategory: budget.dittosPerCategory,
          seed: UInt64(round)))
      let total = budget.categories * budget.dittosPerCategory
      let before = try FileHashes(of: container)
      let runs = try (0..<processes).map { _ in
        try ProcessLauncher([command, "--container", container, "--json"])
      }.map { $0.finish() }
      #expect(runs.allSatisfy { $0.exitCode == 0 }, "\(runs.map(\.standardError))")
      let attempted = runs.filter { $0.json?["attempted"] as? Bool != false }
      let outcomes = attempted.compactMap { $0.json?["outcome"] as? String }
      for outcome in outcomes { outcomesSeen[outcome, default: 0] += 1 }
      // migrate only: a process starting after the winner set the flag does not attempt at all.
      let skipped = runs.count - attempted.count
      if skipped > 0 { outcomesSeen["not attempted (flag already set)", default: 0] += skipped }
      #expect(outcomes.count == attempted.count)
      #expect(outcomes.filter { $0 == "success" }.count == 1, "\(outcomes)")
      #expect(outcomes.allSatisfy { $0 == "success" || $0 == "no_new_data" })
      #expect(runs.reduce(0) { $0 + ($1.json?["inserted"] as? Int ?? 0) } == total)
      // One telemetry line per attempt, none for a flag short-circuit.
      #expect(runs.map(\.outcomeLines.count).reduce(0, +) == attempted.count)
      let export = try ToolRunner.runProcess([
        "export", "--library", container + "/Ditto.store",
      ])
      let library =
        try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any]
      let categories = library?["categories"] as? [[String: Any]] ?? []
      #expect(categories.count == budget.categories)
      #expect(categories.reduce(0) { $0 + (($1["dittos"] as? [Any])?.count ?? 0) } == total)
      let changed = try FileHashes(of: container).changes(since: before).filter {
        !$0.hasPrefix("/Ditto.store") && !$0.hasPrefix("/Library/Preferences")
      }
      #expect(changed.isEmpty)
    }
    report(
      "concurrency: \(budget.concurrencyRounds) rounds of \(processes) × \(command): outcomes \(outcomesSeen.sorted { $0.key < $1.key })"
    )
  }
}
