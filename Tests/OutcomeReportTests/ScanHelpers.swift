import Foundation
import Telemetry
import Testing

@testable import OutcomeReport

/// Loads the sample captures next to this file and runs scans over byte arrays.
enum Samples {
  /// The folder of sample captures.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Samples")

  /// Every sample file name.
  static let names = [
    "default.log", "compact.log", "syslog.log", "json.json", "ndjson.ndjson",
    "console-default.txt", "console-columns.txt", "plain.txt", "grep-prefixed.txt",
  ]

  /// The path of a sample.
  static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// The bytes of a sample.
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }
}

/// Scans each input as its own input, fed in chunks of `chunkSize` bytes (whole when nil).
func scan(
  _ inputs: [[UInt8]], chunkSize: Int? = nil, options: OutcomeScanner.Options = .init()
) -> OutcomeSummary {
  var scanner = OutcomeScanner(options: options)
  for input in inputs {
    scanner.beginInput()
    let size = max(chunkSize ?? input.count, 1)
    var start = 0
    while start < input.count {
      let end = min(start + size, input.count)
      scanner.consume(input[start..<end])
      start = end
    }
    scanner.endInput()
  }
  return scanner.finish()
}

/// Scans text inputs whole.
func scan(_ texts: String..., options: OutcomeScanner.Options = .init()) -> OutcomeSummary {
  scan(texts.map { Array($0.utf8) }, options: options)
}

/// Counts from a literal: `counts([.success: 2])`.
func counts(_ values: [MigrationOutcome: Int]) -> OutcomeCounts {
  var counts = OutcomeCounts()
  for (outcome, value) in values { counts[outcome] = value }
  return counts
}

/// A valid tag line.
func tag(
  _ source: MigrationSource, _ outcome: MigrationOutcome, categories: Int = 0, dittos: Int = 0,
  inserted: Int = 0
) -> String {
  "migration_outcome source=\(source.rawValue) outcome=\(outcome.rawValue) "
    + "categories=\(categories) dittos=\(dittos) inserted=\(inserted)"
}

/// What a sample should give.
struct SampleExpectation: Sendable, CustomTestStringConvertible {
  var name: String
  var style: LogStyle
  var auto: [MigrationOutcome: Int]
  var manual: [MigrationOutcome: Int]
  var malformed = 0
  var ignored = 0
  var sums: OutcomeSums

  var testDescription: String { name }

  /// Checks a summary of this sample alone.
  func check(_ summary: OutcomeSummary, sourceLocation: SourceLocation = #_sourceLocation) {
    var both = counts(auto)
    for (outcome, value) in manual { both[outcome] += value }
    #expect(summary.auto == counts(auto), sourceLocation: sourceLocation)
    #expect(summary.manual == counts(manual), sourceLocation: sourceLocation)
    #expect(summary.byOutcome == both, sourceLocation: sourceLocation)
    #expect(summary.malformed == malformed, sourceLocation: sourceLocation)
    #expect(summary.ignored == ignored, sourceLocation: sourceLocation)
    #expect(summary.duplicates == 0, sourceLocation: sourceLocation)
    #expect(summary.tagSums == sums, sourceLocation: sourceLocation)
    #expect(summary.styles == [style: 1], sourceLocation: sourceLocation)
  }
}
