import Foundation
import Testing

@testable import OutcomeReport

/// Every style of capture in Samples/, read whole and in small chunks.
struct SampleStyleTests {
  static let expectations: [SampleExpectation] = [
    // Preamble echo, Inventory category, two continuation lines, a line with no subsystem.
    SampleExpectation(
      name: "default.log", style: .default,
      auto: [.success: 1, .foundUnreadable: 1, .nothingOnDisk: 1], manual: [.noNewData: 1],
      malformed: 1, ignored: 5, sums: OutcomeSums(categories: 8, dittos: 54, inserted: 27)),
    // A sender with no subsystem is someone else's line.
    SampleExpectation(
      name: "compact.log", style: .compact,
      auto: [.success: 1, .foundUnreadable: 1], manual: [.noNewData: 1],
      ignored: 1, sums: OutcomeSums(categories: 8, dittos: 54, inserted: 27)),
    // `categories=x` is malformed; runs of blanks between fields are fine.
    SampleExpectation(
      name: "syslog.log", style: .syslog,
      auto: [.success: 1, .nothingOnDisk: 1], manual: [.emptyStore: 1],
      malformed: 1, sums: OutcomeSums(categories: 4, dittos: 27, inserted: 27)),
    // Braces and quotes in strings, `\/`, `\n`, a tag in formatString, `<private>`, Inventory.
    SampleExpectation(
      name: "json.json", style: .json,
      auto: [.success: 1, .emptyStore: 1], manual: [.noNewData: 1],
      malformed: 1, ignored: 2, sums: OutcomeSums(categories: 8, dittos: 54, inserted: 27)),
    // The finished trailer is not an entry; `"subsystem":""` is someone else's.
    SampleExpectation(
      name: "ndjson.ndjson", style: .ndjson,
      auto: [.success: 1, .nothingOnDisk: 1], manual: [.noNewData: 1],
      ignored: 1, sums: OutcomeSums(categories: 8, dittos: 54, inserted: 27)),
    // No subsystem column: tags are accepted; a repeated row has no identity and counts twice.
    SampleExpectation(
      name: "console-default.txt", style: .console,
      auto: [.success: 2], manual: [.noNewData: 1],
      ignored: 1, sums: OutcomeSums(categories: 12, dittos: 81, inserted: 54)),
    // Subsystem and Category columns filter.
    SampleExpectation(
      name: "console-columns.txt", style: .console,
      auto: [.success: 1, .foundUnreadable: 1], manual: [:],
      ignored: 2, sums: OutcomeSums(categories: 4, dittos: 27, inserted: 27)),
    // Bare tags: repeated lines count twice; unknown outcome and missing field are malformed.
    SampleExpectation(
      name: "plain.txt", style: .plain,
      auto: [.success: 3], manual: [.nothingOnDisk: 1],
      malformed: 2, sums: OutcomeSums(categories: 9, dittos: 55, inserted: 55)),
    // `grep -H` / `grep -Hn` over several styles; the echoed predicate and another subsystem.
    SampleExpectation(
      name: "grep-prefixed.txt", style: .default,
      auto: [.success: 1, .nothingOnDisk: 1, .emptyStore: 1], manual: [.noNewData: 1],
      ignored: 2, sums: OutcomeSums(categories: 6, dittos: 32, inserted: 27)),
  ]

  @Test(arguments: expectations)
  func readsSampleWhole(_ expectation: SampleExpectation) throws {
    let summary = scan([try Samples.bytes(expectation.name)])
    expectation.check(summary)
  }

  @Test(arguments: expectations, [1, 7, 64])
  func readsSampleInChunks(_ expectation: SampleExpectation, chunkSize: Int) throws {
    let summary = scan([try Samples.bytes(expectation.name)], chunkSize: chunkSize)
    expectation.check(summary)
  }

  @Test(arguments: expectations)
  func readsSampleFromPath(_ expectation: SampleExpectation) throws {
    var scanner = OutcomeScanner()
    try scanner.scan(path: Samples.path(expectation.name), chunkSize: 5)
    expectation.check(scanner.finish())
  }

  @Test func everySampleHasAnExpectation() {
    #expect(Set(Self.expectations.map(\.name)) == Set(Samples.names))
  }

  @Test func crlfLineEndingsReadTheSame() throws {
    for expectation in Self.expectations {
      let text = String(decoding: try Samples.bytes(expectation.name), as: UTF8.self)
      let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
      expectation.check(scan([Array(crlf.utf8)], chunkSize: 3))
    }
  }
}
