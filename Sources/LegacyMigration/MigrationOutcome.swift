import Telemetry

/// Which path started a migration attempt (the `source=` field of the telemetry line).
package typealias MigrationTrigger = MigrationSource

/// How an attempt ended: the telemetry codes of the `migration_outcome` line, declared once in
/// Telemetry (`TelemetryLine` renders and parses the line).
public typealias MigrationOutcome = Telemetry.MigrationOutcome

extension Telemetry.MigrationOutcome {
  /// The only place an outcome is derived from what happened.
  package static func derive(from result: AttemptResult) -> MigrationOutcome {
    if result.interruption != nil { return .foundUnreadable }
    if result.destinationError != nil { return .libraryError }
    guard result.foundLegacyData else { return .nothingOnDisk }
    guard result.readSucceeded else { return .foundUnreadable }
    guard result.counts.dittosRead > 0 else { return .emptyStore }
    return result.counts.inserted > 0 ? .success : .noNewData
  }
}
