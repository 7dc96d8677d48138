import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Every argument whose name is not valid UTF-8 reaches the tool through a stand-in of this run
/// (a link, a copy, a second name of a library's files). Whatever names it, a sentence, an error,
/// a warning, a table, a JSON string or a command to paste, names it as typed: over a family of
/// names and every command that takes a path, in text, in `--json` and with `--verbose`, nothing
/// the tool prints holds this run's private folders. Paths are shown where they are rendered
/// (`ArgumentSpelling.shown(path:)`), so one that is not would print a private path here.
@Suite struct StandInNeverShownFamilyTests {
  /// The words of each command; `C`, `F`, `L`, … stand for the inputs below.
  static let commands: [[String]] = [
    ["status", "--container", "C"], ["migrate", "--container", "G"],
    ["recover", "--dry-run", "--container", "C"], ["recover", "--dry-run", "--container", "G"],
    ["status", "--container", "G"], ["status", "--container", "F"],
    ["inventory", "--container", "C"],
    ["extract", "--container", "G"], ["export", "--legacy", "F"], ["export", "--legacy", "J"],
    ["export", "--legacy", "G/Ditto.sqlite", "--format", "csv"], ["export", "--library", "L"],
    ["salvage", "F"], ["salvage", "J"], ["salvage", "M"], ["inspect", "F"], ["inspect", "J"],
    ["status", "--from", "F"], ["status", "--from", "J"], ["status", "--from", "M"],
    ["outcomes", "O"], ["backup", "list", "B"], ["backup", "list", "C"],
    ["backup", "recover", "C"],
    ["status", "--container", "M"], ["recover", "--file", "J", "--library", "L"],
    ["import", "--library", "L", "--csv", "X"], ["recover", "--container", "C", "--library", "L"],
    ["extract", "--container", "C", "--out", "R"], ["extract", "--container", "C", "--out", "R"],
    ["status", "--from", "R"], ["backup", "recover", "B", "--out", "D"],
    ["backup", "extract", "B", "--out", "E"],
    // A folder where a file is expected.
    ["import", "--library", "L", "--csv", "O"], ["export", "--library", "O"],
    ["salvage", "O"], ["status", "--from", "O"],
  ]

  @Test(arguments: 0..<2) func noPrivatePathIsEverPrinted(member: Int) throws {
    let folder = try TemporaryDirectory("stand-in-never-shown")
    var generator = SeededGenerator(seed: FamilySeed.base(0x57A1) &+ UInt64(member))
    let spec = FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 7)
    // The inputs under UTF-8 names first, then given names that are not.
    let intact = try ContainerBuilder(root: folder.appending("c"))
    try intact.writeStore(spec)
    _ = try LibraryFixtures.copy(.empty, toFolder: intact.root)
    let garbage = try ContainerBuilder(root: folder.appending("g"))
    try garbage.writeGarbage(count: 8192, seed: 3, at: "Ditto.sqlite")
    try garbage.writeBytes(
      Array("SQLite format 3\0".utf8) + [UInt8](repeating: 7, count: 600), at: "x")
    try DittoBackupFixture.build(
      at: folder.appending("b"), date: Date(timeIntervalSince1970: 1.7e9))
    let logs = folder.appending("o")
    try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: false)
    try "migration_outcome source=auto outcome=bogus\n".write(
      toFile: logs + "/a.log", atomically: false, encoding: .utf8)
    var words: [String: String] = [:]
    var taken: Set<[UInt8]> = []
    for (key, made, ext) in [
      // The copies first: the folders they come from are then given their own new names.
      ("F", "c/Ditto.sqlite", ".sqlite"), ("J", "g/x", ".sqlite"), ("L", "c/Ditto.store", ".store"),
      ("C", "c", ""), ("G", "g", ""), ("B", "b", ""), ("O", "o", ""), ("X", nil, ".csv"),
      ("M", nil, ".sqlite"), ("R", nil, ".dittorecovery"), ("D", nil, ""),
      ("E", nil, ".dittorecovery"),
    ] as [(String, String?, String)] {
      var name = NonUTF8NameFamilyTests.name(using: &generator, extension: ext)
      while taken.contains(name) { name += [0xFF] }
      taken.insert(name)
      // Typed as a bare name by one member, as an absolute path by the other.
      let word = NonUTF8NameFamilyTests.shellWord(
        member == 0 ? name : Array(folder.path.utf8) + [UInt8(ascii: "/")] + name)
      words[key] = word
      if let made {
        // A copy for a file (the container keeps its own), the folder itself moved.
        let verb = made.contains("/") ? "cp" : "mv"
        let run = try ToolRun.shell("\(verb) \(made) \(word)", in: folder.path)
        try #require(run.exitCode == 0, "\(run.standardError)")
      } else if key == "X" {
        let run = try ToolRun.shell(
          "printf 'Category,Ditto\\r\\nA,b\\r\\n' > \(word)", in: folder.path)
        try #require(run.exitCode == 0, "\(run.standardError)")
      }
    }
    for command in Self.commands {
      for mode in ["", "--json ", "--verbose "] {
        let line =
          "ditto-recover \(mode)"
          + command.map { words[$0] ?? shellQuoted($0) }.joined(separator: " ")
        let run = try ToolRun.pasted(line, in: folder.path)
        let printed = run.standardOutput + run.standardError
        // This run's stand-ins, a library's second names, a file or folder being built, a
        // backup's files rebuilt in private (gone when the run ends).
        for privatePath in [
          "ditto-recover-args-", "/.ditto-new-", "/.ditto-recovery-", "/ditto-extract-",
          "/ditto-list-",
        ] {
          #expect(
            !printed.contains(privatePath),
            "member \(member): \(mode)\(command.joined(separator: " ")) prints \(privatePath): \(printed)"
          )
        }
        #expect(
          !printed.contains("\u{FFFD}"),
          "member \(member): \(mode)\(command.joined(separator: " ")): a replacement character")
        #expect(run.exitCode < 128, "member \(member): \(command): \(run.standardError)")
      }
    }
  }
}
