import Telemetry

/// How an attempt ended: the telemetry codes of the `migration_outcome` line, declared once in
/// Telemetry (`TelemetryLine` renders and parses the line).
public typealias MigrationOutcome = Telemetry.MigrationOutcome
