import Telemetry

// THE migration_outcome TAG is the telemetry line the engine logs: one type, `TelemetryLine`
// (Sources/Telemetry/TelemetryLine.swift), renders it in the engine and parses it here. Its rules
// (required fields, redacted values, counts, optional fields) are written there once.

/// One valid `migration_outcome` tag.
typealias OutcomeTag = TelemetryLine

/// Why a message that starts with `migration_outcome` is not a valid tag.
typealias TagDefect = TelemetryLine.Defect

/// The three answers for one message.
typealias TagParse = TelemetryLine.Parse

/// Where a manual recovery read its data from (`from=` in the tag).
package typealias TagOrigin = MigrationOrigin

extension TelemetryLine {
  /// True when the tag says something about the legacy data: every tag but `library_error` and a
  /// `found_unreadable` with a `reason` (a failure that said nothing about the bytes).
  var isDecisive: Bool {
    switch outcome {
    case .libraryError: false
    case .foundUnreadable: reason == nil
    default: true
    }
  }

  /// Why an undecisive tag did not decide: its `reason`, or `library_error`.
  var pendingReason: String? {
    guard !isDecisive else { return nil }
    return reason ?? outcome.rawValue
  }
}
