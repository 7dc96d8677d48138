import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// A folder whose name is not UTF-8 (`odd\xFFname`): the commands that take a folder, a file in
/// it, or run from inside it work, nothing prints this run's private link for it, and a `next:`
/// line names it in bash's `$'…'` form, which pasted runs.
@Suite struct NotUTF8FolderTests {
  @Test func everyCommandWorksAndEveryNextLinePastes() throws {
    let folder = try TemporaryDirectory("not-utf8")
    let odd = try OddFileName.makeFolder(in: folder.path)
    let name = odd.shellWord
    let executable = try #require(ToolRunner.executablePath)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("ditto-recover"), withDestinationPath: executable)
    // A container, a capture folder and a CSV inside the odd folder (made by the shell, by bytes).
    let container = folder.appending("container")
    try ContainerBuilder(root: container).writeStore(
      FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 4))
    _ = try LibraryFixtures.copy(.empty, toFolder: container)
    let setup = try ToolRun.shell(
      "mv container \(name)/c && mkdir \(name)/logs && "
        + "echo 'migration_outcome source=auto outcome=success categories=1 dittos=1 inserted=1' > \(name)/logs/a.log && "
        + "printf 'Category,Ditto\\r\\nA,b\\r\\n' > \(name)/x.csv",
      in: folder.path)
    try #require(setup.exitCode == 0, "\(setup.standardError)")
    // A container whose own name is not UTF-8 (the argument reaches the tool as a link).
    let oddContainer = String(name.dropLast()) + "-c\""
    try #require(
      try ToolRun.shell("cp -R \(name)/c \(oddContainer)", in: folder.path).exitCode == 0)
    let inventory = try ToolRun.shell(
      "./ditto-recover inventory --container \(oddContainer)", in: folder.path)
    #expect(inventory.standardOutput.contains("inventory[appgroup] "), "\(inventory.standardError)")
    #expect(inventory.standardOutput.contains(" /Ditto.sqlite"), "\(inventory.standardOutput)")
    let commands = [
      ("inventory", "./ditto-recover inventory --container \(name)/c"),
      ("outcomes", "./ditto-recover outcomes \(name)/logs"),
      ("import", "./ditto-recover import --library \(name)/c/Ditto.store --csv \(name)/x.csv"),
      ("extract", "./ditto-recover extract --container \(name)/c --out \(name)/out.dittorecovery"),
      ("status --from", "./ditto-recover status --from \(name)/out.dittorecovery"),
      ("extract inside", "cd \(name) && ../ditto-recover extract --container c"),
      (
        "extract again",
        "./ditto-recover extract --container \(name)/c --out \(name)/out.dittorecovery"
      ),
    ]
    var nextLines: [String] = []
    for (label, command) in commands {
      let run = try ToolRun.shell(command, in: folder.path)
      let expected: Int32 = label == "extract again" ? 73 : 0
      #expect(run.exitCode == expected, "\(label): \(run.standardError)")
      let printed = run.standardOutput + run.standardError
      #expect(!printed.contains("ditto-recover-args-"), "\(label) shows a private link: \(printed)")
      #expect(!printed.contains("\u{FFFD}"), "\(label) shows a replacement character: \(printed)")
      nextLines += printed.split(separator: "\n").filter { $0.hasPrefix("next: ") }.map {
        String($0.dropFirst("next: ".count))
      }
    }
    let status = try ToolRun.shell(
      "./ditto-recover status --from \(name)/out.dittorecovery", in: folder.path)
    #expect(
      status.standardOutput.contains("from container \(odd.shown)/c"), "\(status.standardOutput)")
    #expect(!nextLines.isEmpty)
    for line in nextLines where line.hasPrefix("./ditto-recover") {
      #expect(line.contains("$'odd\\x"), "\(line)")
      let pasted = try ToolRun.shell("bash -c \(shellQuoted(line))", in: folder.path)
      #expect(pasted.exitCode == 0, "\(line): \(pasted.standardError)")
    }
  }
}
