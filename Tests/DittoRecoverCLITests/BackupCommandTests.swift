import BackupReader
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// `backup list` and `backup recover`: the issue's contracts, from backup folder to an importable CSV.
@Suite struct BackupCommandTests {
  static let older = Date(timeIntervalSince1970: 1_443_702_600)  // 2015-10-01T12:30:00Z
  static let newer = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

  /// `backup list` surveys each backup's Ditto files (rebuilt in a private folder, removed after):
  /// how many dittos it could give back, as `status` says it of a container.
  @Test func listSaysWhatEachBackupCouldGiveBack() throws {
    let folder = try TemporaryDirectory("backup-list-survey")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.older)
    let before = try FileHashes(of: backup)
    let run = ToolRunner.run(["backup", "list", backup, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let entry = try #require((run.json?["backups"] as? [[String: Any]])?.first)
    let recoverable = try #require(entry["recoverable"] as? [String: Any])
    #expect(recoverable["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    #expect(recoverable["categories"] as? Int == DittoBackupFixture.expectedCategories)
    #expect(recoverable["salvaged"] as? Bool == false)
    let text = ToolRunner.run(["backup", "list", backup])
    #expect(
      text.standardOutput.contains(
        "  recoverable: \(DittoBackupFixture.expectedDittos) dittos in \(DittoBackupFixture.expectedCategories) categories"
      ))
    #expect(try FileHashes(of: backup) == before)
  }

  @Test func listJSONHasTheContractKeys() throws {
    let folder = try TemporaryDirectory("backup-list")
    let backup = folder.appending("00008030-001D35093EF2402E")
    try DittoBackupFixture.build(at: backup, date: Self.older, deviceName: "Sam’s iPhone")
    let before = try FileHashes(of: backup)
    let run = ToolRunner.run(["backup", "list", backup, "--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(Set(json.keys) == ["backups", "newestWithDittoStore", "newestDependsOn"])
    #expect(json["newestDependsOn"] as? [String] == [])
    #expect(json["newestWithDittoStore"] as? String == shown(backup))
    let backups = try #require(json["backups"] as? [[String: Any]])
    #expect(backups.count == 1)
    let entry = try #require(backups.first)
    for key in ["path", "deviceName", "date", "iosVersion", "encrypted", "dittoFiles"] {
      #expect(entry.keys.contains(key), "\(key)")
    }
    #expect(entry["path"] as? String == shown(backup))
    #expect(entry["deviceName"] as? String == "Sam’s iPhone")
    #expect(entry["date"] as? String == "2015-10-01T12:30:00Z")
    #expect(entry["iosVersion"] as? String == "17.5.1")
    #expect(entry["encrypted"] as? Bool == false)
    #expect(entry["error"] is NSNull)
    #expect((entry["problems"] as? [Any])?.isEmpty == true)
    let files = try #require(entry["dittoFiles"] as? [[String: Any]])
    #expect(files.allSatisfy { Set($0.keys) == ["domain", "relativePath", "bytes"] })
    #expect(
      files.map { "\($0["domain"] as? String ?? "")/\($0["relativePath"] as? String ?? "")" } == [
        "AppDomain-io.kern.Ditto/Library/Preferences/io.kern.Ditto.plist",
        "AppDomainGroup-group.io.kern.ditto/Ditto.sqlite",
        "AppDomainGroup-group.io.kern.ditto/Ditto.sqlite-shm",
        "AppDomainGroup-group.io.kern.ditto/Ditto.sqlite-wal",
        "AppDomainGroup-group.io.kern.ditto/Ditto.store",
        "AppDomainGroup-group.io.kern.ditto/Library/Preferences/group.io.kern.ditto.plist",
      ])
    #expect(files[1]["bytes"] as? Int == 4096)
    #expect(files[2]["bytes"] as? Int == 32768)
    #expect(try FileHashes(of: backup) == before)

    let text = ToolRunner.run(["backup", "list", backup])
    #expect(text.exitCode == 0)
    #expect(
      text.standardOutput.contains(
        "device: Sam’s iPhone, iOS 17.5.1, 2015-10-01T12:30:00Z, not encrypted"))
    #expect(
      text.standardOutput.contains("AppDomainGroup-group.io.kern.ditto  Ditto.sqlite  4096 bytes"))
  }

  @Test func recoverJSONIsTheRecoverObjectPlusBackup() throws {
    let folder = try TemporaryDirectory("backup-recover")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.older)
    let before = try FileHashes(of: backup)
    let out = folder.appending("out")
    let run = ToolRunner.run(["backup", "recover", backup, "--out", out, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    for key in [
      "attempted", "source", "outcome", "legacyStore", "legacyBytes", "categories", "dittos",
      "insertedCategories", "inserted", "skipped", "flagSet", "error", "result", "message",
      "library", "sources", "backup",
    ] {
      #expect(json.keys.contains(key), "\(key)")
    }
    #expect(json["source"] as? String == "manual")
    #expect(json["outcome"] as? String == "success")
    #expect(json["result"] as? String == "inserted")
    #expect(json["legacyStore"] as? String == "Ditto.sqlite")
    #expect(json["categories"] as? Int == DittoBackupFixture.expectedCategories)
    #expect(json["dittos"] as? Int == DittoBackupFixture.expectedDittos)
    #expect(json["inserted"] as? Int == DittoBackupFixture.expectedDittos)
    #expect(json["message"] as? String == "Recovered 9 dittos from your previous version.")
    #expect(
      json["library"] as? String == shown(out) + "/AppDomainGroup-group.io.kern.ditto/Ditto.store")
    #expect(
      (json["sources"] as? [[String: Any]])?.map { $0["kind"] as? String } == [
        "coreData", "pending", "v1",
      ])
    let info = try #require(json["backup"] as? [String: Any])
    #expect(info["path"] as? String == shown(backup))
    #expect(info["container"] as? String == shown(out) + "/AppDomainGroup-group.io.kern.ditto")
    #expect(info["home"] as? String == shown(out) + "/AppDomain-io.kern.Ditto")
    let files = try #require(info["files"] as? [[String: Any]])
    #expect(files.count == 6)
    #expect(files.allSatisfy { $0["status"] as? String == "copied" })
    #expect(run.outcomeLines.count == 1)
    #expect(try FileHashes(of: backup) == before)

    let csv = ToolRunner.run([
      "export", "--library", out + "/AppDomainGroup-group.io.kern.ditto/Ditto.store", "--format",
      "csv",
    ])
    #expect(csv.exitCode == 0)
    let lines = csv.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.first == "Category,Ditto")
    #expect(lines.count == 1 + DittoBackupFixture.expectedDittos)
    #expect(lines.contains("Work 💼,w1"))
    #expect(lines.contains("Keyboard new,k1"))
    #expect(lines.contains("General,1.x first"))

    // An --out that holds files (an earlier run's, another backup's) is never written over.
    let outBefore = try FileHashes(of: out)
    let again = ToolRunner.run(["backup", "recover", backup, "--out", out, "--json"])
    #expect(again.exitCode == 73)
    #expect(again.standardError.contains("already exists and is not an empty folder"))
    #expect(again.json?["exitCode"] as? Int == 73)
    #expect(try FileHashes(of: out) == outBefore)
    #expect(try FileHashes(of: backup) == before)
  }

  /// The backups that matter most were made before 3.0: a Ditto.sqlite and no Ditto.store. No dead
  /// end: what the rebuilt files hold, and the two commands that fit, pasteable as printed.
  @Test func aBackupMadeBeforeDitto3SaysWhatItHoldsAndTheCommandsThatFit() throws {
    let folder = try TemporaryDirectory("backup pre 3")
    let backup = folder.appending("my backup")
    try DittoBackupFixture.build(at: backup, date: Self.older, library: nil)
    let out = folder.appending("rebuilt here")
    let run = try ToolRunner.runProcess(["backup", "recover", backup, "--out", out])
    #expect(run.exitCode == 74, "\(run.standardError)")
    #expect(
      run.standardError.contains("the backup was made before Ditto 3.0"), "\(run.standardError)")
    #expect(run.standardError.contains("recoverable: \(DittoBackupFixture.expectedDittos) dittos"))
    #expect(!run.standardError.contains("Run Ditto 3.0.2 on the device"))
    let next = run.standardError.split(separator: "\n").filter { $0.hasPrefix("next: ") }
    let extract = try #require(next.first { $0.contains("backup extract") })
    let csv = try #require(next.first { $0.contains("export --legacy") })
    // Paste the commands as printed (a shell reads the quotes back), from a folder of their own.
    let work = folder.appending("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    for line in [extract, csv] {
      // Everything after "next: " is the command, its label a trailing shell comment.
      let command = String(line.dropFirst("next: ".count))
      let shell = try ToolRun.pasted(command, in: work)
      #expect(shell.exitCode == 0, "\(command): \(shell.standardError)")
    }
    // Pasted again, the CSV command refuses to replace the file it made (set -C).
    let again = try ToolRun.pasted(String(csv.dropFirst("next: ".count)), in: work)
    #expect(again.exitCode != 0)
    let csvText = try String(contentsOfFile: work + "/dittos.csv", encoding: .utf8)
    #expect(csvText.hasPrefix("Category,Ditto"))
    let files = try FileManager.default.contentsOfDirectory(atPath: work)
    #expect(files.contains { $0.hasSuffix(".dittorecovery") }, "\(files)")
    let json = try ToolRunner.runProcess([
      "backup", "recover", backup, "--out", out + "-2", "--json",
    ])
    #expect(json.json?["exitCode"] as? Int == 74)
    #expect((json.json?["next"] as? [String])?.count == 2)
  }

  /// A backup that lists its 3.x library but does not give it (the stored file gone, or one that
  /// cannot be decrypted) was not "made before Ditto 3.0": the library could not be read, nothing
  /// is imported and nothing is made under `--out`.
  @Test func aLibraryTheBackupListsButDoesNotGiveIsNotABackupMadeBefore3() throws {
    let folder = try TemporaryDirectory("backup-library-gone")
    let backup = folder.appending("device")
    try DittoBackupFixture.build(at: backup, date: Self.older)
    let id = BackupBuilder.fileID(domain: DittoDomain.appGroupDomain, relativePath: "Ditto.store")
    try FileManager.default.removeItem(atPath: backup + "/" + id.prefix(2) + "/" + id)
    let out = folder.appending("out")
    let run = try ToolRunner.runProcess(["backup", "recover", backup, "--out", out])
    #expect(run.exitCode == 74, "\(run.standardError)")
    #expect(!run.standardError.contains("made before Ditto 3.0"), "\(run.standardError)")
    #expect(run.standardError.contains("could not be rebuilt"), "\(run.standardError)")
    #expect(run.outcomeLines.isEmpty, "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func withoutOutItRebuildsIntoANewTemporaryFolderAndSaysWhere() throws {
    let folder = try TemporaryDirectory("backup-temp")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.older)
    let library = try makeLibrary(folder.appending("library.store"))
    let run = ToolRunner.run(["backup", "recover", backup, "--library", library])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let line = try #require(
      run.standardError.split(separator: "\n").first { $0.hasPrefix("rebuilding into ") })
    let temporary = String(line.dropFirst("rebuilding into ".count).prefix { $0 != " " })
    #expect(
      FileManager.default.fileExists(
        atPath: temporary + "/AppDomainGroup-group.io.kern.ditto/Ditto.sqlite"))
    #expect(FileManager.default.fileExists(atPath: library))
    #expect(run.standardOutput.contains("Recovered 9 dittos from your previous version."))
    #expect(
      run.standardOutput.contains(
        "next: (set -C; ditto-recover export --library \(shown(library)) --format csv > dittos.csv)"
      ))
    try FileManager.default.removeItem(atPath: temporary)
  }

  /// A real backup spells the app's own domain `AppDomain-io.kern.Ditto` (bundle id io.kern.Ditto):
  /// a store kept only in its Documents is listed, rebuilt under OUT/AppDomain-io.kern.Ditto/ and imported.
  @Test func theOnlyStoreInTheAppsOwnDomainAsRealBackupsSpellItIsImported() throws {
    let folder = try TemporaryDirectory("backup-app-domain")
    let builder = try BackupBuilder(root: folder.appending("udid"))
    try builder.writeStandardPlists(date: Self.older)
    let app = "AppDomain-io.kern.Ditto"
    try builder.addFolder(domain: app, relativePath: "")
    try builder.addFolder(domain: app, relativePath: "Documents")
    let scratch = try TemporaryDirectory("app-store")
    try LegacyStoreWriter.write(DittoBackupFixture.store, to: scratch.appending("Ditto.sqlite"))
    let store = try Data(contentsOf: URL(fileURLWithPath: scratch.appending("Ditto.sqlite")))
    try builder.addFile(domain: app, relativePath: "Documents/Ditto.sqlite", contents: Array(store))
    try builder.writeManifest()
    let before = try FileHashes(of: builder.root)

    let list = ToolRunner.run(["backup", "list", builder.root, "--json"])
    #expect(list.exitCode == 0)
    #expect(list.json?["newestWithDittoStore"] as? String == shown(builder.root))
    let out = folder.appending("out")
    let library = try makeLibrary(folder.appending("library.store"))
    let run = ToolRunner.run([
      "backup", "recover", builder.root, "--out", out, "--library", library, "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["outcome"] as? String == "success")
    #expect(json["inserted"] as? Int == 6)
    let info = try #require(json["backup"] as? [String: Any])
    #expect(info["home"] as? String == shown(out) + "/AppDomain-io.kern.Ditto")
    #expect(
      (info["files"] as? [[String: Any]])?.map { $0["status"] as? String } == ["copied"])
    #expect(
      FileManager.default.fileExists(
        atPath: out + "/AppDomain-io.kern.Ditto/Documents/Ditto.sqlite"))
    let csv = ToolRunner.run([
      "export", "--library", library, "--format", "csv",
    ])
    #expect(csv.standardOutput.contains("Work 💼,w1\r\n"))
    #expect(csv.standardOutput.contains("Family,f3\r\n"))
    #expect(try FileHashes(of: builder.root) == before)
  }

  @Test func severalBackupsNameTheNewestHoldingADittoStore() throws {
    let folder = try TemporaryDirectory("backup-several")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(at: root + "/aaaa", date: Self.older, deviceName: "Old phone")
    try DittoBackupFixture.build(
      at: root + "/bbbb", date: Self.newer, deviceName: "New phone", includesDitto: false)
    try DittoBackupFixture.build(
      at: root + "/cccc", date: Self.older.addingTimeInterval(-86_400), deviceName: "Oldest")
    let before = try FileHashes(of: root)
    let list = ToolRunner.run(["backup", "list", root, "--json"])
    #expect(list.exitCode == 0)
    let json = try #require(list.json)
    #expect(json["newestWithDittoStore"] as? String == shown(root) + "/aaaa")
    let backups = try #require(json["backups"] as? [[String: Any]])
    #expect(
      backups.map { $0["path"] as? String }
        == ["aaaa", "bbbb", "cccc"].map { shown(root) + "/" + $0 })
    #expect((backups[1]["dittoFiles"] as? [Any])?.isEmpty == true)
    let text = ToolRunner.run(["backup", "list", root])
    #expect(
      text.standardOutput.contains("newest backup holding a Ditto store: \(shown(root))/aaaa"))

    let out = folder.appending("out")
    let run = ToolRunner.run(["backup", "recover", root, "--out", out, "--json"])
    #expect(run.exitCode == 0)
    #expect((run.json?["backup"] as? [String: Any])?["path"] as? String == shown(root) + "/aaaa")
    #expect((run.json?["backup"] as? [String: Any])?["backupsFound"] as? Int == 3)
    #expect(
      run.standardError.contains(
        "using \(shown(root))/aaaa (Old phone, 2015-10-01T12:30:00Z): of 3 backups, the newest that holds a Ditto store"
      ))
    #expect(try FileHashes(of: root) == before)
  }

  @Test(arguments: [true, false])
  func anEncryptedLookingBackupGivesTheClearMessage(saysEncrypted: Bool) throws {
    let folder = try TemporaryDirectory("backup-encrypted")
    let builder = try BackupBuilder(root: folder.appending("udid"))
    if saysEncrypted {
      try builder.writeStandardPlists(date: Self.older, isEncrypted: true)
    } else {
      try builder.writeInfo(["Device Name": "Locked"])
    }
    try builder.writeBytes(
      (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }, at: "Manifest.db")
    let before = try FileHashes(of: builder.root)
    let out = folder.appending("out")
    let run = ToolRunner.run(["backup", "recover", builder.root, "--out", out, "--json"])
    #expect(run.exitCode == 65)
    let json = try #require(run.json)
    #expect(Set(json.keys) == ["error", "exitCode", "next", "notes"])
    let message = try #require(json["error"] as? String)
    #expect(message.contains("is an encrypted backup"))
    #expect(message.contains("Encrypt local backup"))
    #expect(message.contains("--password-file"))
    #expect(run.standardError.hasPrefix("Error: \(message)\nnote: the backup is encrypted"))
    #expect(
      (json["next"] as? [String])?.last
        == "ditto-recover backup recover \(builder.root) --out \(out) --json --password-file password.txt  # again, with the password"
    )
    #expect(!FileManager.default.fileExists(atPath: out))
    let text = ToolRunner.run(["backup", "recover", builder.root, "--out", out])
    #expect(text.exitCode == 65)
    #expect(text.standardOutput.isEmpty)
    #expect(text.standardError.hasPrefix("Error: \(shown(builder.root)) is an encrypted backup"))

    // Listed, with the way to open it: not a failure.
    let list = ToolRunner.run(["backup", "list", builder.root, "--json"])
    #expect(list.exitCode == 0)
    let listed = try #require((list.json?["backups"] as? [[String: Any]])?.first)
    #expect(listed["encrypted"] as? Bool == true)
    #expect(listed["dittoFiles"] is NSNull)
    #expect(listed["errorCode"] as? String == "encrypted")
    #expect(try FileHashes(of: builder.root) == before)
  }

  @Test func sizeMismatchesAndUnsafePathsAreReported() throws {
    let folder = try TemporaryDirectory("backup-odd")
    let builder = try BackupBuilder(root: folder.appending("udid"))
    try builder.writeStandardPlists(date: Self.older)
    let group = DittoDomain.appGroupDomain
    try builder.addFile(
      domain: group, relativePath: "notes.txt", contents: [1, 2, 3],
      blob: try BackupBuilder.archive(.init(size: 300, mode: 0o100644)))
    try builder.addFile(domain: group, relativePath: "../../escaped.txt", contents: [1])
    try builder.writeManifest()
    let before = try FileHashes(of: builder.root)
    let out = folder.appending("out")
    let library = try makeLibrary(folder.appending("library.store"))
    let run = ToolRunner.run([
      "backup", "recover", builder.root, "--out", out, "--library", library, "--json",
    ])
    #expect(run.exitCode == 0)
    #expect(run.json?["outcome"] as? String == "nothing_on_disk")
    let files = try #require((run.json?["backup"] as? [String: Any])?["files"] as? [[String: Any]])
    let byPath = Dictionary(
      uniqueKeysWithValues: files.map { ($0["relativePath"] as? String ?? "", $0) })
    #expect(byPath["notes.txt"]?["status"] as? String == "size_mismatch")
    #expect(byPath["notes.txt"]?["copiedBytes"] as? Int == 3)
    #expect(byPath["notes.txt"]?["bytes"] as? Int == 300)
    #expect(byPath["../../escaped.txt"]?["status"] as? String == "refused")
    #expect(run.standardError.contains("warning: \(group)/notes.txt: size_mismatch: "))
    #expect(!FileManager.default.fileExists(atPath: folder.appending("escaped.txt")))
    #expect(!FileManager.default.fileExists(atPath: out + "/escaped.txt"))
    #expect(try FileHashes(of: builder.root) == before)

    let list = ToolRunner.run(["backup", "list", builder.root, "--json"])
    let problems = (list.json?["backups"] as? [[String: Any]])?.first?["problems"] as? [String]
    #expect(
      problems?.contains("\(group)/notes.txt: the stored file has 3 bytes, the manifest says 300")
        == true)
  }

  @Test func anUnreadableSiblingBackupIsNotNothingOnDisk() throws {
    let folder = try TemporaryDirectory("backup-sibling")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(at: root + "/plain", date: Self.newer, includesDitto: false)
    let locked = try BackupBuilder(root: root + "/locked")
    try locked.writeStandardPlists(date: Self.older, isEncrypted: true)
    try locked.writeBytes(Array(repeating: 9, count: 4096), at: "Manifest.db")
    let library = try makeLibrary(folder.appending("library.store"))
    let run = ToolRunner.run([
      "backup", "recover", root, "--out", folder.appending("out"), "--library", library, "--json",
    ])
    // The only readable backup holds no Ditto file: it is called what it is, and the unreadable
    // one keeps "nothing" from being said.
    #expect(run.exitCode == 65)
    #expect(run.standardError.contains("lists no file of Ditto"), "\(run.standardError)")
    #expect(run.standardError.contains("warning: \(shown(root))/locked is an encrypted backup"))
    #expect(run.standardError.contains("1 other backups could not be read and may hold Ditto data"))
  }

  @Test func aMissingStoreFileIsNotNothingOnDisk() throws {
    let folder = try TemporaryDirectory("backup-missing")
    let builder = try BackupBuilder(root: folder.appending("udid"))
    try builder.writeStandardPlists(date: Self.older)
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "Ditto.sqlite",
      contents: Array(repeating: 1, count: 10),
      storesContents: false)
    try builder.writeManifest()
    let library = try makeLibrary(folder.appending("library.store"))
    let run = ToolRunner.run([
      "backup", "recover", builder.root, "--out", folder.appending("out"), "--library", library,
      "--json",
    ])
    #expect(run.exitCode == 65)
    #expect(run.standardError.contains("could not read the Ditto store of"))
    #expect(run.outcomeLines.isEmpty, "\(run.standardError)")
  }

  @Test func nothingIsEverWrittenInsideTheBackup() throws {
    let folder = try TemporaryDirectory("backup-inside")
    let root = folder.appending("Backup")
    try DittoBackupFixture.build(at: root + "/udid", date: Self.older)
    let before = try FileHashes(of: root)
    for arguments in [
      ["--out", root + "/udid/out"], ["--out", root + "/new"],
      ["--out", folder.appending("ok"), "--library", root + "/udid/lib.sqlite"],
      ["--out", root + "/udid/../udid/x"],
    ] {
      let run = ToolRunner.run(["backup", "recover", root] + arguments)
      #expect(run.exitCode == 64, "\(arguments)")
      #expect(run.standardError.contains("must not be inside the backup folder"))
    }
    #expect(try FileHashes(of: root) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["udid"])
  }

  @Test func missingAndNonBackupFolders() throws {
    let folder = try TemporaryDirectory("backup-none")
    let missing = ToolRunner.run(["backup", "list", folder.appending("nope"), "--json"])
    #expect(missing.exitCode == 66)
    #expect(
      missing.json?["error"] as? String == shown(folder.appending("nope"))
        + ": no such file or folder")
    let empty = ToolRunner.run(["backup", "recover", folder.path])
    #expect(empty.exitCode == 66)
    #expect(empty.standardError.contains("not an iPhone backup folder"))
  }

  @Test func helpAndUsage() {
    let group = ToolRunner.run(["backup", "--help"])
    #expect(group.exitCode == 0)
    #expect(
      group.standardOutput.hasSuffix(
        """
        USAGE: ditto-recover backup <subcommand>

        OPTIONS:
          -h, --help            Show help information.

        SUBCOMMANDS:
          list                  Show each backup's device, date, iOS version and the Ditto files it holds.
          recover               Rebuild Ditto's files from a backup and recover the old dittos from them.
          extract               Write everything recoverable in a backup into one recovery file.

          See 'ditto-recover help backup <subcommand>' for detailed help.

        """))
    #expect(ToolRunner.run(["backup"]).standardOutput == group.standardOutput)
    #expect(ToolRunner.run(["help", "backup"]).standardOutput == group.standardOutput)

    let list = ToolRunner.run(["backup", "list", "--help"])
    #expect(list.exitCode == 0)
    #expect(
      list.standardOutput.contains(
        """
        USAGE: ditto-recover backup list <backup> [--password-file <file>] [--json] [--verbose]

        ARGUMENTS:
          <backup>              A backup folder (…/MobileSync/Backup/<id>) or the folder holding several.

        OPTIONS:
          --password-file <file>
                                A file holding the password of an encrypted backup (its first line).
          --json                Print one JSON object on standard output.
          --verbose             Show info-level log lines and error causes.
          -h, --help            Show help information.

        """))
    #expect(ToolRunner.run(["help", "backup", "list"]).standardOutput == list.standardOutput)
    let recover = ToolRunner.run(["backup", "recover", "-h"])
    #expect(
      recover.standardOutput.contains(
        "USAGE: ditto-recover backup recover <backup> [--library <file>] [--out <dir>] [--password-file <file>] [--json] [--verbose]"
      ))

    let unknown = ToolRunner.run(["backup", "frobnicate"])
    #expect(unknown.exitCode == 64)
    #expect(
      unknown.standardError == """
        Error: Unknown subcommand 'frobnicate'
        Usage: ditto-recover backup <subcommand>
          See 'ditto-recover backup --help' for more information.

        """)
    let missing = ToolRunner.run(["backup", "list"])
    #expect(missing.exitCode == 64)
    #expect(
      missing.standardError == """
        Error: Missing expected argument '<backup>'
        Usage: ditto-recover backup list <backup> [--password-file <file>] [--json] [--verbose]
          See 'ditto-recover backup list --help' for more information.

        """)
    #expect(ToolRunner.run(["backup", "recover", "x", "--password", "p"]).exitCode == 64)
    #expect(ToolRunner.run(["help", "backup", "nope"]).exitCode == 64)
  }

  @Test func anEncryptedBackupOpensWithThePasswordFromAFile() throws {
    let folder = try TemporaryDirectory("backup-password")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(
      at: backup, date: Self.older, encryption: BackupEncryption(password: "s3cret pass"))
    let before = try FileHashes(of: backup)
    let passwordFile = folder.appending("password.txt")
    try Data("s3cret pass\n".utf8).write(to: URL(fileURLWithPath: passwordFile))

    let list = ToolRunner.run(["backup", "list", backup, "--password-file", passwordFile, "--json"])
    #expect(list.exitCode == 0, "\(list.standardError)")
    let listed = try #require((list.json?["backups"] as? [[String: Any]])?.first)
    #expect(listed["encrypted"] as? Bool == true)
    #expect(listed["decrypted"] as? Bool == true)
    #expect((listed["dittoFiles"] as? [Any])?.count == 6)
    #expect(list.standardError.contains("unlocking \(shown(backup)) with the password"))

    let out = folder.appending("out")
    let run = ToolRunner.run([
      "backup", "recover", backup, "--password-file", passwordFile, "--out", out, "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.json?["inserted"] as? Int == DittoBackupFixture.expectedDittos)
    #expect((run.json?["backup"] as? [String: Any])?["decrypted"] as? Bool == true)
    let csv = ToolRunner.run([
      "export", "--library", out + "/AppDomainGroup-group.io.kern.ditto/Ditto.store", "--format",
      "csv",
    ])
    #expect(csv.standardOutput.contains("Work 💼,w1\r\n"))
    #expect(try FileHashes(of: backup) == before)
    #expect(!run.standardError.contains("s3cret"))
    #expect(!run.standardOutput.contains("s3cret"))
  }

  /// An encrypted backup given without a password is listed (exit 0) with the steps that open
  /// it, each pasting and running as printed: a password file typed without showing it (0600),
  /// then the list again, which decrypts it and finds the stored sizes as encryption pads them.
  @Test func anEncryptedBackupIsListedWithTheStepsThatOpenIt() throws {
    let folder = try TemporaryDirectory("backup-encrypted-list")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(
      at: backup, date: Self.older, encryption: BackupEncryption(password: "s3cret pass"))
    let before = try FileHashes(of: backup)

    let list = ToolRunner.run(["backup", "list", backup])
    #expect(list.exitCode == 0, "\(list.standardError)")
    #expect(!list.standardError.contains("Error:"))
    #expect(list.standardOutput.contains("encrypted"))
    let next = list.standardError.split(separator: "\n").filter { $0.hasPrefix("next: ") }
      .map { String($0.dropFirst("next: ".count)) }
    try #require(next.count == 2, "\(list.standardError)")
    #expect(
      list.standardError.contains("note: 1 backup is encrypted and listed without their files"))
    let json = ToolRunner.run(["backup", "list", backup, "--json"])
    #expect(json.exitCode == 0)
    #expect((json.json?["next"] as? [String])?.count == 2)
    #expect((json.json?["notes"] as? [String])?.count == 2)

    // The first step as a user pastes it, typing the password (here on standard input).
    let made = try ToolRun.shell(
      "printf 's3cret pass\\n' | {\n\(next[0])\n}", in: folder.path)
    #expect(made.exitCode == 0, "\(made.standardError)")
    let passwordFile = folder.appending("password.txt")
    #expect(try String(contentsOfFile: passwordFile, encoding: .utf8) == "s3cret pass\n")
    var info = stat()
    #expect(lstat(passwordFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
    // Pasted again, it never replaces the file.
    let again = try ToolRun.shell("printf 'other\\n' | {\n\(next[0])\n}", in: folder.path)
    #expect(again.exitCode != 0)
    #expect(try String(contentsOfFile: passwordFile, encoding: .utf8) == "s3cret pass\n")

    let unlocked = try ToolRun.pasted(next[1], in: folder.path)
    #expect(unlocked.exitCode == 0, "\(unlocked.standardError)")
    #expect(unlocked.standardOutput.contains("encrypted, unlocked"))
    // Encryption pads every stored file to a multiple of 16 bytes: not a problem.
    #expect(!unlocked.standardOutput.contains("problem:"), "\(unlocked.standardOutput)")
    #expect(try FileHashes(of: backup) == before)
  }

  /// A password file as people save it: with a UTF-8 byte-order mark and CRLF, or as UTF-16
  /// (Notepad's "Unicode"), or without a final line break.
  static let passwordFiles: [[UInt8]] = {
    let utf16LE: [UInt8] = Array("pässword\r\n".utf16).flatMap { unit -> [UInt8] in
      [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    let utf16BE: [UInt8] = Array("pässword\n".utf16).flatMap { unit -> [UInt8] in
      [UInt8(unit >> 8), UInt8(unit & 0xFF)]
    }
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    return [
      bom + Array("pässword\r\n".utf8), [0xFF, 0xFE] + utf16LE, [0xFE, 0xFF] + utf16BE,
      Array("pässword".utf8),
    ]
  }()

  @Test(arguments: passwordFiles)
  func aPasswordFileWithAByteOrderMarkOrALineBreakOpensTheBackup(bytes: [UInt8]) throws {
    let folder = try TemporaryDirectory("backup-password-bom")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(
      at: backup, date: Self.older, encryption: BackupEncryption(password: "pässword"))
    let passwordFile = folder.appending("password.txt")
    try Data(bytes).write(to: URL(fileURLWithPath: passwordFile))
    let out = folder.appending("out.dittorecovery")
    let run = ToolRunner.run([
      "backup", "extract", backup, "--password-file", passwordFile, "--out", out, "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.json?["dittos"] as? Int == DittoBackupFixture.expectedDittos)
  }

  /// With several backups, a newer one that cannot be read makes "the newest holding a Ditto
  /// store" uncertain, and the list and the recovery say so.
  @Test func aNewerUnreadableBackupMakesTheChoiceUncertainAndItIsSaid() throws {
    let folder = try TemporaryDirectory("backup-uncertain")
    let backups = folder.appending("Backup")
    try DittoBackupFixture.build(at: backups + "/plain", date: Self.older)
    try DittoBackupFixture.build(
      at: backups + "/locked", date: Self.newer, encryption: BackupEncryption(password: "x"))
    let list = ToolRunner.run(["backup", "list", backups, "--json"])
    #expect(list.exitCode == 0, "\(list.standardError)")
    #expect(list.json?["newestWithDittoStore"] as? String == shown(backups + "/plain"))
    #expect(list.json?["newestDependsOn"] as? [String] == [shown(backups + "/locked")])
    let text = ToolRunner.run(["backup", "list", backups])
    #expect(
      text.standardOutput.contains(
        "  not certain: 1 newer or undated backup could not be read (\(shown(backups + "/locked"))), and may hold a newer one"
      ))
    #expect(
      (list.json?["next"] as? [String])?.contains {
        $0.contains("backup extract") && $0.contains("plain")
      } == true)
    // Never a silent second-best: recover and extract stop, write nothing, and print both ways
    // on (the password steps; the older backup named on purpose).
    let out = folder.appending("r.dittorecovery")
    for command in [["extract", "--out", out], ["recover", "--out", folder.appending("rebuilt")]] {
      let run = try ToolRunner.runProcess(
        ["backup", command[0], backups] + command.dropFirst() + ["--json"])
      #expect(run.exitCode == 65, "\(command): \(run.standardError)")
      #expect(run.json?["newestDependsOn"] as? [String] == [shown(backups + "/locked")])
      let next = run.json?["next"] as? [String] ?? []
      #expect(next.contains { $0.contains("--password-file password.txt") }, "\(next)")
      #expect(next.contains { $0.contains(shown(backups + "/plain")) }, "\(next)")
      #expect(run.standardError.contains("1 newer or undated backup could not be read"))
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(!FileManager.default.fileExists(atPath: folder.appending("rebuilt")))
    let onPurpose = try ToolRunner.runProcess([
      "backup", "extract", backups + "/plain", "--out", out,
    ])
    #expect(onPurpose.exitCode == 0, "\(onPurpose.standardError)")
    #expect(FileManager.default.fileExists(atPath: out))
  }

  @Test func aWrongPasswordIsSaidToBeWrong() throws {
    let folder = try TemporaryDirectory("backup-wrong")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(
      at: backup, date: Self.older, encryption: BackupEncryption(password: "right"))
    let passwordFile = folder.appending("password.txt")
    try Data("wrong".utf8).write(to: URL(fileURLWithPath: passwordFile))
    let out = folder.appending("out")
    let run = ToolRunner.run([
      "backup", "recover", backup, "--password-file", passwordFile, "--out", out, "--json",
    ])
    #expect(run.exitCode == 65)
    #expect(
      run.json?["error"] as? String
        == "\(shown(backup)): wrong password: it does not unlock this backup's keys")
    #expect(!FileManager.default.fileExists(atPath: out))
    // The way on: asked again (into a file nothing has yet), then the same command with it.
    let next = run.json?["next"] as? [String] ?? []
    #expect(next.contains { $0.hasPrefix("(umask 077; set -C; exec 3> password") }, "\(next)")
    #expect(next.contains { $0.contains("backup recover") && $0.contains("--password-file") })

    let missing = ToolRunner.run([
      "backup", "list", backup, "--password-file", folder.appending("nope"),
    ])
    #expect(missing.exitCode == 66)
    try Data("\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
    let empty = ToolRunner.run(["backup", "list", backup, "--password-file", passwordFile])
    #expect(empty.exitCode == 64)
    #expect(
      empty.standardError.hasPrefix(
        "Error: '--password-file <file>' \(shown(passwordFile)) holds no password\n"))
  }

  @Test
  func twoCommandsFromBackupToCSV() throws {
    let folder = try TemporaryDirectory("backup-e2e")
    let backup = folder.appending("udid")
    try DittoBackupFixture.build(at: backup, date: Self.older)
    let before = try FileHashes(of: backup)
    let out = folder.appending("recovered")
    let recovered = try ToolRunner.runProcess(["backup", "recover", backup, "--out", out])
    #expect(recovered.exitCode == 0, "\(recovered.standardError)")
    let exported = try ToolRunner.runProcess([
      "export", "--library", out + "/AppDomainGroup-group.io.kern.ditto/Ditto.store", "--format",
      "csv",
    ])
    #expect(exported.exitCode == 0)
    #expect(exported.standardOutput.hasPrefix("Category,Ditto\r\n"))
    #expect(exported.standardOutput.contains("Family,f3\r\n"))
    #expect(try FileHashes(of: backup) == before)
  }
}
