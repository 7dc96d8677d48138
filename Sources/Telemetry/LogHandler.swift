/// One line handed to a ``LogHandler``.
public struct LogRecord: Sendable, Equatable {
  public var level: LogLevel
  public var subsystem: String
  public var category: String
  public var message: LogMessage

  package init(level: LogLevel, subsystem: String, category: String, message: LogMessage) {
    self.level = level
    self.subsystem = subsystem
    self.category = category
    self.message = message
  }
}

/// A logging backend: stderr for the CLI, `os.Logger` on Apple platforms, memory in tests.
public protocol LogHandler: Sendable {
  /// Writes one record. Called only for records at or above the logger's level.
  func log(_ record: LogRecord)
}

/// A handler that drops everything.
package struct DiscardingLogHandler: LogHandler {
  package init() {}
  package func log(_ record: LogRecord) {}
}

/// A handler that forwards each record to several handlers.
package struct MultiplexLogHandler: LogHandler {
  package let handlers: [any LogHandler]
  package init(_ handlers: [any LogHandler]) { self.handlers = handlers }
  package func log(_ record: LogRecord) {
    for handler in handlers { handler.log(record) }
  }
}
