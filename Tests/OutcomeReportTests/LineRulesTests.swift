import Testing

@testable import OutcomeReport

/// How lines are classified: preamble, continuation, filters, layouts without headers.
struct LineRulesTests {
  private static let defaultPrefix =
    "2025-03-14 09:12:03.512345-0700 0x1a2b3c   Default     0x0                  1234   0    "

  @Test func echoedPredicateIsNeverAnEntry() {
    let echo = "Filtering the log data using \"composedMessage BEGINSWITH \"migration_outcome\"\""
    for text in [echo, echo + "\n" + tag(.auto, .success), "a.log:" + echo] {
      let summary = scan(text)
      #expect(summary.ignored == 1)
      #expect(summary.malformed == 0)
    }
  }

  @Test func continuationLinesNeverStartAnEntry() {
    let text = [
      Self.defaultPrefix + "Ditto: [io.kern.ditto:LegacyDataMigrator] inventory follows",
      "\t" + tag(.auto, .success),
      tag(.auto, .success),
      "  " + tag(.manual, .noNewData),
      Self.defaultPrefix.replacingOccurrences(of: ".512345", with: ".600000")
        + "Ditto: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .nothingOnDisk),
    ].joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.byOutcome == counts([.nothingOnDisk: 1]))
    #expect(summary.ignored == 3)
  }

  @Test func headerMakesEveryOtherLineAContinuation() {
    let text = "Timestamp               Ty Process[PID:TID]\n" + tag(.auto, .success)
    #expect(scan(text).total == 0)
    #expect(scan(text).styles == [.compact: 1])
  }

  @Test func fragmentsWithoutHeadersAreRecognizedLineByLine() {
    let text = [
      "2025-03-14 09:12:03.512 Df Ditto[1234:1a2b3c] [io.kern.ditto:LegacyDataMigrator] "
        + tag(.auto, .success),
      "2025-03-14 09:12:04.512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] "
        + tag(.auto, .success),
      Self.defaultPrefix + "Ditto: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success),
      "default\t09:12:03.512345-0700\tDitto\t" + tag(.auto, .success),
    ].joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.total == 4)
    #expect(summary.styles == [.compact: 1])
  }

  @Test func defaultStyleWithoutTTLColumn() {
    let line =
      "2017-12-08 10:00:00.123456+0800 0x1a2b     Default     0x0                  99     "
      + "Ditto: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success)
    #expect(scan(line).total == 1)
  }

  @Test func processNamesWithSpacesInEveryStyle() {
    let text = [
      "2025-03-14 09:12:03.512345-0700 0x1a2b3c   Default     0x0                  1234   0    "
        + "My Ditto App: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success),
      "2025-03-14 09:12:03.512 Df My Ditto[1234:1a2b3c] [io.kern.ditto:LegacyDataMigrator] "
        + tag(.auto, .success),
      "2025-03-14 09:12:03.512345-0700  localhost My Ditto[1234]: "
        + "[io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success),
    ].joined(separator: "\n")
    #expect(scan(text).total == 3)
  }

  @Test func otherSubsystemsAndCategoriesAreIgnored() {
    let text = [
      "com.example.ditto:LegacyDataMigrator", "io.kern.ditto:Inventory", "io.kern.ditto:",
      "io.kern.dittokeyboard:LegacyDataMigrator",
    ].map { Self.defaultPrefix + "Ditto: [\($0)] " + tag(.auto, .success) }
      .joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.total == 0)
    #expect(summary.ignored == 4)
  }

  @Test func unrecognizedTimestampedLayoutIsIgnoredNotCounted() {
    let text = "2025-03-14 09:12:03.512345-0700 something else " + tag(.auto, .success)
    let summary = scan(text)
    #expect(summary.total == 0)
    #expect(summary.ignored == 1)
  }

  @Test func consoleWithOneExtraColumn() {
    let text = [
      "default\t09:12:03.512345-0700\tDitto\tio.kern.ditto\t" + tag(.auto, .success),
      "default\t09:12:03.512345-0700\tDitto\tcom.example\t" + tag(.auto, .success),
    ].joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.total == 1)
    #expect(summary.ignored == 1)
  }

  @Test func grepOfPrettyJSONReadsOnlyEventMessageLines() {
    let text = """
      x.json:  "formatString" : "migration_outcome source=%{public}s outcome=%{public}s",
      x.json:  "eventMessage" : "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=3",
        "eventMessage" : "migration_outcome source=manual outcome=empty_store categories=0 dittos=0 inserted=0\\nmore",
        "eventMessage" : "migration_outcome source=<private> outcome=success categories=1 dittos=2 inserted=3"
      """
    let summary = scan(text)
    #expect(summary.byOutcome == counts([.success: 1, .emptyStore: 1]))
    #expect(summary.malformed == 1)
    #expect(summary.ignored == 1)
  }

  @Test func grepContextAndSeparatorLinesAreNotEntries() {
    let text = [
      "dev1.txt-3-" + tag(.auto, .success),
      "--",
      "dev1.txt:4:" + tag(.auto, .nothingOnDisk),
    ].joined(separator: "\n")
    let summary = scan(text)
    #expect(summary.byOutcome == counts([.nothingOnDisk: 1]))
    #expect(summary.ignored == 1)
  }

  @Test func prefixesWithColonsInThePath() {
    let text = #"C:\logs\dev1.log:17:"# + tag(.auto, .success)
    #expect(scan(text).total == 1)
  }

  @Test func veryLongLinesAreCutButStillRead() throws {
    let options = OutcomeScanner.Options(maximumLineLength: 4096)
    let long =
      Self.defaultPrefix + "Ditto: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success)
      + " note=" + String(repeating: "x", count: 100_000)
    let summary = scan([Array((long + "\n" + long + "1").utf8)], chunkSize: 1000, options: options)
    #expect(summary.total == 1)
    #expect(summary.duplicates == 1)
  }

  @Test func invalidUTF8DoesNotStopTheScan() {
    var bytes = Array(("junk " + tag(.auto, .success) + "\n").utf8)
    bytes.insert(0xFF, at: 2)
    bytes += Array((tag(.manual, .success) + "\n").utf8)
    bytes += [0xC3]
    let summary = scan([bytes], chunkSize: 3)
    #expect(summary.byOutcome == counts([.success: 1]))
    #expect(summary.ignored == 1)
  }
}
