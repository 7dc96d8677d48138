import EngineTestSupport
import Telemetry
import Testing

@Suite struct EngineLoggerTests {
  @Test func stringsArePrivateAndNumbersPublicByDefault() {
    let title = "Family ❤️"
    let message: LogMessage =
      "category \(title) has \(3) dittos in \("Ditto.sqlite", privacy: .public)"
    #expect(message.rendered() == "category <private> has 3 dittos in Ditto.sqlite")
    #expect(
      message.rendered(redactingPrivate: false) == "category Family ❤️ has 3 dittos in Ditto.sqlite")
    #expect(message.hasPrivateValues)
  }

  @Test func levelsFilterBeforeTheHandler() {
    let handler = InMemoryLogHandler()
    var logger = EngineLogger.legacyDataMigrator(logLevel: .notice, handler: handler)
    logger.info("hidden")
    logger.notice("shown")
    logger.logLevel = .info
    logger.info("now shown")
    #expect(handler.lines() == ["shown", "now shown"])
    #expect(
      handler.records.allSatisfy {
        $0.subsystem == "io.kern.ditto" && $0.category == "LegacyDataMigrator"
      })
  }

  @Test func noticeIsAboveInfo() {
    #expect(LogLevel.notice > .info)
    #expect(
      LogLevel.allCases.map(\.name) == [
        "trace", "debug", "info", "notice", "warning", "error", "critical",
      ])
  }
}
