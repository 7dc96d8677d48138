import Telemetry

/// One of the terminal outcomes a `migration_outcome` tag reports: the engine's own
/// `MigrationOutcome` (declared once, in Telemetry). The raw values are the telemetry codes, spelled
/// as in the tag (`outcome=no_new_data`) and as the keys of the `--json` report; `allCases` is in the
/// spec's order, which is also the row order of the text report and the bar order of the HTML page.
package typealias OutcomeCode = MigrationOutcome

/// What started the migration attempt that emitted a tag (`source=`): the engine's own
/// `MigrationSource`.
package typealias OutcomeSource = MigrationSource

/// How many valid tags reported each outcome.
///
/// Every outcome has a count, zero included, so a report always lists all of them.
package struct OutcomeCounts: Equatable, Sendable {
  private var values: [Int] = Array(repeating: 0, count: OutcomeCode.allCases.count)

  /// All counts zero.
  package init() {}

  /// The number of tags with `outcome`.
  package subscript(outcome: OutcomeCode) -> Int {
    get { values[Self.index(of: outcome)] }
    set { values[Self.index(of: outcome)] = newValue }
  }

  /// The number of tags, all outcomes together.
  package var total: Int { values.reduce(0, +) }

  private static func index(of outcome: OutcomeCode) -> Int {
    switch outcome {
    case .success: 0
    case .noNewData: 1
    case .emptyStore: 2
    case .foundUnreadable: 3
    case .nothingOnDisk: 4
    case .libraryError: 5
    }
  }
}

/// The sums of the numeric fields of all valid tags.
///
/// Additions saturate at `Int.max` instead of trapping: the numbers come from files.
package struct OutcomeSums: Equatable, Sendable {
  /// The sum of `categories=`.
  package var categories = 0
  /// The sum of `dittos=`.
  package var dittos = 0
  /// The sum of `inserted=`.
  package var inserted = 0

  /// Sums of the given values (all zero by default).
  package init(categories: Int = 0, dittos: Int = 0, inserted: Int = 0) {
    self.categories = categories
    self.dittos = dittos
    self.inserted = inserted
  }

  /// Adds one tag's fields.
  mutating func add(categories: Int, dittos: Int, inserted: Int) {
    self.categories = Self.saturatingSum(self.categories, categories)
    self.dittos = Self.saturatingSum(self.dittos, dittos)
    self.inserted = Self.saturatingSum(self.inserted, inserted)
  }

  private static func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? Int.max : sum
  }
}
