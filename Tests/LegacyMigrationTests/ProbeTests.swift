import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import SafeFiles
import StoreFixtures
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
    // In another folder: on a case-insensitive volume (a Mac's) "ditto.sqlite" is "Ditto.sqlite".
    try harness.builder.makeParent(of: "Library/Application Support/ditto.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: harness.builder.path("Library/Application Support/ditto.sqlite"),
      withDestinationPath: "/etc/passwd")
    let migrator = harness.makeMigrator()
    // Found, not read: never "nothing on disk", and nothing counted.
    #expect(migrator.hasRecoverableLegacyData())
    let report = migrator.recoverNowBlocking()
    #expect(report.outcome == .foundUnreadable)
    #expect(report.transientReason == .notAFile)
    #expect(report.telemetryLine.hasSuffix(" reason=not_a_file"))
    let skipped = LegacyStoreProbe.probe(harness.layout).skipped
    #expect(Set(skipped.map(\.reason)) == ["FIFO", "directory", "symbolic link"])
    #expect(
      harness.log.lines().contains { $0.contains("not opened") && $0.contains("is a FIFO") })
    let automatic = try #require(harness.makeMigrator().migrateIfNeededBlocking().attemptedReport)
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
    #expect(migrator.chosenLegacyStore()?.relativePath == "Documents/Ditto.sqlite")
    let report = migrator.recoverNowBlocking()
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
    let report = harness.makeMigrator().recoverNowBlocking()
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

/// Every letter case of `Ditto.sqlite` is found, and one file under several names is one candidate,
/// named as the directory holds it: what a Mac's case-insensitive volume shows, simulated here with
/// hard links (one inode, three names), for a regular file, a FIFO and a symbolic link.
@Suite struct CaseInsensitiveProbeTests {
  /// Gives `source` the other name `destination`. On a case-insensitive volume the other spelling
  /// already names `source` (EEXIST): that is the very situation simulated, so it is accepted.
  static func hardLink(_ source: String, _ destination: String) throws {
    // linkat without AT_SYMLINK_FOLLOW links the object itself (a link stays a link).
    guard linkat(AT_FDCWD, source, AT_FDCWD, destination, 0) == 0 || errno == EEXIST else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  /// The name the probe reports for one object under several spellings in `folder`: the first of
  /// the seed's spellings the directory holds, else the first other spelling (bytewise).
  static func expectedName(in folder: String) throws -> String {
    let names = try DirectoryWalker.names(in: folder).filter(LegacyStoreProbe.isStoreName)
      .map { String(decoding: $0, as: UTF8.self) }
    return LegacyStoreProbe.fileNames.first(where: names.contains) ?? names.first ?? ""
  }

  @Test func everyLetterCaseIsFoundAndNamedAsOnDisk() throws {
    let harness = try MigrationHarness()
    let spec = FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 3)
    try harness.builder.writeStore(spec, at: "DITTO.SQLITE")
    try harness.builder.writeStore(spec, at: "Documents/dItTo.SqLiTe")
    try harness.builder.writeBytes([1], at: "Documents/Ditto.sqlite.bak")
    let findings = LegacyStoreProbe.probe(harness.layout)
    #expect(findings.candidates.map(\.relativePath) == ["DITTO.SQLITE", "Documents/dItTo.SqLiTe"])
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.outcome == .success)
    #expect(report.counts.inserted == 2)
  }

  @Test func oneFileUnderThreeNamesIsOneCandidate() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 4))
    for name in ["ditto.sqlite", "Ditto.SQLite"] {
      try Self.hardLink(harness.builder.path("Ditto.sqlite"), harness.builder.path(name))
    }
    let findings = LegacyStoreProbe.probe(harness.layout)
    #expect(
      findings.candidates.map(\.relativePath) == [try Self.expectedName(in: harness.folder.path)])
    #expect(findings.candidates.first?.relativePath == "Ditto.sqlite")
    #expect(findings.skipped.isEmpty)
  }

  @Test func aFIFOUnderThreeNamesIsNamedOnce() throws {
    let harness = try MigrationHarness()
    try harness.builder.makeFIFO(at: "ditto.sqlite")
    for name in ["Ditto.sqlite", "DITTO.sqlite"] {
      try Self.hardLink(harness.builder.path("ditto.sqlite"), harness.builder.path(name))
    }
    let findings = LegacyStoreProbe.probe(harness.layout)
    // Named once, with the seed's first spelling the directory holds ("ditto.sqlite" alone on a
    // case-insensitive volume, where the other names were the same name).
    #expect(
      findings.skipped.map(\.relativePath) == [try Self.expectedName(in: harness.folder.path)])
    #expect(findings.skipped.first?.reason == "FIFO")
    let report = harness.makeMigrator().recoverNowBlocking()
    #expect(report.skipped.count == 1)
    #expect(report.transientReason == .notAFile)
  }

  @Test func aLinkUnderThreeNamesIsNamedOnce() throws {
    let harness = try MigrationHarness()
    try FileManager.default.createSymbolicLink(
      atPath: harness.builder.path("Ditto.SQLite"), withDestinationPath: "/etc/hostname")
    for name in ["ditto.SQLITE", "DiTTO.sqlite"] {
      try Self.hardLink(harness.builder.path("Ditto.SQLite"), harness.builder.path(name))
    }
    let findings = LegacyStoreProbe.probe(harness.layout)
    #expect(
      findings.skipped.map(\.relativePath) == [try Self.expectedName(in: harness.folder.path)])
    #expect(findings.skipped.first?.reason == "symbolic link")
  }

  @Test func aLoneWALInAnyCaseIsFound() throws {
    let harness = try MigrationHarness()
    try harness.builder.writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 5), journal: .walOnly)
    try FileManager.default.moveItem(
      atPath: harness.builder.path("Ditto.sqlite-wal"),
      toPath: harness.builder.path("DITTO.SQLITE-WAL"))
    try FileManager.default.removeItem(atPath: harness.builder.path("Ditto.sqlite"))
    let findings = LegacyStoreProbe.probe(harness.layout)
    #expect(findings.orphanWALs.map(\.relativePath) == ["DITTO.SQLITE-WAL"])
  }
}
