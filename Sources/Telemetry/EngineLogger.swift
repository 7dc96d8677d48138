/// A logger facade in the shape of swift-log: a value with a subsystem, a category, a level and a handler.
///
/// Library code receives its logger as a parameter and never creates a backend itself. Named so that
/// an app file importing both `os` and `Telemetry` needs no qualification (`os.Logger` is the
/// unified log's own type; `OSLogHandler` sends records to it).
///
/// ```swift
/// let logger = EngineLogger.legacyDataMigrator(handler: StderrLogHandler())
/// logger.info("legacyStoreURL: probing \(candidates.count) places")
/// ```
public struct EngineLogger: Sendable {
  /// The unified-log subsystem (`io.kern.ditto`).
  public var subsystem: String
  /// The unified-log category (`LegacyDataMigrator`).
  public var category: String
  /// Records below this level are dropped before they reach the handler.
  public var logLevel: LogLevel
  /// Where records go.
  public var handler: any LogHandler

  public init(
    subsystem: String, category: String, logLevel: LogLevel = .info, handler: any LogHandler
  ) {
    self.subsystem = subsystem
    self.category = category
    self.logLevel = logLevel
    self.handler = handler
  }

  /// The seed's logger: subsystem `io.kern.ditto`, category `LegacyDataMigrator`.
  public static func legacyDataMigrator(
    logLevel: LogLevel = .info, handler: any LogHandler
  ) -> EngineLogger {
    EngineLogger(
      subsystem: "io.kern.ditto", category: "LegacyDataMigrator", logLevel: logLevel,
      handler: handler)
  }

  /// A logger that discards everything.
  package static let disabled = EngineLogger(
    subsystem: "io.kern.ditto", category: "disabled", logLevel: .critical,
    handler: DiscardingLogHandler())

  /// Logs `message` at `level`.
  package func log(level: LogLevel, _ message: @autoclosure () -> LogMessage) {
    guard level >= logLevel else { return }
    handler.log(
      LogRecord(level: level, subsystem: subsystem, category: category, message: message()))
  }

  package func debug(_ message: @autoclosure () -> LogMessage) { log(level: .debug, message()) }
  package func info(_ message: @autoclosure () -> LogMessage) { log(level: .info, message()) }
  package func notice(_ message: @autoclosure () -> LogMessage) { log(level: .notice, message()) }
  package func warning(_ message: @autoclosure () -> LogMessage) { log(level: .warning, message()) }
  package func error(_ message: @autoclosure () -> LogMessage) { log(level: .error, message()) }
}
