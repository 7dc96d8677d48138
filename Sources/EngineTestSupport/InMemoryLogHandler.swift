import Foundation
import Telemetry

/// Keeps every record in memory, for assertions. Create one per test.
package final class InMemoryLogHandler: LogHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [LogRecord] = []

  package init() {}

  package func log(_ record: LogRecord) {
    lock.lock()
    stored.append(record)
    lock.unlock()
  }

  /// Every record so far.
  package var records: [LogRecord] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  /// The redacted text of every record at or above `level`.
  package func lines(atLeast level: LogLevel = .trace) -> [String] {
    records.filter { $0.level >= level }.map { $0.message.rendered(redactingPrivate: true) }
  }

  /// The `migration_outcome` lines.
  package var outcomeLines: [String] {
    lines().filter { $0.hasPrefix("migration_outcome ") }
  }

  /// A logger with the migrator's subsystem and category writing here.
  package var logger: EngineLogger {
    EngineLogger.legacyDataMigrator(logLevel: .trace, handler: self)
  }
}
