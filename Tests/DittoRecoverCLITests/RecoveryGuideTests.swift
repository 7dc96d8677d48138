import Foundation
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

    let tool = try #require(ToolRunner.executablePath)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-e", "-u", "-o", "pipefail", "-c", blocks.joined(separator: "\n")]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["TMPDIR"] = home.temporary
    environment["PATH"] =
      (tool as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
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
    #expect(process.terminationStatus == 0, "\(logged)")
    #expect(printed.contains("will be imported"))
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
}
