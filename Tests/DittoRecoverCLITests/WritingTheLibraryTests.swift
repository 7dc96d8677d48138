import DittoStore
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// The rules for writing `Ditto.store`, from outside: iCloud in honest words, a store that waits for
/// its iCloud Profile is refused untouched, and `import` follows the app's CSV import.
@Suite struct WritingTheLibraryTests {
  func device(iCloud: Bool, profiles: Int) throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory("writing library")
    let container = folder.appending("device")
    try ContainerBuilder(root: container).writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 70))
    var spec = SwiftDataStoreSpec(
      profiles: profiles,
      categories: profiles == 0 ? [] : [.init(title: "Work", dittos: [.init("hello")])])
    spec.hasCloudKitTables = iCloud
    try SwiftDataStoreWriter.write(spec, to: container + "/Ditto.store")
    return (folder, container)
  }

  @Test func anICloudLibraryWithoutAProfileIsRefusedUntouchedWithTheNextStep() throws {
    let (folder, container) = try device(iCloud: true, profiles: 0)
    let before = try FileHashes(of: container)
    let run = try ToolRunner.runProcess(["migrate", "--container", container])
    #expect(run.exitCode == 74, "\(run.standardError)")
    #expect(run.standardOutput.contains("outcome: library_error"))
    #expect(run.standardOutput.contains("iCloud sync tables and no Profile yet"))
    #expect(run.standardOutput.contains("note: open Ditto on the iPhone and let iCloud finish"))
    #expect(run.standardOutput.contains("next: \(ToolRunner.programAsRun) extract --container"))
    #expect(run.standardOutput.contains("  # or a recovery file to open in Ditto on the iPhone"))
    #expect(try FileHashes(of: container) == before)
    let status = try ToolRunner.runProcess(["status", "--container", container])
    #expect(
      status.standardOutput.contains(
        "will not be written: this library has iCloud sync tables and no Profile yet"))
    _ = folder
  }

  @Test func iCloudIsDescribedAsWhatWeKnow() throws {
    let (folder, container) = try device(iCloud: true, profiles: 1)
    let run = try ToolRunner.runProcess(["migrate", "--container", container])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.contains(
        "this library has iCloud sync tables; if sync is on, Ditto uploads the new dittos the next time it syncs"
      ))
    #expect(!run.standardOutput.contains("next launch"))
    let json = try ToolRunner.runProcess(["recover", "--container", container, "--json"])
    #expect(json.json?["libraryCloudKit"] as? Bool == true)
    _ = folder
  }

  @Test func withoutICloudTablesAMissingProfileIsCreated() throws {
    let (folder, container) = try device(iCloud: false, profiles: 0)
    let run = try ToolRunner.runProcess(["migrate", "--container", container, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(try DittoStoreFile.summary(at: container + "/Ditto.store").profiles == 1)
    _ = folder
  }

  @Test func importCreatesNewCategoriesOnlyWhileFewerThanEightExist() throws {
    let (folder, container) = try device(iCloud: false, profiles: 1)
    let library = container + "/Ditto.store"
    var csv = "Category,Ditto\r\n"
    for number in 1...13 { csv += "Secret title \(number),ditto \(number)\r\nWork,w\(number)\r\n" }
    let file = folder.appending("13 categories.csv")
    try csv.write(toFile: file, atomically: true, encoding: .utf8)
    let run = try ToolRunner.runProcess(["import", "--library", library, "--csv", file, "--json"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    // The library holds 1 category: 7 new ones fit, 6 do not (their dittos are not imported);
    // dittos for Work (already there) all go in.
    #expect(run.json?["skippedCategories"] as? Int == 6)
    #expect(run.json?["skippedDittos"] as? Int == 6)
    #expect(run.json?["inserted"] as? Int == 13 + 7)
    let content = try DittoStoreFile.content(at: library)
    #expect(content.categories.count == 8)
    #expect(run.standardError.contains("Secret title 13"))
    #expect(!run.outcomeLines.joined().contains("Secret"))
  }
}
