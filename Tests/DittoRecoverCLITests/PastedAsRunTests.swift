import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Run as `./ditto-recover` (the download unpacked, not on PATH), every `next:` line names the
/// program the same way, and each one pasted in the same folder runs (never 127, never a usage
/// error).
@Suite struct PastedAsRunTests {
  @Test func everyNextLineOfARunByPathPastesAndRuns() throws {
    let folder = try TemporaryDirectory("as-run")
    let executable = try #require(ToolRunner.executablePath)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("ditto-recover"), withDestinationPath: executable)
    // A container with only its library, beside a Finder copy holding the store.
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    try ContainerBuilder(root: folder.appending("group.io.kern.ditto copy")).writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 9))
    let environment = "PATH=/usr/bin:/bin "
    var pasted = 0
    for command in [
      "./ditto-recover recover --container group.io.kern.ditto",
      "./ditto-recover status --container group.io.kern.ditto",
      "./ditto-recover --json migrate --container group.io.kern.ditto",
    ] {
      let run = try ToolRun.shell(environment + command, in: folder.path, deadline: 60)
      let lines = (run.run.standardOutput + run.run.standardError).split(separator: "\n")
        .filter { $0.hasPrefix("next: ") }.map { String($0.dropFirst("next: ".count)) }
      let fromJSON =
        (try? JSONSerialization.jsonObject(with: Data(run.run.standardOutput.utf8)))
        .flatMap { ($0 as? [String: Any])?["next"] as? [String] } ?? []
      #expect(!(lines + fromJSON).isEmpty, "\(command): \(run.run.standardError)")
      for line in lines + fromJSON {
        #expect(line.hasPrefix("./ditto-recover "), "\(command): \(line)")
        let again = try ToolRun.shell(environment + line, in: folder.path, deadline: 60)
        #expect(
          again.run.exitCode != 127 && again.run.exitCode != 64,
          "\(line): \(again.run.standardError)")
        pasted += 1
      }
    }
    #expect(pasted >= 3)
  }
}
