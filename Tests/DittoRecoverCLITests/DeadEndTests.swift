import DittoStore
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// Support without dead ends, run as a user would (the built ditto-recover, paths with spaces):
/// no output ever replaces a file, each dead end names the one next step and it works when pasted,
/// the wrong kind of input is named, one error is said once, non-UTF-8 paths are paths.
@Suite struct DeadEndTests {
  let folder: TemporaryDirectory
  let executable: String

  init() throws {
    folder = try TemporaryDirectory("dead ends")
    executable = try #require(ToolRunner.executablePath)
  }

  func run(_ arguments: [String]) throws -> ToolRun {
    try ToolRunner.runProcess(arguments, currentDirectory: folder.path)
  }

  /// Runs a printed `next:` command in a shell, as pasted (`ditto-recover` is the built one).
  /// Runs a `next:` line as printed (everything after `next: `), ditto-recover on the PATH.
  func paste(_ line: some StringProtocol) throws -> ToolRun {
    #expect(line.hasPrefix("next: "), "not a next: line: \(line)")
    return try ToolRun.pasted(String(line.dropFirst("next: ".count)), in: folder.path)
  }

  func nextLines(_ run: ToolRun) -> [Substring] {
    (run.standardError + run.standardOutput).split(separator: "\n").filter {
      $0.hasPrefix("next: ")
    }
  }

  func container(_ name: String, scenario: String) throws -> String {
    let path = folder.appending(name)
    let made = ToolRunner.runFixture([
      "--out", path, "--scenario", scenario, "--library", "empty",
    ])
    #expect(made.exitCode == 0, "\(made.standardError)")
    return path
  }

  // MARK: - 1. No output replaces a file

  @Test func outcomesHTMLNeverWritesOverAnInputOrAnyFile() throws {
    let logs = folder.appending("tester logs")
    try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
    for name in ["a.log", "b.log"] {
      try "migration_outcome source=auto outcome=success categories=1 dittos=2 inserted=2\n"
        .write(toFile: logs + "/" + name, atomically: true, encoding: .utf8)
    }
    let before = try FileHashes(of: logs)
    // The output name forgotten: `--html logs/*.log`.
    let forgotten = try run(["outcomes", "--html", logs + "/a.log", logs + "/b.log"])
    #expect(forgotten.exitCode == 73, "\(forgotten.standardError)")
    #expect(forgotten.standardError.contains("never overwritten"))
    let same = try run(["outcomes", "--html", logs + "/b.log", logs + "/./b.log"])
    #expect(same.exitCode == 73)
    #expect(same.standardError.contains("is one of the log captures to read"))
    let toFolder = try run(["outcomes", "--html", logs, logs + "/a.log"])
    #expect(toFolder.exitCode == 73)
    #expect(!toFolder.standardError.contains("NSCocoaErrorDomain"))
    #expect(try FileHashes(of: logs) == before)
    let made = try run(["outcomes", "--html", folder.appending("report.html"), logs + "/a.log"])
    #expect(made.exitCode == 0, "\(made.standardError)")
    #expect(
      try String(contentsOfFile: folder.appending("report.html"), encoding: .utf8)
        .hasPrefix("<!DOCTYPE html>"))
  }

  // MARK: - 3. Each dead end names the one next step

  @Test func aLoneWALSaysWhatSalvageWouldAddAndThePastedCommandWorks() throws {
    let device = try container("wal only", scenario: "wal-only")
    try FileManager.default.removeItem(atPath: device + "/Ditto.sqlite")
    let out = folder.appending("for the phone.dittorecovery")
    let first = try run(["extract", "--container", device, "--out", out])
    #expect(first.exitCode == 65)
    #expect(first.standardError.contains("salvage rebuilds 24 dittos"), "\(first.standardError)")
    let next = try #require(nextLines(first).first)
    #expect(next.hasSuffix("--salvage  # with the dittos salvage rebuilds"))
    let pasted = try paste(next)
    #expect(pasted.exitCode == 0, "\(next): \(pasted.standardError)")
    #expect(FileManager.default.fileExists(atPath: out))
  }

  /// What `migrate` advises is decided by the command, never by where a common flag was typed:
  /// `--verbose migrate` and `migrate --verbose` both name `recover` for a lone -wal, and the
  /// line pasted runs it.
  @Test func theAdviceIsTheCommandsWhereverACommonFlagIsTyped() throws {
    for (index, arguments) in [
      ["--verbose", "migrate"], ["migrate", "--verbose"], ["--json", "migrate"], ["migrate"],
    ].enumerated() {
      let device = try container("lone wal \(index)", scenario: "wal-only")
      try FileManager.default.removeItem(atPath: device + "/Ditto.sqlite")
      let run = try run(arguments + ["--container", device])
      let printed = run.standardError + run.standardOutput
      #expect(
        printed.contains("# Recover Old Dittos: rebuilds what the -wal holds"),
        "\(arguments): \(printed)")
      #expect(!printed.contains("recover migrate"), "\(arguments): \(printed)")
      if !arguments.contains("--json") {
        let next = try #require(nextLines(run).first { $0.contains(" recover ") })
        let pasted = try paste(next)
        #expect(pasted.exitCode == 0, "\(next): \(pasted.standardError)")
        #expect(pasted.standardOutput.contains("Recovered 24 dittos"), "\(pasted.standardOutput)")
      }
    }
  }

  /// A store that is a link to a store whose rows are only in its -wal: the printed commands copy
  /// the store and that -wal as one set, and the next reads every ditto.
  @Test func aLinkedStoresNextStepsCopyItsWALAndReadEveryDitto() throws {
    let device = try container("linked", scenario: "intact-2x")
    let elsewhere = folder.appending("elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 77)
    try LegacyStoreWriter.write(spec, to: elsewhere + "/real.sqlite", journal: .walOnly)
    try FileManager.default.removeItem(atPath: device + "/Ditto.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: device + "/Ditto.sqlite", withDestinationPath: elsewhere + "/real.sqlite")
    let status = try run(["status", "--container", device])
    #expect(status.exitCode == 0, "\(status.standardError)")
    let next = nextLines(status)
    #expect(next.count == 2, "\(status.standardOutput)")
    #expect(next.first?.contains("real.sqlite-wal") == true)
    #expect(status.standardOutput.contains("note: "))
    for line in next {
      let pasted = try paste(line)
      #expect(pasted.exitCode == 0, "\(line): \(pasted.standardError)")
    }
    let library = try DittoStoreFile.content(at: device + "/Ditto.store")
    #expect(library.dittoCount == spec.readableDittoCount)
  }

  @Test func withSalvageGivenSalvageIsNeverSuggested() throws {
    let device = try container("garbage", scenario: "garbage")
    let run = try run(["extract", "--container", device, "--salvage"])
    #expect(run.exitCode == 65)
    #expect(!(run.standardError + run.standardOutput).contains("--salvage"))
    #expect(run.standardError.contains("salvage found nothing it could decode"))
  }

  @Test func everyPrintedNextCommandIsShellQuoted() throws {
    let device = try container("my device copy", scenario: "intact-2x")
    let out = folder.appending("my file.dittorecovery")
    let written = try run(["extract", "--container", device, "--out", out])
    #expect(written.exitCode == 0, "\(written.standardError)")
    let check = try #require(
      written.standardOutput.split(separator: "\n").first { $0.contains("status --from") })
    #expect(try paste(check).exitCode == 0)
  }

  // MARK: - 4. The preview is honest

  @Test func aPreviewOfAnUnreadableStoreSaysNothingWouldBeImportedAndWhy() throws {
    let device = try container("garbage preview", scenario: "garbage")
    let preview = try run(["recover", "--container", device, "--dry-run"])
    #expect(preview.exitCode == 65)
    #expect(preview.standardOutput.hasPrefix("Nothing would be imported: old data was found"))
    #expect(!preview.standardOutput.contains("0 dittos in 0 categories will be imported"))
  }

  @Test func aDamagedLibraryPreviewsAsAgainstAnEmptyOneWithAWarning() throws {
    let device = try container("damaged library", scenario: "intact-2x")
    let library = device + "/Ditto.store"
    let handle = try #require(FileHandle(forWritingAtPath: library))
    try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
    try handle.close()
    let preview = try run(["recover", "--container", device, "--dry-run", "--json"])
    #expect(preview.exitCode == 0, "\(preview.standardError)")
    #expect(preview.json?["libraryWarning"] as? String != nil)
    #expect((preview.json?["preview"] as? String)?.hasPrefix("24 dittos in 4 categories") == true)
  }

  // MARK: - 5. One error, one line, in the user's words

  @Test func oneErrorIsSaidOnceWithoutInternalNames() throws {
    let device = try container("say once", scenario: "garbage")
    let badDefaults = try container("bad plist", scenario: "intact-2x")
    try FileManager.default.createDirectory(
      atPath: badDefaults + "/Library/Preferences", withIntermediateDirectories: true)
    try Data("not a plist".utf8).write(
      to: URL(fileURLWithPath: badDefaults + "/Library/Preferences/group.io.kern.ditto.plist"))
    for arguments in [
      ["recover", "--container", device], ["migrate", "--container", device],
      ["extract", "--container", device], ["status", "--container", badDefaults],
      ["recover", "--container", badDefaults],
    ] {
      let run = try run(arguments)
      let text = run.standardError + run.standardOutput
      for word in ["runMigration", "legacyStoreURL", "writeMigratedData", "NSCocoaErrorDomain"] {
        #expect(!text.contains(word), "\(arguments): \(word)")
      }
      let lines = text.split(separator: "\n").filter { $0.contains("not an SQLite database") }
      #expect(lines.count <= 1, "\(arguments): \(lines)")
      for line in text.split(separator: "\n") {
        let plist = line.components(separatedBy: "group.io.kern.ditto.plist").count - 1
        #expect(plist <= 1, "\(arguments): the path twice in \(line)")
      }
    }
  }

  // MARK: - 6. The wrong kind of input is named

  @Test func theWrongKindOfInputIsNamedWithTheCommandThatFits() throws {
    let device = try container("kinds", scenario: "intact-2x")
    let library = device + "/Ditto.store"
    let legacy = device + "/Ditto.sqlite"
    let asLegacy = try run(["export", "--legacy", library, "--format", "csv"])
    #expect(asLegacy.standardError.contains("is a Ditto 3.x library"))
    #expect(try paste(try #require(nextLines(asLegacy).first)).exitCode == 0)
    let asLibrary = try run(["export", "--library", legacy, "--format", "csv"])
    #expect(asLibrary.standardError.contains("is a Ditto 2.x store"))
    #expect(try paste(try #require(nextLines(asLibrary).first)).exitCode == 0)
    let recovery = folder.appending("kinds.dittorecovery")
    #expect(try run(["extract", "--container", device, "--out", recovery]).exitCode == 0)
    let recoveryAsLibrary = try run(["export", "--library", recovery])
    #expect(recoveryAsLibrary.standardError.contains("recovery file made by ditto-recover"))
    let storeAsContainer = try run(["status", "--container", legacy])
    #expect(storeAsContainer.exitCode == 66)
    #expect(storeAsContainer.standardError.contains("is a Ditto 2.x store"))
    let backup = folder.appending("a backup")
    try DittoBackupFixture.build(at: backup, date: Date(timeIntervalSince1970: 1_500_000_000))
    let backupAsContainer = try run(["recover", "--container", backup])
    #expect(backupAsContainer.exitCode == 66)
    #expect(backupAsContainer.standardError.contains("is a Finder/iTunes backup"))
    #expect(
      backupAsContainer.standardError.contains("next: \(ToolRunner.programAsRun) backup recover"))
    let containerAsBackup = try run(["backup", "list", device])
    #expect(containerAsBackup.standardError.contains("is a copied App Group container"))
    // --from with --library needs no container.
    let copy = folder.appending("library copy.store")
    try FileManager.default.copyItem(atPath: library, toPath: copy)
    let picked = try run(["recover", "--from", recovery, "--library", copy, "--json"])
    #expect(picked.exitCode == 0, "\(picked.standardError)")
    #expect(picked.json?["outcome"] as? String == "success")
  }

  @Test func anXcodeAppDataBundleIsReadThroughItsAppDataFolderAndSaysSo() throws {
    let bundle = folder.appending("Ditto 2026.xcappdata")
    let appData = bundle + "/AppData/Documents"
    try FileManager.default.createDirectory(atPath: appData, withIntermediateDirectories: true)
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 7),
      to: appData + "/Ditto.sqlite")
    let status = try run(["status", "--container", bundle])
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.standardError.contains("reading its AppData folder"))
    #expect(status.standardOutput.hasPrefix("recoverable: 6 dittos in 2 categories"))
  }

  // MARK: - 9. Paths that are not valid UTF-8

  @Test func pathsThatAreNotValidUTF8ArePaths() throws {
    let device = try container("plain", scenario: "intact-2x")
    // A folder whose name holds the byte 0xFF (or, where the file system refuses that, as APFS
    // does, a control byte: OddFileName says so), made and used through the shell.
    let name = try OddFileName.makeFolder(in: folder.path)
    let odd = name.shellWord
    let exe = shellQuoted(executable)
    #expect(
      try ToolRun.shell("rmdir \(odd) && cp -R \(shellQuoted(device)) \(odd)", in: folder.path)
        .exitCode == 0)
    let status = try ToolRun.shell("\(exe) status --container \(odd)", in: folder.path)
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.standardOutput.hasPrefix("recoverable: 24 dittos in 4 categories"))
    let inspect = try ToolRun.shell("\(exe) inspect \(odd)/Ditto.sqlite", in: folder.path)
    #expect(inspect.exitCode == 0, "\(inspect.standardError)")
    #expect(inspect.standardOutput.contains(name.shown + "/Ditto.sqlite"))
    let extract = try ToolRun.shell(
      "\(exe) extract --container \(odd) --out \(odd)/new.dittorecovery --json", in: folder.path)
    #expect(extract.exitCode == 0, "\(extract.standardError)")
    #expect(extract.json?["dittos"] as? Int == 24)
    // The library inside that folder is written too (SQLite opens it by its resolved folder).
    let recover = try ToolRun.shell("\(exe) recover --container \(odd) --json", in: folder.path)
    #expect(recover.exitCode == 0, "\(recover.standardError)")
    #expect(recover.json?["inserted"] as? Int == 24)
    let migrate = try ToolRun.shell("\(exe) migrate --container \(odd) --json", in: folder.path)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.json?["outcome"] as? String == "no_new_data")
  }
}
