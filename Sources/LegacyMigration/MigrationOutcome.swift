import Telemetry

/// Which path started a migration attempt (the `source=` field of the telemetry line).
package typealias MigrationTrigger = MigrationSource

/// How an attempt ended: the telemetry codes of the `migration_outcome` line, declared once in
/// Telemetry (`TelemetryLine` renders and parses the line).
public typealias MigrationOutcome = Telemetry.MigrationOutcome
