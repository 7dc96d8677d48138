import DittoRecoverCLI
import EngineTestSupport
import Foundation
import LogArchiveFixtures
import StoreFixtures
import TestSupport
import Testing

/// Every `sh` block of docs/RECOVERING_LOST_DITTOS.md runs as written, in order, against a home folder
/// laid out the way the guide assumes (a copied container, a backup folder, tester logs).
@Suite
struct RecoveryGuideTests {
  static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/RECOVERING_LOST_DITTOS.md").path

  /// The contents of the guide's ```sh blocks, in order.
  static func shellBlocks() throws -> [String] {
    let text = try String(contentsOfFile: guide, encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```sh" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// A home folder and a temporary folder reached through symbolic links, as a Mac's `/tmp` and
  /// `/var/folders/…` are (links to `/private/…`): the guide's Mac steps run there.
  struct MacHome {
    let base: TemporaryDirectory
    /// `$HOME`, through the link.
    let path: String
    /// `$TMPDIR`, through the link.
    let temporary: String

    init() throws {
      base = try TemporaryDirectory("guide-mac")
      for folder in ["private/Users/sam", "private/var/folders/T"] {
        try FileManager.default.createDirectory(
          atPath: base.appending(folder), withIntermediateDirectories: true)
      }
      try FileManager.default.createSymbolicLink(
        atPath: base.appending("Users"), withDestinationPath: base.appending("private/Users"))
      try FileManager.default.createSymbolicLink(
        atPath: base.appending("var"), withDestinationPath: base.appending("private/var"))
      path = base.appending("Users/sam")
      temporary = base.appending("var/folders/T") + "/"
    }

    func appending(_ relative: String) -> String { path + "/" + relative }
  }

  /// A `curl -LO URL` that "downloads" a file of the release page: the Linux archive or the Mac zip,
  /// its top folder named as the guide expects, holding the files of the release archive.
  static let curlShim = #"""
    #!/bin/bash
    set -euo pipefail
    url="${@: -1}"
    name="${url##*/}"
    files="$DITTO_GUIDE_DOWNLOADS"
    case "$name" in
      *.tar.gz)
        top="${name%.tar.gz}"
        scratch=$(mktemp -d)
        mkdir "$scratch/$top"
        cp "$files"/* "$scratch/$top/"
        tar czf "$name" -C "$scratch" "$top"
        rm -rf "$scratch"
        ;;
      *.zip) (cd "$files" && zip -q - ./*) >"$name" ;;
      *) echo "curl (test): no such download: $url" >&2; exit 22 ;;
    esac
    """#

  /// The files of the release archive: DITTO_RELEASE_ARCHIVE unpacked, or this build's binary with
  /// the README and the guide.
  static func releaseFiles(_ base: TemporaryDirectory) throws -> String {
    let folder = base.appending("release-files")
    if let archive = ProcessInfo.processInfo.environment["DITTO_RELEASE_ARCHIVE"] {
      let unpacked = base.appending("release-unpacked")
      try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
      let untar = try ToolRun.shell(
        "tar xzf \(shellQuoted(archive)) -C \(shellQuoted(unpacked))", in: base.path)
      #expect(untar.exitCode == 0, "\(untar.standardError)")
      let top = try #require(try FileManager.default.contentsOfDirectory(atPath: unpacked).first)
      try FileManager.default.moveItem(atPath: unpacked + "/" + top, toPath: folder)
      return folder
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let repository = URL(fileURLWithPath: guide).deletingLastPathComponent()
      .deletingLastPathComponent().path
    try FileManager.default.copyItem(
      atPath: try #require(ToolRunner.executablePath), toPath: folder + "/ditto-recover")
    try FileManager.default.copyItem(
      atPath: repository + "/README.md", toPath: folder + "/README.md")
    try FileManager.default.copyItem(atPath: guide, toPath: folder + "/RECOVERING_LOST_DITTOS.md")
    return folder
  }

  @Test func everyCommandInTheGuideWorksAsWritten() throws {
    let blocks = try Self.shellBlocks()
    #expect(blocks.count >= 3)
    let home = try MacHome()
    try FixtureScenario.user578kb.build(
      at: home.appending("Desktop/group.io.kern.ditto"), parameters: .init(seed: 3))
    try DittoBackupFixture.build(
      at: home.appending("Library/Application Support/MobileSync/Backup/00008030-001D35093EF2402E"),
      date: Date(timeIntervalSince1970: 1_700_000_000))
    try FileManager.default.createDirectory(
      atPath: home.appending("Desktop/tester-logs"), withIntermediateDirectories: true)
    let line =
      "2025-03-14 09:12:03.512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27\n"
    try Data(line.utf8).write(to: URL(fileURLWithPath: home.appending("Desktop/tester-logs/a.log")))
    // A tester's sysdiagnose in Downloads, as the "Without a Mac" steps expect.
    try FileManager.default.createDirectory(
      atPath: home.appending("Downloads"), withIntermediateDirectories: true)
    let sysdiagnose = LogArchiveWriter().sysdiagnose([
      .init(
        offsetNanoseconds: 5_000_000_000,
        message: "migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27")
    ])
    try Data(sysdiagnose).write(
      to: URL(
        fileURLWithPath: home.appending(
          "Downloads/sysdiagnose_2026.11.30_10-15-42-0800_iPhone-OS_iPhone_22B83.tar.gz")))

    // The user steps download ditto-recover: `curl` here serves what the release page holds, made
    // from the release archive (DITTO_RELEASE_ARCHIVE, as scripts/release-test sets it) or else from
    // this build; `ditto-recover` is on PATH only once the guide's own steps have installed it.
    let downloads = try Self.releaseFiles(home.base)
    let shims = home.base.appending("shims")
    try FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
    try Self.curlShim.write(toFile: shims + "/curl", atomically: true, encoding: .utf8)
    chmod(shims + "/curl", 0o755)
    let (status, printed, logged) = try Self.runShell(
      blocks.joined(separator: "\n"), home: home, downloads: downloads, shims: shims)
    #expect(status == 0, "\(logged)")
    #expect(printed.contains(Tool.version + "\n"), "the installed ditto-recover did not run")
    #expect(printed.contains("will be imported"))
    #expect(
      printed.contains(
        "Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=success"),
      "the sysdiagnose was not read")
    // The recovery file, named after the backup's date, and what `status --from` says of it.
    #expect(
      FileManager.default.fileExists(
        atPath: home.appending("Desktop/Ditto-recovered-2023-11-14.dittorecovery")))
    #expect(printed.contains("holds 4 categories, 9 dittos"))
    for csv in ["Desktop/dittos.csv", "Desktop/dittos-from-backup.csv"] {
      let text = try String(contentsOfFile: home.appending(csv), encoding: .utf8)
      #expect(text.hasPrefix("Category,Ditto\r\n"), "\(csv)")
      #expect(text.split(separator: "\r\n").count > 2, "\(csv)")
    }
  }

  /// Runs `script` with bash (`-e -u -o pipefail`) in the Mac-like `home`, with `curl` served from
  /// `downloads` and no ditto-recover on PATH but what the script installs.
  static func runShell(_ script: String, home: MacHome, downloads: String, shims: String) throws
    -> (status: Int32, printed: String, logged: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-e", "-u", "-o", "pipefail", "-c", script]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["TMPDIR"] = home.temporary
    environment["DITTO_GUIDE_DOWNLOADS"] = downloads
    let systemPath = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").filter {
      !FileManager.default.isExecutableFile(atPath: $0 + "/ditto-recover")
    }
    environment["PATH"] = ([shims] + systemPath.map(String.init)).joined(separator: ":")
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let errors = ErrorCollector(handle: error.fileHandleForReading)
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let logged = String(decoding: errors.wait(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, printed, logged)
  }

  /// The Mac user steps again and again, as a user would: with several recovery files on the
  /// Desktop, a newer backup and an even newer encrypted one beside the first, the steps still
  /// work as printed: the list succeeds and says how to open the encrypted backup; the extract
  /// never quietly takes the older backup: it stops, writes nothing and prints the password steps
  /// and the command that takes the older backup on purpose; pasted, that command writes a file
  /// that never replaces another, and the check reads the newest file.
  @Test func theUserStepsWorkAgainWithSeveralRecoveryFilesAndAnEncryptedBackup() throws {
    let blocks = try Self.shellBlocks()
    let install = try #require(blocks.first { $0.contains("curl -LO") && $0.contains("macos") })
    let steps = try #require(blocks.first { $0.contains("backup extract") })
    let home = try MacHome()
    let backups = home.appending("Library/Application Support/MobileSync/Backup")
    try DittoBackupFixture.build(
      at: backups + "/00008030-001D35093EF2402E", date: Date(timeIntervalSince1970: 1_700_000_000))
    let downloads = try Self.releaseFiles(home.base)
    let shims = home.base.appending("shims")
    try FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
    try Self.curlShim.write(toFile: shims + "/curl", atomically: true, encoding: .utf8)
    chmod(shims + "/curl", 0o755)
    try FileManager.default.createDirectory(
      atPath: home.appending("Desktop"), withIntermediateDirectories: true)

    let first = try Self.runShell(
      install + "\n" + steps, home: home, downloads: downloads, shims: shims)
    #expect(first.status == 0, "\(first.logged)")
    try DittoBackupFixture.build(
      at: backups + "/00008030-NEWER", date: Date(timeIntervalSince1970: 1_710_000_000))
    try DittoBackupFixture.build(
      at: backups + "/00008030-ENCRYPTED", date: Date(timeIntervalSince1970: 1_720_000_000),
      encryption: BackupEncryption(password: "secret"))
    let second = try Self.runShell(
      install + "\n" + steps, home: home, downloads: downloads, shims: shims)
    #expect(second.status == 65, "\(second.logged)")
    #expect(second.logged.contains("1 backup is encrypted and listed without their files"))
    #expect(second.logged.contains("next: (umask 077; set -C;"))
    #expect(second.logged.contains("1 newer or undated backup could not be read"))
    #expect(second.printed.contains("not certain: 1 newer or undated backup could not be read"))
    let older = try #require(
      second.logged.split(separator: "\n").last {
        $0.hasPrefix("next: ditto-recover backup extract") && $0.contains("00008030-NEWER")
          && $0.contains("the older backup on purpose")
      })
    let pasted = "cd \"$HOME/Desktop\"\n" + older.dropFirst("next: ".count)
    let chosen = try Self.runShell(
      install + "\n" + pasted, home: home, downloads: downloads, shims: shims)
    #expect(chosen.status == 0, "\(pasted)\n\(chosen.logged)")
    let third = try Self.runShell(
      install + "\n" + pasted + "\n" + steps.split(separator: "\n").last.map(String.init)!,
      home: home, downloads: downloads, shims: shims)
    #expect(third.status == 0, "\(third.logged)")
    let desktop = try FileManager.default.contentsOfDirectory(atPath: home.appending("Desktop"))
      .filter { $0.hasSuffix(".dittorecovery") }.sorted()
    #expect(
      desktop == [
        "Ditto-recovered-2023-11-14.dittorecovery", "Ditto-recovered-2024-03-09-2.dittorecovery",
        "Ditto-recovered-2024-03-09.dittorecovery",
      ])
    // Each run's check read the file that run wrote (the newest).
    #expect(third.printed.contains("Ditto-recovered-2024-03-09-2.dittorecovery"))
    #expect(third.printed.contains("holds 4 categories, 9 dittos"))
  }
}
