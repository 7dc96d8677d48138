import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import TestSupport
import Testing

@Suite struct ProbeTests {
  @Test func probesEveryPlaceInTheSeedsOrderAndTiesGoToTheFirst() throws {
    let harness = try MigrationHarness()
    let home = try TemporaryDirectory("home")
    let homeBuilder = try ContainerBuilder(root: home.path)
    for relative in ["Documents/Ditto.sqlite", "Library/Application Support/Ditto/ditto.sqlite"] {
      try harness.builder.writeBytes([UInt8](repeating: 1, count: 100), at: relative)
    }
    try homeBuilder.writeBytes([UInt8](repeating: 1, count: 100), at: "Documents/Ditto.SQLite")
    let findings = LegacyStoreProbe.probe(
      ContainerLayout(container: harness.folder.path, home: home.path))
    #expect(
      findings.candidates.map(\.relativePath) == [
        "Library/Application Support/Ditto/ditto.sqlite", "Documents/Ditto.sqlite",
        "Documents/Ditto.SQLite",
      ])
    #expect(findings.candidates.map(\.root) == [.appGroup, .appGroup, .app])
  }

  @Test func specialFilesAreFoundNeverOpenedAndCountForNothing() throws {
    let harness = try MigrationHarness()
    try harness.builder.makeFIFO(at: "Ditto.sqlite")
    try FileManager.default.createDirectory(
      atPath: harness.builder.path("Documents/Ditto.sqlite"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: harness.builder.path("ditto.sqlite"), withDestinationPath: "/etc/passwd")
    let migrator = harness.makeMigrator()
    // Found, not read: never "nothing on disk", and nothing counted.
    #expect(migrator.hasRecoverableLegacyData())
    let report = migrator.recoverNow()
    #expect(report.outcome == .foundUnreadable)
    #expect(report.transientReason == .notAFile)
    #expect(report.telemetryLine.hasSuffix(" reason=not_a_file"))
    let skipped = LegacyStoreProbe.probe(harness.layout).skipped
    #expect(Set(skipped.map(\.reason)) == ["FIFO", "directory", "symbolic link"])
    #expect(
      harness.log.lines().contains { $0.contains("not opened") && $0.contains("is a FIFO") })
    let automatic = try #require(harness.makeMigrator().migrateIfNeeded().attemptedReport)
    #expect(automatic.outcome == .foundUnreadable)
    #expect(automatic.flagSet == false)
    #expect(automatic.attempts == 0)
    #expect(!automatic.settled)
  }

  @Test func aReadableStoreWithDittosWinsOverALargerUnreadableOne() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeGarbage(count: 200_000, seed: 5, at: "Ditto.sqlite")
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 2, seed: 5)
    try harness.builder.writeStore(spec, at: "Documents/Ditto.sqlite")
    try harness.recordFiles()
    let migrator = harness.makeMigrator()
    // The dittos decide, not the size: the 200 KB of garbage is named, and not chosen.
    #expect(migrator.legacyStoreURL()?.relativePath == "Documents/Ditto.sqlite")
    let report = migrator.recoverNow()
    #expect(report.outcome == .success)
    #expect(report.store?.relativePath == "Documents/Ditto.sqlite")
    #expect(report.counts.inserted == 4)
    try harness.assertPreserved()
  }

  @Test func inventoryIsBoundedAndEscapesNames() throws {
    let harness = try MigrationHarness()
    for index in 0..<30 {
      try harness.builder.writeBytes([1, 2, 3], at: "many/file\(index)")
    }
    try harness.builder.writeBytes([1], at: "odd\nname\u{01}")
    var lines: [String] = []
    Inventory.produce(for: harness.layout, reportLimit: 10) { lines.append($0) }
    #expect(lines.count == 11)
    #expect(lines.last == "inventory[appgroup] 24 more files under / not listed (limit 10)")
    var all: [String] = []
    Inventory.produce(for: harness.layout) { all.append($0) }
    #expect(all.contains("inventory[appgroup] 1B /odd\\nname\\x01"))
    #expect(all.allSatisfy { !$0.contains("\n") })
  }

  @Test func severalProfilesAndOrphansAreAllImported() throws {
    let harness = try MigrationHarness()
    let spec = LegacyStoreSpec(
      categories: [
        .init(title: "Second profile", dittos: [.init(text: "p2")], profile: 2),
        .init(title: "First", dittos: [.init(text: "p1")], profile: 1),
        .init(title: "No profile", dittos: [.init(text: "np")], profile: nil),
      ],
      dittosWithoutCategory: [.init(text: "lost")], profileCount: 2, shufflesPrimaryKeys: false)
    try harness.builder.writeStore(spec)
    let report = harness.makeMigrator().recoverNow()
    #expect(report.counts.inserted == 4)
    #expect(
      same(
        try harness.libraryContents(),
        [
          ("First", ["p1"]), ("Second profile", ["p2"]), ("No profile", ["np"]),
          ("Recovered", ["lost"]),
        ]))
  }
}
