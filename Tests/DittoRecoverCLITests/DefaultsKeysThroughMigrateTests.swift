import ContainerFiles
import EngineTestSupport
import Foundation
import PropertyLists
import StoreFixtures
import TestSupport
import Testing

/// `migrate` on a container copy sets the completion flag by rewriting the App Group defaults:
/// every key and value of the original reads back equal by UTF-16 units (keys that differ only by
/// Unicode normalization included, at the top and nested), in place, with only the flag's keys
/// added, as Python's plistlib (a reader that is not ours) reads the file.
@Suite struct DefaultsKeysThroughMigrateTests {
  @Test(arguments: [PropertyListFormat.binary, .xml])
  func migrateKeepsEveryKeyOfTheDefaultsAsWritten(format: PropertyListFormat) throws {
    for seed in 0..<UInt64(6) {
      let harness = try MigrationHarness("defaults-keys")
      var generator = SeededGenerator(seed: 0xDEF0 + seed)
      let original = NormalizationKeys.dictionary(entries: 24, depth: 2, using: &generator)
      #expect(original.merged.count < original.count, "seed \(seed): no keys to merge")
      if seed % 2 == 1 {
        try harness.builder.writeStore(
          FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: seed),
          journal: .delete)
      }
      let path = harness.layout.defaultsPath
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(PropertyListWriter.encode(.dictionary(original), format: format)).write(
        to: URL(fileURLWithPath: path))

      let run = ToolRunner.run(["migrate", "--container", harness.folder.path])
      #expect(run.exitCode == 0, "seed \(seed): \(run.standardError)")

      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      let read = try PropertyListReader.decode(bytes)
      #expect(read.format == format)
      guard case .dictionary(let after) = read.value else {
        Issue.record("seed \(seed): the defaults are no dictionary")
        continue
      }
      #expect(after[AppGroupDefaults.completionKey] == .bool(true), "seed \(seed)")
      var expected = original
      for (key, value) in after where original[key] == nil {
        #expect(
          [AppGroupDefaults.completionKey, AppGroupDefaults.attemptsKey].contains(key),
          "seed \(seed): a key was added")
        expected[key] = value
      }
      #expect(
        try PythonPlistlib.canonical(ofFile: path)
          == NormalizationKeys.canonical(.dictionary(expected)), "seed \(seed)")
    }
  }
}
