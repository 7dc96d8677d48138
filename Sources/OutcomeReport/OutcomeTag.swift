import Telemetry

// THE migration_outcome TAG is the telemetry line the engine logs: one type, `TelemetryLine`
// (Sources/Telemetry/TelemetryLine.swift), renders it in the engine and parses it here. Its rules
// (required fields, redacted values, counts, optional fields) are written there once.

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
