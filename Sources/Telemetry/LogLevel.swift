/// How important a log line is, with swift-log's names.
///
/// On Apple platforms `notice` maps to `os.Logger.notice`, which the unified log shows as `Default` and
/// persists to disk; `info` lines live only in memory. Telemetry that must survive into a sysdiagnose
/// is logged at `notice` or above.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  case trace, debug, info, notice, warning, error, critical

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The lowercase name (`info`, `notice`, …).
  public var name: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    case .critical: "critical"
    }
  }
}
