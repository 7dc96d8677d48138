import Testing

@testable import OutcomeReport

/// Each input is one device: its first automatic tag decides, later manual attempts are noted.
struct DeviceReductionTests {
  /// A default-style entry at `time` (`HH:MM:SS`) on 2025-03-14, zone -0700.
  static func entry(_ time: String, _ message: String, thread: String = "0x1a2b3c") -> String {
    "2025-03-14 \(time).000001-0700 \(thread)   Default     0x0                  1234   0    "
      + "Ditto: [io.kern.ditto:LegacyDataMigrator] \(message)"
  }

  /// One device whose unreadable store was retried on three launches, then "Recover Old Dittos"
  /// tapped twice: the second salvaged 12 dittos.
  static let retried = [
    entry("09:00:00", tag(.auto, .foundUnreadable)),
    entry("09:05:00", tag(.auto, .foundUnreadable)),
    entry("09:10:00", tag(.auto, .foundUnreadable)),
    entry("09:20:00", tag(.manual, .foundUnreadable)),
    entry(
      "09:30:00",
      "migration_outcome source=manual outcome=success categories=3 dittos=12 inserted=12 "
        + "salvaged=12"),
  ].joined(separator: "\n")

  @Test func retriesAndRecoverTapsWeighOnce() {
    let summary = scan(Self.retried, tag(.auto, .success), tag(.auto, .nothingOnDisk))
    #expect(summary.total == 7)
    #expect(summary.byOutcome[.foundUnreadable] == 4)
    #expect(summary.deviceCounts == counts([.foundUnreadable: 1, .success: 1, .nothingOnDisk: 1]))
    #expect(summary.weighedCounts == summary.deviceCounts)
    #expect(summary.assessment.sample == 3)
    let device = summary.devices[0]
    #expect(device.outcome == .foundUnreadable)
    #expect(device.source == .auto)
    #expect(device.tags == 5)
    #expect(
      device.laterManual
        == LaterAttempt(outcome: .success, inserted: 12, salvaged: 12, from: nil))
    #expect(summary.devices[1].laterManual == nil)
  }

  @Test func notNowTagsDecideNothingAndADeviceWithOnlyThoseIsPending() throws {
    let locked = tag(.auto, .foundUnreadable) + " reason=permission"
    let thenRead = [
      Self.entry("09:00:00", locked),
      Self.entry("09:01:00", tag(.auto, .libraryError)),
      Self.entry("09:30:00", tag(.auto, .success, categories: 2, dittos: 9, inserted: 9)),
    ].joined(separator: "\n")
    let onlyNotNow = [
      Self.entry("08:00:00", locked),
      Self.entry("08:10:00", tag(.auto, .foundUnreadable) + " reason=locked"),
    ].joined(separator: "\n")
    let libraryFirst = [
      Self.entry("07:00:00", tag(.auto, .libraryError)),
      Self.entry("07:05:00", tag(.auto, .noNewData, categories: 1, dittos: 3)),
    ].joined(separator: "\n")
    let permanent = Self.entry("06:00:00", tag(.auto, .foundUnreadable))
    let summary = scan(thenRead, onlyNotNow, libraryFirst, permanent)
    #expect(summary.devices.map(\.outcome) == [.success, nil, .noNewData, .foundUnreadable])
    #expect(summary.devices.map(\.isPending) == [false, true, false, false])
    #expect(summary.devices[1].pendingReason == "permission")
    #expect(summary.pendingDevices.count == 1)
    #expect(summary.assessment.sample == 3)
    #expect(summary.deviceCounts == counts([.success: 1, .noNewData: 1, .foundUnreadable: 1]))
    // --unit tag counts every line as before.
    let tags = scan(thenRead, onlyNotNow, libraryFirst, permanent, options: .init(unit: .tag))
    #expect(tags.weighedCounts[.foundUnreadable] == 4)
    #expect(tags.weighedCounts[.libraryError] == 2)

    let json = summary.jsonText()
    #expect(json.contains(#""pending":1"#))
    #expect(json.contains(#""outcome":"pending""#))
    #expect(json.contains(#""pendingReason":"permission""#))
    #expect(!json.contains(#""unweighedInputs":["#) || json.contains(#""unweighedInputs":[]"#))
    let text = summary.textReport()
    #expect(text.contains("1 device is pending"), "\(text)")
    #expect(text.contains("pending (permission)"))
    #expect(summary.htmlReport().contains("1 device is pending"))
  }

  @Test func aReasonOnlyMattersOnFoundUnreadable() throws {
    let summary = scan(Self.entry("09:00:00", tag(.auto, .success) + " reason=permission"))
    #expect(summary.devices.first?.outcome == .success)
    #expect(summary.pendingDevices.isEmpty)
  }

  @Test func tagUnitWeighsEveryTag() {
    let summary = scan(Self.retried, tag(.auto, .success), options: .init(unit: .tag))
    #expect(summary.weighedCounts == summary.byOutcome)
    #expect(summary.assessment.sample == 6)
  }

  @Test func timestampsOrderTheTagsNotTheirPlace() {
    // The automatic tag logged first comes last in the file (a merged or re-sorted capture).
    let text = [
      Self.entry("10:00:00", tag(.auto, .success), thread: "0x1"),
      Self.entry("09:00:00", tag(.auto, .nothingOnDisk), thread: "0x2"),
    ].joined(separator: "\n")
    #expect(scan(text).devices[0].outcome == .nothingOnDisk)
  }

  @Test func zonesAreTakenIntoAccount() {
    // 17:00 +0100 is 16:00 UTC, before 09:12 -0700 (16:12 UTC).
    let text = """
      2025-03-14 09:12:03.000001-0700  localhost Ditto[1]: [io.kern.ditto:LegacyDataMigrator] \
      \(tag(.auto, .success))
      2025-03-14 17:00:00.000001+0100  localhost Ditto[1]: [io.kern.ditto:LegacyDataMigrator] \
      \(tag(.auto, .emptyStore))
      """
    #expect(scan(text).devices[0].outcome == .emptyStore)
  }

  @Test func withoutTimestampsTheFirstLineDecides() {
    let text = [tag(.manual, .success), tag(.auto, .emptyStore), tag(.auto, .success)]
      .joined(separator: "\n")
    let device = scan(text).devices[0]
    #expect(device.outcome == .emptyStore)
    #expect(device.source == .auto)
    // The manual success came before the automatic attempt: it did not change the picture later.
    #expect(device.laterManual == nil)
  }

  @Test func aDeviceWithoutAutomaticTagUsesItsFirstManualOne() {
    let text = [
      tag(.manual, .nothingOnDisk),
      "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=file",
    ].joined(separator: "\n")
    let device = scan(text).devices[0]
    #expect(device.outcome == .nothingOnDisk)
    #expect(device.source == .manual)
    #expect(
      device.laterManual == LaterAttempt(outcome: .success, inserted: 5, salvaged: nil, from: .file)
    )
  }

  @Test func fromFileTagsCountAsManualAndAreCarried() {
    let line =
      "migration_outcome source=manual outcome=success categories=2 dittos=5 inserted=5 from=file"
    let summary = scan(line)
    #expect(summary.manual[.success] == 1)
    #expect(summary.devices[0].from == .file)
  }

  @Test func sameReadingIsNotAChange() {
    let text = [tag(.auto, .success), tag(.manual, .noNewData)].joined(separator: "\n")
    #expect(scan(text).devices[0].laterManual == nil)
  }

  @Test func inputsWithoutValidTagsAreListedButNotWeighed() {
    let summary = scan("nothing here", tag(.auto, .success), "migration_outcome source=auto")
    #expect(summary.devices.count == 3)
    #expect(summary.weighedDevices.count == 1)
    #expect(summary.assessment.sample == 1)
    #expect(summary.devices[2].outcome == nil)
  }

  @Test func theSameCaptureTwiceIsNamed() throws {
    let bytes = try Samples.bytes("default.log")
    var scanner = OutcomeScanner()
    for name in ["a.log", "b.log"] {
      scanner.beginInput(name: name)
      scanner.consume(bytes)
    }
    let summary = scanner.finish()
    #expect(summary.duplicates > 0)
    #expect(summary.devices.map(\.input) == ["a.log", "b.log"])
    #expect(summary.devices[1].sameCaptureAs == "a.log")
    #expect(summary.devices[1].tags == summary.devices[0].tags)
    #expect(summary.devices[0].sameCaptureAs == nil)
  }

  @Test func verdictFlipsFromTooFewToRecoverableAsIdenticalDevicesAreAdded() {
    var verdicts: [Verdict] = []
    for count in 1...12 {
      let devices = (0..<count).map { _ in [Self.fineDevice, tag(.manual, .noNewData)] }
        .map { $0.joined(separator: "\n") }
      verdicts.append(scan(devices.map { Array($0.utf8) }).verdict)
    }
    // 5 of 5: lower bound 56.6%; 6 of 6: 61.0%.
    #expect(verdicts[0..<5].allSatisfy { $0 == .tooFew })
    #expect(verdicts[5...].allSatisfy { $0 == .recoverable })
  }

  static let fineDevice = tag(.auto, .success, categories: 4, dittos: 27, inserted: 27)

  @Test(arguments: [
    ("2025-03-14 09:12:03.512345-0700", Int64(1_741_968_723_512_345)),
    ("2025-03-14 16:12:03.512345+0000", 1_741_968_723_512_345),
    ("2025-03-14 09:12:03.512345 -0700", 1_741_968_723_512_345),
    ("2025-03-14 16:12:03.512", 1_741_968_723_512_000),
    ("1970-01-01 00:00:00", 0),
  ])
  func timestampsBecomeMicroseconds(text: String, expected: Int64) {
    #expect(LogTimestamp.microseconds(text) == expected)
  }

  @Test(arguments: ["09:12:03.512345-0700", "2025-13-14 09:12:03", "2025-03-14 09:12:03.-0700", ""])
  func notATimestamp(_ text: String) {
    #expect(LogTimestamp.microseconds(text) == nil)
  }
}
