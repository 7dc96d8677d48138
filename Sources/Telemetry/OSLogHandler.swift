#if canImport(os)
  import os

  /// Sends records to the unified log through `os.Logger` (Apple platforms only).
  ///
  /// Private values are redacted before the text reaches `os.Logger`, so the whole rendered line can be
  /// marked `.public`: it then survives sysdiagnose redaction, and user text never enters it.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  public struct OSLogHandler: LogHandler {
    public init() {}

    public func log(_ record: LogRecord) {
      let logger = os.Logger(subsystem: record.subsystem, category: record.category)
      let text = record.message.rendered(redactingPrivate: true)
      switch record.level {
      case .trace, .debug: logger.debug("\(text, privacy: .public)")
      case .info: logger.info("\(text, privacy: .public)")
      case .notice: logger.notice("\(text, privacy: .public)")
      case .warning, .error: logger.error("\(text, privacy: .public)")
      case .critical: logger.fault("\(text, privacy: .public)")
      }
    }
  }
#endif
