import DittoStore
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// `--container` and `--home` accept what people have: the container, the folder a zip unpacked it
/// into, an Xcode `.xcappdata` bundle. The folder read is printed; when several could be it,
/// nothing is guessed.
@Suite struct ContainerFolderTests {
  let folder: TemporaryDirectory
  init() throws { folder = try TemporaryDirectory("container folders") }

  func scenario(_ name: String, at path: String) throws {
    let made = ToolRunner.runFixture(["--out", path, "--scenario", name, "--seed", "3"])
    #expect(made.exitCode == 0, "\(made.standardError)")
  }

  @Test func aContainerOneFolderDownIsFoundAndSaidSo() throws {
    // A zip of group.io.kern.ditto unpacks into a folder of that name.
    let unzipped = folder.appending("download")
    let container = unzipped + "/group.io.kern.ditto"
    try scenario("intact-2x", at: container)
    let status = ToolRunner.run(["status", "--container", unzipped, "--json"])
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.json?["container"] as? String == shown(container))
    #expect((status.json?["recoverable"] as? [String: Any])?["dittos"] as? Int == 24)
    let text = ToolRunner.run(["status", "--container", unzipped])
    #expect(text.standardOutput.hasPrefix("recoverable: 24 dittos in 4 categories"))
    #expect(text.standardError.contains("note: reading the container \(shown(container))"))
    // The library written is the one inside, and nothing is written beside it.
    let before = try FileHashes(of: unzipped)
    let recover = ToolRunner.run(["recover", "--container", unzipped, "--json"])
    #expect(recover.exitCode == 0, "\(recover.standardError)")
    #expect(recover.json?["inserted"] as? Int == 24)
    #expect(recover.json?["library"] as? String == shown(container) + "/Ditto.store")
    let changed = try FileHashes(of: unzipped).changes(since: before)
    #expect(changed.allSatisfy { $0.hasPrefix("/group.io.kern.ditto/Ditto.store") }, "\(changed)")
  }

  @Test func aSingleChildWithTheLayoutIsFound() throws {
    let unzipped = folder.appending("unzipped")
    try scenario("wal-only", at: unzipped + "/Ditto container copy")
    let status = ToolRunner.run(["status", "--container", unzipped, "--json"])
    #expect(status.json?["container"] as? String == shown(unzipped + "/Ditto container copy"))
    #expect((status.json?["recoverable"] as? [String: Any])?["dittos"] as? Int == 24)
  }

  @Test func severalPossibleContainersAreNamedNeverGuessed() throws {
    let parent = folder.appending("two")
    try scenario("intact-2x", at: parent + "/first")
    try scenario("intact-2x", at: parent + "/second")
    let status = ToolRunner.run(["status", "--container", parent])
    #expect(status.exitCode == 66, "as migrate and recover on the same folder")
    #expect(status.standardOutput.hasPrefix("recoverable: unknown:"))
    let next = status.standardOutput.split(separator: "\n").filter { $0.hasPrefix("next: ") }
    #expect(next.count == 2)
    for line in next {
      let pasted = try ToolRun.pasted(String(line.dropFirst("next: ".count)))
      #expect(pasted.standardOutput.hasPrefix("recoverable: 24 dittos"), "\(pasted.standardError)")
    }
    let migrate = ToolRunner.run(["migrate", "--container", parent])
    #expect(migrate.exitCode == 66)
    #expect(migrate.standardError.contains("holds 2 folders that could be it"))
    #expect(migrate.standardError.contains("next: ditto-recover status --container"))
    #expect(!FileManager.default.fileExists(atPath: parent + "/Ditto.store"))
  }

  @Test func anXcappdataHomeIsReadThroughItsAppData() throws {
    let container = folder.appending("container")
    try scenario("fresh-install", at: container)
    let bundle = folder.appending("Ditto.xcappdata")
    let appData = bundle + "/AppData"
    try FileManager.default.createDirectory(
      atPath: appData + "/Documents", withIntermediateDirectories: true)
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 4, dittosPerCategory: 7, seed: 5),
      to: appData + "/Documents/Ditto.sqlite")
    let status = ToolRunner.run([
      "status", "--container", container, "--home", bundle, "--json",
    ])
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.json?["home"] as? String == shown(appData))
    #expect((status.json?["recoverable"] as? [String: Any])?["dittos"] as? Int == 28)
  }
}
