import Testing

@testable import OutcomeReport

/// Repeated entries are dropped only when they carry timestamp and pid (plus thread when present).
struct DeduplicationTests {
  @Test(arguments: ["default.log", "compact.log", "syslog.log", "json.json", "ndjson.ndjson"])
  func twoCopiesOfACaptureCountOnce(_ name: String) throws {
    let bytes = try Samples.bytes(name)
    let once = scan([bytes])
    let twice = scan([bytes, bytes], chunkSize: 11)
    #expect(twice.byOutcome == once.byOutcome)
    #expect(twice.tagSums == once.tagSums)
    #expect(twice.malformed == once.malformed)
    #expect(twice.duplicates == once.total + once.malformed)
    #expect(twice.ignored == 2 * once.ignored)
    #expect(twice.inputs == 2)
  }

  @Test(arguments: ["plain.txt", "console-default.txt", "console-columns.txt"])
  func entriesWithoutIdentityAreNeverDropped(_ name: String) throws {
    let bytes = try Samples.bytes(name)
    let once = scan([bytes])
    let twice = scan([bytes, bytes])
    #expect(twice.total == 2 * once.total)
    #expect(twice.malformed == 2 * once.malformed)
    #expect(twice.duplicates == 0)
  }

  @Test func overlappingWindowsCountTheOverlapOnce() {
    let lines = (0..<30).map { index in
      "2025-03-14 09:\(10 + index):03.512345-0700 0x1a2b3c   Default     0x0                  "
        + "1234   0    Ditto: [io.kern.ditto:LegacyDataMigrator] "
        + tag(.auto, index % 3 == 0 ? .nothingOnDisk : .success, categories: 1)
    }
    let first = lines[0..<20].joined(separator: "\n")
    let second = lines[12..<30].joined(separator: "\n")
    let summary = scan(first, second)
    #expect(summary.total == 30)
    #expect(summary.duplicates == 8)
    #expect(summary.byOutcome == counts([.success: 20, .nothingOnDisk: 10]))
    #expect(summary.tagSums.categories == 30)
  }

  @Test func repeatsInsideOneInputAreDropped() {
    let line =
      "2025-03-14 09:12:03.512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] "
      + tag(.auto, .success)
    let summary = scan([line, line, line].joined(separator: "\n"))
    #expect(summary.total == 1)
    #expect(summary.duplicates == 2)
  }

  @Test func defaultAndNdjsonCopiesOfOneArchiveMatch() throws {
    // The default style prints thread 0x1a2b3c; ndjson prints threadID 1715004: the same thread.
    let summary = scan([try Samples.bytes("default.log"), try Samples.bytes("ndjson.ndjson")])
    #expect(summary.duplicates == 2)
    #expect(summary.byOutcome[.success] == 1)
    #expect(summary.byOutcome[.noNewData] == 1)
  }

  @Test func jsonAndNdjsonCopiesMatchOnTheFirstLineOfTheMessage() throws {
    let summary = scan([try Samples.bytes("json.json"), try Samples.bytes("ndjson.ndjson")])
    #expect(summary.duplicates == 2)
  }

  @Test func differentThreadPidOrTimeIsADifferentEntry() {
    let base =
      "2025-03-14 09:12:03.512345-0700 0x1a2b3c   Default     0x0                  1234   0    "
      + "Ditto: [io.kern.ditto:LegacyDataMigrator] " + tag(.auto, .success)
    let otherThread = base.replacingOccurrences(of: "0x1a2b3c", with: "0x1a2b3d")
    let otherPid = base.replacingOccurrences(of: "1234   0", with: "1235   0")
    let otherTime = base.replacingOccurrences(of: ".512345", with: ".512346")
    let summary = scan([base, otherThread, otherPid, otherTime].joined(separator: "\n"))
    #expect(summary.total == 4)
    #expect(summary.duplicates == 0)
  }

  @Test func ignoredLinesAreNotDeduplicated() {
    let line =
      "2025-03-14 09:12:03.512345-0700  localhost Ditto[1234]: [io.kern.ditto:Inventory] "
      + tag(.auto, .success)
    let summary = scan(line, line)
    #expect(summary.ignored == 2)
    #expect(summary.duplicates == 0)
  }
}
