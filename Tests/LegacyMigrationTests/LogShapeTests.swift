import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import RecoveryFile
import StoreFixtures
import Testing

/// Every line the engine logs, as a sysdiagnose shows it (private values redacted), has one of the
/// shapes `docs/LOG_LINES.md` documents.
@Suite struct LogShapeTests {
  /// The shapes of `docs/LOG_LINES.md`'s `log-shapes` block, as anchored patterns.
  static let shapes: [(shape: String, pattern: NSRegularExpression)] = {
    let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/LOG_LINES.md")
    guard let text = try? String(contentsOf: guide, encoding: .utf8) else { return [] }
    var inBlock = false
    var result: [(String, NSRegularExpression)] = []
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("```") {
        inBlock = line == "```log-shapes"
        continue
      }
      guard inBlock, !line.isEmpty, let pattern = try? Self.pattern(line) else { continue }
      result.append((line, pattern))
    }
    return result
  }()

  static let placeholders: [String: String] = [
    "N": "[0-9]+",
    "count": "(?:[0-9]+|at least [0-9]+|unknown)",
    "place": "(?:appgroup|app)",
    "name": "(?:\\[(?:appgroup|app)\\] [^/<>][^<>]*|the file picked)",
    "store": "(?:<(?:appgroup|app)>/[^/<>][^<>]*|<the file picked>)",
    "path": "/[^<>]*",
    "relative": "[^/<>][^<>]*",
    "code": "[A-Za-z0-9_.-]+",
    "reason": "[^/<>]+",
    "kind": "[A-Za-z -]+",
    "key": "[A-Za-z0-9_.]+",
    "trigger": "(?:auto|manual)",
    "sources": "[a-z_-]+ [0-9]+ pages(?:, [a-z_-]+ [0-9]+ pages)*",
    "outcome": "[a-z_]+",
    "fields": "(?: [a-z_]+=[a-z0-9_]+)*",
  ]

  static func pattern(_ shape: String) throws -> NSRegularExpression {
    var regex = "^"
    var rest = Substring(shape)
    while let open = rest.firstIndex(of: "{") {
      regex += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
      guard let close = rest[open...].firstIndex(of: "}"),
        let part = placeholders[String(rest[rest.index(after: open)..<close])]
      else { throw UnknownPlaceholder(shape: shape) }
      regex += part
      rest = rest[rest.index(after: close)...]
    }
    regex += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
    return try NSRegularExpression(pattern: regex)
  }

  struct UnknownPlaceholder: Error { var shape: String }

  static func undocumented(_ lines: [String]) -> [String] {
    lines.filter { line in
      let range = NSRange(line.startIndex..., in: line)
      return !shapes.contains { $0.pattern.firstMatch(in: line, range: range) != nil }
    }
  }

  @Test func theGuideListsShapes() throws {
    // A missing or unparsable page fails here, never skips the checks below.
    #expect(Self.shapes.count >= 40)
    #expect(
      Self.undocumented(["legacyStoreURL: matched /var/mobile/Ditto.sqlite (4096 bytes) wal=0"])
        .count == 1)
    #expect(
      Self.undocumented(["legacyStoreURL: matched <appgroup>/Ditto.sqlite (4096 bytes) wal=0"])
        .isEmpty)
  }

  @Test(arguments: FixtureScenario.allCases)
  func everyLineOfEveryScenarioHasADocumentedShape(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("log-shapes")
    let container = folder.appending("container")
    try scenario.build(
      at: container, parameters: .init(categories: 3, dittosPerCategory: 4, seed: 5))
    try LibraryFixtures.ensure(inFolder: container)
    let log = InMemoryLogHandler()
    let layout = ContainerLayout(container: container)
    let migrator = LegacyDataMigrator.forContainer(layout, logger: log.logger)
    _ = migrator.recoverNowBlocking(dryRun: true)
    _ = migrator.migrateIfNeededBlocking()
    _ = migrator.migrateIfNeededBlocking()
    _ = migrator.recoverNowBlocking()
    _ = migrator.recoverNowBlocking(includingNeverCommitted: true)
    _ = migrator.surveyBlocking()
    for salvage in [false, true] {
      let extraction = RecoveryExtraction(
        layout: layout, includesSalvage: salvage, logger: log.logger)
      if extraction.offeredDittos > 0 {
        let info = RecoveryFileInfo(origin: .container, createdAt: Date(), toolVersion: "test")
        _ = try extraction.write(info: info, to: folder.appending("x-\(salvage).dittorecovery"))
      }
    }
    // The same container, locked, and with a library that refuses every write.
    let locked = LegacyDataMigrator.forContainer(layout, logger: log.logger)
    _ = locked.migrateIfNeededBlocking(protectedDataAvailable: false)
    let refusing = InMemoryDestination()
    refusing.failure = DestinationError(.writeFailed, file: "Ditto.store", reason: "refused")
    _ = LegacyDataMigrator(
      layout: layout, destination: refusing, flags: InMemoryFlagStore(), legacyDefaults: nil,
      logger: log.logger
    ).migrateIfNeededBlocking()
    let lines = log.lines()
    #expect(!lines.isEmpty)
    #expect(Self.undocumented(lines) == [])
  }

  @Test func aPickedFileAndAnEmptyContainerToo() throws {
    let folder = try TemporaryDirectory("log-shapes-picked")
    let picked = folder.appending("Sam's old dittos.sqlite")
    try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: picked))
    let container = folder.appending("container")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    try LibraryFixtures.ensure(inFolder: container)
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator.forContainer(
      ContainerLayout(container: container), logger: log.logger)
    _ = migrator.recoverNowBlocking(fromFile: picked)
    _ = migrator.recoverNowBlocking(fromFile: folder.appending("gone.sqlite"))
    _ = migrator.migrateIfNeededBlocking()
    _ = migrator.hasRecoverableLegacyData()
    let lines = log.lines()
    #expect(lines.contains { $0.hasPrefix("recoverNow(file): cannot read the file picked (") })
    #expect(Self.undocumented(lines) == [])
  }
}
