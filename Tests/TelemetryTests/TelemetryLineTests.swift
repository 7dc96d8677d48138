import Testing

@testable import Telemetry

/// The `migration_outcome` line is one value: what the engine renders, `OutcomeReport` parses back
/// to the same value, every field and optional field included.
@Suite struct TelemetryLineTests {
  @Test(arguments: MigrationOutcome.allCases)
  func everyRenderedLineParsesBackToItself(outcome: MigrationOutcome) {
    for source in MigrationSource.allCases {
      for (salvaged, from, reason) in [
        (nil, nil, nil), (12, MigrationOrigin.file, nil), (nil, nil, "locked"),
      ] as [(Int?, MigrationOrigin?, String?)] {
        let line = TelemetryLine(
          source: source, outcome: outcome, categories: 4, dittos: 27, inserted: 3,
          salvaged: salvaged, from: from, reason: reason)
        let expected = TelemetryLine(
          source: source, outcome: outcome, categories: 4, dittos: 27, inserted: 3,
          salvaged: salvaged, from: from, reason: outcome == .foundUnreadable ? reason : nil)
        #expect(TelemetryLine.parse(line.rendered) == .line(expected), "\(line.rendered)")
      }
    }
  }

  @Test func theSeedsLineRendersAsTheSeedPrintsIt() {
    let line = TelemetryLine(
      source: .auto, outcome: .success, categories: 4, dittos: 27, inserted: 27)
    #expect(
      line.rendered
        == "migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27")
    #expect(
      TelemetryLine(
        source: .auto, outcome: .foundUnreadable, categories: 0, dittos: 0, inserted: 0,
        reason: "locked"
      ).rendered.hasSuffix(" inserted=0 reason=locked"))
  }

  @Test func defectsAreNamed() {
    #expect(TelemetryLine.parse("inventory[appgroup] 4096B /Ditto.sqlite") == .notALine)
    #expect(
      TelemetryLine.parse("migration_outcome source=auto outcome=success categories=4 dittos=27")
        == .malformed(.missingField("inserted")))
    #expect(
      TelemetryLine.parse(
        "migration_outcome source=<private> outcome=success categories=1 dittos=1 inserted=1")
        == .malformed(.redactedValue("source")))
    #expect(
      TelemetryLine.parse(
        "migration_outcome source=auto outcome=done categories=1 dittos=1 inserted=1")
        == .malformed(.unknownValue("outcome")))
    #expect(
      TelemetryLine.parse(
        "migration_outcome source=auto outcome=success categories=-1 dittos=1 inserted=1")
        == .malformed(.notACount("categories")))
  }
}
