import ContainerFiles
import DittoStore
import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import RecoveryFile
import StoreFixtures
import TestSupport
import Testing

/// `backup extract`, `extract`, `recover --from` and `recoverNow(from:)`: the `.dittorecovery` file.
@Suite struct RecoveryFileCommandTests {
  static let backupDate = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

  /// Presets, plus some of the backup's own dittos (so the merge must skip them).
  static let library = SwiftDataStoreSpec(
    profiles: 1,
    categories: SwiftDataStoreSpec.presetCategories + [
      .init(title: "Work 💼", dittos: [.init("w2", useCount: 5)]),
      .init(title: "General", dittos: [.init("1.x second")]),
    ])

  /// A library's content without its timestamps: titles, orders, texts, use counts.
  static func shape(_ path: String) throws -> [String] {
    try DittoStoreFile.content(at: path).categories.map { category in
      "\(category.title)@\(category.sortOrder): "
        + category.dittos.map { "\($0.text)#\($0.useCount)@\($0.sortOrder)" }
        .joined(separator: " | ")
    }
  }

  @Test func aBackupThroughTheFileGivesExactlyTheDirectMerge() throws {
    let folder = try TemporaryDirectory("extract-merge")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.backupDate)
    let before = try FileHashes(of: backup)

    // The direct path: rebuild the backup and recover into a library.
    let direct = try makeLibrary(folder.appending("direct.store"), Self.library)
    let recovered = ToolRunner.run([
      "backup", "recover", backup, "--out", folder.appending("rebuilt"), "--library", direct,
      "--json",
    ])
    #expect(recovered.exitCode == 0, "\(recovered.standardError)")

    // Through the file: extract, then recover --from into the same starting library.
    let file = folder.appending("Ditto.dittorecovery")
    let extract = ToolRunner.run(["backup", "extract", backup, "--out", file, "--json"])
    #expect(extract.exitCode == 0, "\(extract.standardError)")
    #expect(extract.json?["out"] as? String == shown(file))
    #expect(extract.json?["categories"] as? Int == DittoBackupFixture.expectedCategories)
    #expect(extract.json?["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    #expect(extract.outcomeLines.isEmpty)
    let viaFile = try makeLibrary(folder.appending("via-file.store"), Self.library)
    let container = folder.appending("empty-container")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    let fromFile = ToolRunner.run([
      "recover", "--container", container, "--library", viaFile, "--from", file, "--json",
    ])
    #expect(fromFile.exitCode == 0, "\(fromFile.standardError)")

    #expect(try Self.shape(viaFile) == Self.shape(direct))
    #expect(try Self.shape(viaFile).count == SwiftDataStoreSpec.presetCategories.count + 4)
    #expect(fromFile.json?["inserted"] as? Int == recovered.json?["inserted"] as? Int)
    #expect(fromFile.json?["inserted"] as? Int == DittoBackupFixture.expectedDittos - 2)
    #expect(fromFile.json?["message"] as? String == recovered.json?["message"] as? String)
    #expect(
      fromFile.outcomeLines == [
        "migration_outcome source=manual outcome=success categories=4 dittos=9 inserted=7 from=file"
      ])
    #expect(try FileHashes(of: backup).preserves(before))

    // Again: nothing new, nothing twice.
    let again = ToolRunner.run([
      "recover", "--container", container, "--library", viaFile, "--from", file, "--json",
    ])
    #expect(again.json?["outcome"] as? String == "no_new_data")
    #expect(try Self.shape(viaFile) == Self.shape(direct))
  }

  @Test func theFileRoundTripsThroughInspectAndStatus() throws {
    let folder = try TemporaryDirectory("extract-inspect")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.backupDate, deviceName: "Anna’s iPhone")
    let work = folder.appending("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    // The default name carries the backup's date, in the current folder.
    let extract = try ToolRunner.runProcess(["backup", "extract", backup], currentDirectory: work)
    #expect(extract.exitCode == 0, "\(extract.standardError)")
    let file = work + "/Ditto-recovered-2023-11-14.dittorecovery"
    #expect(FileManager.default.fileExists(atPath: file))
    #expect(!FileManager.default.fileExists(atPath: file + "-journal"))
    #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
    #expect(extract.standardOutput.contains("wrote \(shown(file)): "))

    let inspect = ToolRunner.run(["inspect", file, "--json"])
    #expect(inspect.exitCode == 0, "\(inspect.standardError)")
    let recovery = try #require(inspect.json?["recovery"] as? [String: Any])
    #expect(recovery["origin"] as? String == "backup")
    #expect(recovery["deviceName"] as? String == "Anna’s iPhone")
    #expect(recovery["backupDate"] as? String == "2023-11-14T22:13:20Z")
    #expect(recovery["toolVersion"] as? String == "3.0.2")
    #expect(recovery["categories"] as? Int == DittoBackupFixture.expectedCategories)
    #expect(recovery["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    let sources = try #require(recovery["sources"] as? [[String: Any]])
    #expect(sources.map { $0["kind"] as? String } == ["coreData", "pending", "v1"])
    #expect(sources.map { $0["dittos"] as? Int } == [6, 1, 2])
    #expect(recovery["salvaged"] is NSNull)
    #expect(inspect.json?["journal"] as? String == "delete")

    let text = ToolRunner.run(["inspect", file])
    #expect(text.standardOutput.contains("recovery file: from backup"))
    #expect(text.standardOutput.contains("Anna’s iPhone, made 2023-11-14T22:13:20Z"))

    let status = ToolRunner.run(["status", "--from", file, "--json"])
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.json?["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    #expect((status.json?["recovery"] as? [String: Any])?["origin"] as? String == "backup")
    let statusText = ToolRunner.run(["status", "--from", file])
    #expect(statusText.standardOutput.contains("holds 4 categories, 9 dittos"))

    // What the engine reads is what was meant: same categories, order and use counts.
    let library = try LegacyStoreReader.read(path: file)
    #expect(library.categories.map(\.title) == ["Work 💼", "Family", "Keyboard new", "General"])
    #expect(library.categories[0].dittos.map(\.text) == ["w1", "w2", "w3"])
    #expect(library.categories[3].dittos.map(\.text) == ["1.x first", "1.x second"])
  }

  @Test func aTruncatedOrForeignFileIsFoundUnreadableAndTheLibraryIsUntouched() throws {
    let folder = try TemporaryDirectory("extract-bad")
    let container = folder.appending("container")
    try FixtureScenario.intact2x.build(at: container, parameters: .init(seed: 4))
    let file = folder.appending("good.dittorecovery")
    #expect(ToolRunner.run(["extract", "--container", container, "--out", file]).exitCode == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let truncated = folder.appending("truncated.dittorecovery")
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
    let foreign = folder.appending("notes.dittorecovery")
    try Data("these are not dittos\n".utf8).write(to: URL(fileURLWithPath: foreign))
    // A SQLite file of another kind: the app's own 3.x library.
    let otherDatabase = try makeLibrary(folder.appending("other.dittorecovery"), .presets)

    try FileManager.default.createDirectory(
      atPath: folder.appending("lib"), withIntermediateDirectories: true)
    let library = try makeLibrary(folder.appending("lib/Ditto.store"), .presets)
    let empty = folder.appending("empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    for bad in [truncated, foreign, otherDatabase] {
      let libraryBefore = try FileHashes(of: folder.appending("lib"))
      let badBefore = try Data(contentsOf: URL(fileURLWithPath: bad))
      let run = ToolRunner.run([
        "recover", "--container", empty, "--library", library, "--from", bad, "--json",
      ])
      #expect(run.exitCode == 65, "\(bad): \(run.standardError)")
      #expect(run.json?["outcome"] as? String == "found_unreadable")
      #expect(run.json?["result"] as? String == "foundButUnreadable")
      #expect((run.json?["message"] as? String)?.contains("couldn't read") == true)
      #expect(
        (run.json?["error"] as? String)?.contains(shown(bad)) == true, "\(run.standardOutput)")
      #expect(run.outcomeLines.count == 1)
      #expect(run.outcomeLines.first?.hasSuffix(" from=file") == true)
      #expect(run.outcomeLines.first?.contains("outcome=found_unreadable") == true)
      #expect(try FileHashes(of: folder.appending("lib")).preserves(libraryBefore))
      #expect(try Data(contentsOf: URL(fileURLWithPath: bad)) == badBefore)
      let status = ToolRunner.run(["status", "--from", bad])
      #expect(status.exitCode == 65)
      #expect(status.standardError.contains(shown(bad)))
    }
  }

  @Test func extractNeverOverwritesAnExistingFile() throws {
    let folder = try TemporaryDirectory("extract-exists")
    let container = folder.appending("container")
    try FixtureScenario.intact2x.build(at: container, parameters: .init(seed: 5))
    let containerBefore = try FileHashes(of: container)
    let existing = folder.appending("mine.dittorecovery")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: existing))
    let run = ToolRunner.run(["extract", "--container", container, "--out", existing, "--json"])
    #expect(run.exitCode == 73)
    #expect(run.standardError.contains(shown(existing)))
    #expect(run.standardError.contains("never overwritten"))
    #expect(run.json?["exitCode"] as? Int == 73)
    #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("precious".utf8))

    // A dangling link has the name too: it is not followed and not replaced.
    let link = folder.appending("link.dittorecovery")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: folder.appending("nowhere"))
    #expect(ToolRunner.run(["extract", "--container", container, "--out", link]).exitCode == 73)
    #expect(!FileManager.default.fileExists(atPath: folder.appending("nowhere")))

    // Nor is the output ever inside the container, and nothing temporary is left beside it.
    let inside = ToolRunner.run([
      "extract", "--container", container, "--out", container + "/x.dittorecovery",
    ])
    #expect(inside.exitCode == 64)
    #expect(try FileHashes(of: container).preserves(containerBefore))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names.sorted() == ["container", "link.dittorecovery", "mine.dittorecovery"])

    // The writer itself refuses too.
    #expect(throws: RecoveryFileError.self) {
      try RecoveryFileWriter.write(
        categories: [],
        info: RecoveryFileInfo(origin: .container, createdAt: Date(), toolVersion: "t"),
        to: existing)
    }
  }

  @Test func anEncryptedBackupNeedsItsPassword() throws {
    let folder = try TemporaryDirectory("extract-encrypted")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(
      at: backup, date: Self.backupDate, encryption: BackupEncryption(password: "s3cret pass"))
    let before = try FileHashes(of: backup)
    let file = folder.appending("out.dittorecovery")

    let locked = ToolRunner.run(["backup", "extract", backup, "--out", file, "--json"])
    #expect(locked.exitCode == 65)
    #expect(locked.standardError.contains("password"))
    #expect(!FileManager.default.fileExists(atPath: file))

    let passwordFile = folder.appending("password.txt")
    try Data("s3cret pass\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
    let run = ToolRunner.run([
      "backup", "extract", backup, "--out", file, "--password-file", passwordFile, "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.json?["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    #expect((run.json?["backup"] as? [String: Any])?["encrypted"] as? Bool == true)
    #expect(try LegacyStoreReader.read(path: file).dittoCount == DittoBackupFixture.expectedDittos)
    #expect(try FileHashes(of: backup).preserves(before))
    // No decrypted copy is left anywhere beside the output.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names.sorted() == ["out.dittorecovery", "password.txt", "udid"])
  }

  @Test func salvagedDittosGoInOnlyWithSalvage() throws {
    let folder = try TemporaryDirectory("extract-salvage")
    let container = folder.appending("container")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 4, seed: 9)
    let scratch = try TemporaryDirectory("extract-salvage-store")
    try LegacyStoreWriter.write(spec, to: scratch.appending("Ditto.sqlite"), journal: .walOnly)
    // 3.0.0's cleanup deleted the store but not its -wal.
    try FileManager.default.copyItem(
      atPath: scratch.appending("Ditto.sqlite-wal"), toPath: container + "/Ditto.sqlite-wal")
    let before = try FileHashes(of: container)

    let plain = folder.appending("plain.dittorecovery")
    let without = ToolRunner.run(["extract", "--container", container, "--out", plain, "--json"])
    #expect(without.exitCode == 65)
    #expect(!FileManager.default.fileExists(atPath: plain))
    #expect(without.standardError.contains("no file written"))

    let salvaged = folder.appending("salvaged.dittorecovery")
    let with = ToolRunner.run([
      "extract", "--container", container, "--out", salvaged, "--salvage", "--json",
    ])
    #expect(with.exitCode == 0, "\(with.standardError)")
    #expect(with.json?["salvaged"] as? Int == 8)
    #expect(with.json?["dittos"] as? Int == 8)
    #expect(with.outcomeLines.isEmpty)
    let info = try #require(try RecoveryFileInfo.read(path: salvaged))
    #expect(info.salvaged == 8)
    #expect(info.origin == .container)
    #expect(try LegacyStoreReader.read(path: salvaged).dittoCount == 8)
    #expect(try FileHashes(of: container).preserves(before))
  }

  @Test func recoverNowFromAURLLogsOneManualLineFromFile() async throws {
    let folder = try TemporaryDirectory("extract-url")
    let container = folder.appending("container")
    try FixtureScenario.intact2x.build(at: container, parameters: .init(seed: 6))
    let file = folder.appending("picked.dittorecovery")
    #expect(ToolRunner.run(["extract", "--container", container, "--out", file]).exitCode == 0)
    let expected = try LegacyStoreReader.read(path: file).dittoCount
    try FileManager.default.createDirectory(
      atPath: folder.appending("app"), withIntermediateDirectories: true)
    let library = try makeLibrary(folder.appending("app/Ditto.store"), .presets)
    let log = InMemoryLogHandler()
    let migrator = LegacyDataMigrator(
      layout: ContainerLayout(container: folder.appending("app"), home: nil),
      destination: DittoStoreDestination(path: library),
      defaults: AppGroupDefaults(path: folder.appending("app/none.plist")), logger: log.logger)
    let report = await migrator.recoverNow(from: URL(fileURLWithPath: file))
    #expect(report.outcome == .success)
    #expect(report.recoveryResult == .inserted(expected))
    #expect(report.isFromFile)
    #expect(log.outcomeLines.count == 1)
    #expect(log.outcomeLines.first?.hasPrefix("migration_outcome source=manual ") == true)
    #expect(log.outcomeLines.first?.hasSuffix(" from=file") == true)
    let preview = await migrator.recoverNow(from: URL(fileURLWithPath: file), dryRun: true)
    #expect(preview.counts.inserted == 0)
    #expect(log.outcomeLines.count == 1)
  }
}
