import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// A Mac's file-system layout, here on Linux: `TMPDIR` is `/var/folders/…/T/` and `/var` and `/tmp`
/// are links to `/private/…`. Our own snapshot folders and the folders a user types are resolved;
/// what is found inside a container is still never followed. (`scripts/test` also reruns the
/// whole suite in this layout: `scripts/mac-layout`.)
@Suite
struct MacLayoutTests {
  /// `<base>/private/var/folders/T` reached as `<base>/var/folders/T` (a link), like a Mac's TMPDIR.
  struct Layout {
    let base: TemporaryDirectory
    /// The real folder.
    var privateTemporary: String { base.appending("private/var/folders/T") }
    /// The same folder through the link.
    var linkedTemporary: String { base.appending("var/folders/T") }

    init() throws {
      base = try TemporaryDirectory("mac-layout")
      try FileManager.default.createDirectory(
        atPath: base.appending("private/var/folders/T"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: base.appending("var"), withDestinationPath: base.appending("private/var"))
    }

    /// The environment of a run whose TMPDIR is the linked folder (or the real one).
    func environment(linked: Bool) -> [String: String] {
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = (linked ? linkedTemporary : privateTemporary) + "/"
      return environment
    }
  }

  /// The commands that read or write stores give the same answers with TMPDIR behind a link as
  /// without (before the fix: `found_unreadable` three times, then the flag set for good).
  @Test func everyStoreReadWorksWithTMPDIRBehindALink() throws {
    let layout = try Layout()
    var answers: [Bool: [String]] = [:]
    for linked in [false, true] {
      let folder = try TemporaryDirectory("mac-tmpdir")
      let container = folder.appending("device")
      try FixtureScenario.intact2x.build(at: container, parameters: .init(seed: 4))
      let legacy = ["Ditto.sqlite", "Ditto.sqlite-wal", "Ditto.sqlite-shm"].map {
        container + "/" + $0
      }
      let before = try legacy.map(Self.bytes)
      let environment = layout.environment(linked: linked)
      func run(_ arguments: [String]) throws -> ToolRun {
        try ToolRunner.runProcess(arguments, environment: environment)
      }
      let migrate = try run(["migrate", "--container", container, "--json"])
      #expect(migrate.exitCode == 0, "\(migrate.standardError)")
      #expect(migrate.json?["outcome"] as? String == "success", "linked: \(linked)")
      let inspect = try run(["inspect", container + "/Ditto.sqlite", "--json"])
      #expect(inspect.exitCode == 0, "\(inspect.standardError)")
      let export = try run(["export", "--legacy", container + "/Ditto.sqlite", "--format", "csv"])
      #expect(export.exitCode == 0, "\(export.standardError)")
      let preview = try run(["recover", "--container", container, "--dry-run", "--json"])
      #expect(preview.exitCode == 0, "\(preview.standardError)")
      #expect(preview.json?["outcome"] as? String == "no_new_data")
      #expect(preview.json?["salvaged"] == nil, "no fallback to salvage")
      let library = try run(["export", "--library", container + "/Ditto.store", "--format", "csv"])
      answers[linked] = [
        "\(migrate.json?["inserted"] ?? "")", try Self.canonical(inspect.json?["entities"]),
        export.standardOutput, "\(preview.json?["skipped"] ?? "")", library.standardOutput,
      ]
      #expect(try legacy.map(Self.bytes) == before, "every legacy file byte-identical")
    }
    #expect(answers[true] == answers[false])
    // Nothing of ours is left in the linked folder, which every snapshot went through.
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.privateTemporary).isEmpty)
  }

  /// The bytes of `path`, nil when it does not exist.
  static func bytes(_ path: String) throws -> Data? {
    FileManager.default.fileExists(atPath: path)
      ? try Data(contentsOf: URL(fileURLWithPath: path)) : nil
  }

  /// A JSON value as text with sorted keys (dictionaries print in no fixed order).
  static func canonical(_ value: Any?) throws -> String {
    let value = try #require(value)
    return String(
      decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// A container reached through a linked parent, and one that is itself a link, are the user's
  /// choice: followed, and reported by their resolved path.
  @Test func typedPathsThroughLinksAreFollowedAndReportedResolved() throws {
    let layout = try Layout()
    let real = layout.privateTemporary + "/Desktop/group.io.kern.ditto"
    try FixtureScenario.intact2x.build(at: real, parameters: .init(seed: 5))
    let throughParent = layout.linkedTemporary + "/Desktop/group.io.kern.ditto"
    let link = layout.base.appending("container-link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: throughParent)

    let status = try ToolRunner.runProcess(["status", "--container", link, "--json"])
    #expect(status.exitCode == 0, "\(status.standardError)")
    let library = try #require(status.json?["library"] as? [String: Any])
    #expect(library["path"] as? String == UserPath.resolved(real) + "/Ditto.store")
    #expect(status.json?["chosen"] as? String == "Ditto.sqlite")

    let migrate = try ToolRunner.runProcess(["migrate", "--container", throughParent, "--json"])
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.json?["outcome"] as? String == "success")
    #expect(migrate.json?["library"] as? String == UserPath.resolved(real) + "/Ditto.store")
    let again = try ToolRunner.runProcess(["recover", "--container", link, "--json"])
    #expect(again.json?["outcome"] as? String == "no_new_data")
  }

  /// A `Ditto.sqlite` inside a container that is a link to a real store elsewhere is not followed:
  /// nothing is read through it.
  @Test func aLinkToAStoreInsideAContainerIsStillNotFollowed() throws {
    let folder = try TemporaryDirectory("mac-inner-link")
    let elsewhere = folder.appending("elsewhere")
    try FixtureScenario.intact2x.build(at: elsewhere, parameters: .init(seed: 6))
    let container = folder.appending("device")
    try FixtureScenario.freshInstall.build(at: container, parameters: .init(library: .empty))
    try FileManager.default.createSymbolicLink(
      atPath: container + "/Ditto.sqlite", withDestinationPath: elsewhere + "/Ditto.sqlite")
    let before = try FileHashes(of: elsewhere)

    let recover = try ToolRunner.runProcess(["recover", "--container", container, "--json"])
    #expect(recover.json?["inserted"] as? Int == 0)
    #expect(recover.json?["dittos"] as? Int == 0)
    let status = try ToolRunner.runProcess(["status", "--container", container, "--json"])
    let skipped = try #require(status.json?["skipped"] as? [[String: Any]])
    #expect(
      skipped.contains {
        $0["path"] as? String == "Ditto.sqlite"
          && ($0["reason"] as? String)?.contains("link") == true
      })
    #expect(try FileHashes(of: elsewhere).preserves(before))
  }

  /// The engine's private folders are made with their links resolved, before anything is opened.
  @Test func privateFoldersAreResolvedWhenMade() throws {
    let layout = try Layout()
    let made = try PrivateDirectory(prefix: "ditto-resolved-", in: layout.linkedTemporary)
    #expect(made.path.hasPrefix(UserPath.resolved(layout.privateTemporary) + "/ditto-resolved-"))
    #expect(!made.path.contains("/var/folders/T/") || made.path.contains("/private/var/folders/T/"))
    #expect(made.remove())
    let kept = try PrivateDirectory(
      prefix: "ditto-kept-", in: layout.linkedTemporary, resolvingLinks: false)
    #expect(kept.path.hasPrefix(layout.linkedTemporary + "/ditto-kept-"))
    #expect(kept.remove())
  }
}
