import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

@Suite struct ExportImportCommandTests {
  /// The JSON `export` prints, parsed.
  func exported(_ arguments: [String]) throws -> [(
    title: String, dittos: [(text: String, useCount: Int64)]
  )] {
    let run = ToolRunner.run(["export"] + arguments)
    #expect(run.exitCode == 0, "\(run.standardError)")
    let folder = try TemporaryDirectory("export")
    let file = folder.appending("out.json")
    try Data(run.standardOutput.utf8).write(to: URL(fileURLWithPath: file))
    return try TestFixtures.expectedContent(at: file)
  }

  func same(
    _ a: [(title: String, dittos: [(text: String, useCount: Int64)])],
    _ b: [(title: String, dittos: [(text: String, useCount: Int64)])]
  ) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { x, y in
        x.title == y.title && x.dittos.map(\.text) == y.dittos.map(\.text)
          && x.dittos.map(\.useCount) == y.dittos.map(\.useCount)
      }
  }

  @Test(arguments: TestFixtures.dittoStores)
  func exportLegacyMatchesTheFixtureExpectedJSON(name: String) throws {
    let store = try TestFixtures.path("ditto-2x/\(name)/Ditto.sqlite")
    #expect(same(try exported(["--legacy", store]), try TestFixtures.expected(name)))
  }

  @Test(arguments: FixtureScenario.allCases)
  func fixturesReadBackToTheirExpectedJSON(scenario: FixtureScenario) throws {
    let folder = try TemporaryDirectory("fixture")
    let container = folder.appending("c")
    let made = ToolRunner.runFixture([
      "--out", container, "--scenario", scenario.rawValue, "--seed", "5",
    ])
    #expect(made.exitCode == 0, "\(made.standardError)")
    let expected = try TestFixtures.expectedContent(at: container + "/expected.json")
    try makeLibrary(folder.appending("lib.sqlite"))
    let recover = ToolRunner.run([
      "recover", "--container", container, "--library", folder.appending("lib.sqlite"),
    ])
    #expect(recover.exitCode == (scenario == .zeroByte || scenario == .garbage ? 65 : 0))
    #expect(same(try exported(["--library", folder.appending("lib.sqlite")]), expected))
  }

  @Test func fixturesAreDeterministicPerSeed() throws {
    let folder = try TemporaryDirectory("seed")
    for name in ["a", "b"] {
      _ = ToolRunner.runFixture([
        "--out", folder.appending(name), "--scenario", "intact-2x", "--seed", "42",
      ])
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: folder.appending("a/expected.json")))
    let b = try Data(contentsOf: URL(fileURLWithPath: folder.appending("b/expected.json")))
    #expect(a == b)
    _ = ToolRunner.runFixture([
      "--out", folder.appending("c"), "--scenario", "intact-2x", "--seed", "43",
    ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.appending("c/expected.json"))) != a)
    let again = ToolRunner.runFixture(["--out", folder.appending("a"), "--scenario", "garbage"])
    #expect(again.exitCode != 0)
  }

  @Test func csvRoundTripGivesTheSameBytes() throws {
    let folder = try TemporaryDirectory("csv")
    let container = folder.appending("c")
    _ = ToolRunner.runFixture([
      "--out", container, "--scenario", "intact-2x", "--categories", "6",
      "--dittos-per-category", "20", "--seed", "77",
    ])
    let first = ToolRunner.run([
      "export", "--legacy", container + "/Ditto.sqlite", "--format", "csv",
    ])
    #expect(first.standardOutput.hasPrefix("Category,Ditto\r\n"))
    let csv = folder.appending("first.csv")
    try Data(first.standardOutput.utf8).write(to: URL(fileURLWithPath: csv))
    try makeLibrary(folder.appending("lib.sqlite"))
    let imported = ToolRunner.run([
      "import", "--library", folder.appending("lib.sqlite"), "--csv", csv, "--json",
    ])
    #expect(imported.exitCode == 0, "\(imported.standardError)")
    #expect(imported.json?["inserted"] as? Int == 120)
    let second = ToolRunner.run([
      "export", "--library", folder.appending("lib.sqlite"), "--format", "csv",
    ])
    #expect(second.standardOutput == first.standardOutput)
  }

  @Test func csvImportAcceptsABOMAndLFAndReportsBadRows() throws {
    let folder = try TemporaryDirectory("csvin")
    let good = folder.appending("good.csv")
    try Data(
      ([0xEF, 0xBB, 0xBF] + Array("Category,Ditto\nWork,\"a, \"\"quoted\"\"\nline\"\nWork,b\n".utf8))
    ).write(to: URL(fileURLWithPath: good))
    try makeLibrary(folder.appending("lib.sqlite"))
    let run = ToolRunner.run([
      "import", "--library", folder.appending("lib.sqlite"), "--csv", good, "--json",
    ])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.json?["inserted"] as? Int == 2)
    let exported = try exported(["--library", folder.appending("lib.sqlite")])
    #expect(exported.first?.dittos.map(\.text) == ["a, \"quoted\"\nline", "b"])
    let bad = folder.appending("bad.csv")
    try Data("Category,Ditto\nWork,a,extra\n".utf8).write(to: URL(fileURLWithPath: bad))
    let failed = ToolRunner.run([
      "import", "--library", folder.appending("lib2.sqlite"), "--csv", bad,
    ])
    #expect(failed.exitCode == 65)
    #expect(failed.standardError.contains(shown(bad)))
    let noHeader = folder.appending("noheader.csv")
    try Data("Work,a\n".utf8).write(to: URL(fileURLWithPath: noHeader))
    #expect(
      ToolRunner.run(["import", "--library", folder.appending("lib3.sqlite"), "--csv", noHeader])
        .exitCode == 65)
  }

  @Test func inspectDescribesARealCoreDataStore() throws {
    let path = try TestFixtures.path(
      "real-coredata/PhotoScript/Test-PhotoScript-10.15.7-Single-Photo/Photos.sqlite")
    let run = ToolRunner.run(["inspect", path, "--json"])
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(json["journal"] as? String == "wal")
    #expect((json["storeUUID"] as? String)?.count == 36)
    let entities = try #require(json["entities"] as? [[String: Any]])
    #expect(
      entities.contains {
        $0["name"] as? String == "Asset" && $0["table"] as? String == "ZGENERICASSET"
          && $0["rows"] as? Int == 1
      })
    #expect(entities.allSatisfy { $0["ent"] is Int && $0["name"] is String })
    let ditto = ToolRunner.run([
      "inspect", try TestFixtures.path("ditto-2x/wal-only/Ditto.sqlite"), "--json",
    ])
    let rows = (ditto.json?["entities"] as? [[String: Any]])?.map {
      "\($0["name"] ?? "")=\($0["rows"] ?? "")"
    }
    #expect(rows == ["Category=5", "Ditto=10", "Profile=1"])
    let garbage = ToolRunner.run(["inspect", "/etc/hostname", "--json"])
    #expect(garbage.exitCode == 65)
    #expect(garbage.json?["error"] is String)
  }
}

/// Export → import into an empty library → export gives the same bytes, for generated content made of
/// every character CSV and JSON writers get wrong.
@Suite struct CSVRoundTripPropertyTests {
  static let pieces = [
    ",", "\"", "\"\"", "\r", "\n", "\r\n", " ", "\t", "\u{FEFF}", "🚗", "👨‍👩‍👧‍👦", "🇫🇷", "é", "日本", "a",
    "Category", "Ditto", "\\", "'", ";", "=1+1", "\u{2028}", "x",
  ]

  static func randomText(_ generator: inout SeededGenerator, index: Int) -> String {
    var text = ""
    for _ in 0..<(1 + Int(generator.next() % 8)) {
      text += pieces[Int(generator.next() % UInt64(pieces.count))]
    }
    // Unique within its category (duplicates are skipped by design), awkward characters kept at both ends.
    return generator.next() % 2 == 0 ? text + "#\(index)" : "#\(index)" + text
  }

  @Test(arguments: 1...12)
  func roundTripIsByteIdentical(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    let folder = try TemporaryDirectory("roundtrip")
    let original = folder.appending("original.sqlite")
    var categories: [SwiftDataStoreSpec.Category] = []
    for category in 0..<(1 + Int(generator.next() % 5)) {
      let title = Self.randomText(&generator, index: category)
      let dittos = (0..<Int(generator.next() % 12)).map {
        SwiftDataStoreSpec.Ditto(Self.randomText(&generator, index: $0))
      }
      categories.append(SwiftDataStoreSpec.Category(title: title, dittos: dittos))
    }
    try makeLibrary(original, SwiftDataStoreSpec(profiles: 1, categories: categories))
    let first = ToolRunner.run(["export", "--library", original, "--format", "csv"])
    #expect(first.exitCode == 0)
    let csv = folder.appending("first.csv")
    try Data(first.standardOutput.utf8).write(to: URL(fileURLWithPath: csv))
    try makeLibrary(folder.appending("copy.sqlite"))
    let imported = ToolRunner.run([
      "import", "--library", folder.appending("copy.sqlite"), "--csv", csv,
    ])
    #expect(imported.exitCode == 0, "\(imported.standardError)")
    let second = ToolRunner.run([
      "export", "--library", folder.appending("copy.sqlite"), "--format", "csv",
    ])
    #expect(Array(second.standardOutput.utf8) == Array(first.standardOutput.utf8))
    // And the CSV is what an RFC 4180 reader expects: every record has exactly two fields.
    var reader = CSVReaderProbe()
    #expect(try reader.recordCounts(Array(first.standardOutput.utf8)).allSatisfy { $0 == 2 })
  }
}
