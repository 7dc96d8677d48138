import Foundation

/// How hard the harness pushes: small in CI, large on demand (`scripts/harness`).
///
/// `DITTO_HARNESS_BUDGET=large` selects the large budget.
struct HarnessBudget: Sendable {
  var categories: Int
  var dittosPerCategory: Int
  var randomKills: Int
  var concurrencyRounds: Int
  var sparseFileBytes: Int64
  var manyFiles: Int

  static let small = HarnessBudget(
    categories: 4, dittosPerCategory: 25, randomKills: 8, concurrencyRounds: 3,
    sparseFileBytes: 2 << 30, manyFiles: 20_000)
  static let large = HarnessBudget(
    categories: 12, dittosPerCategory: 400, randomKills: 200, concurrencyRounds: 40,
    sparseFileBytes: 2 << 30, manyFiles: 100_000)

  static var current: HarnessBudget {
    ProcessInfo.processInfo.environment["DITTO_HARNESS_BUDGET"] == "large" ? .large : .small
  }

  static var isLarge: Bool {
    ProcessInfo.processInfo.environment["DITTO_HARNESS_BUDGET"] == "large"
  }
}

/// Prints one line of harness figures (kept in the test log for the closing report).
func report(_ line: String) {
  print("harness: \(line)")
}
