import Telemetry

/// How many valid tags reported each outcome.
///
/// Every outcome has a count, zero included, so a report always lists all of them.
package struct OutcomeCounts: Equatable, Sendable {
  private var values: [Int] = Array(repeating: 0, count: MigrationOutcome.allCases.count)

  /// All counts zero.
  package init() {}

  /// The number of tags with `outcome`.
  package subscript(outcome: MigrationOutcome) -> Int {
    get { values[Self.index(of: outcome)] }
    set { values[Self.index(of: outcome)] = newValue }
  }

  /// The number of tags, all outcomes together.
  package var total: Int { values.reduce(0, +) }

  private static func index(of outcome: MigrationOutcome) -> Int {
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
