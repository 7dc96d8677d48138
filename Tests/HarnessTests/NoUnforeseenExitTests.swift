import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// Exit 1 means "unforeseen: a bug". Every command that takes a path is run on every hostile input
/// the tests know (special files, links, garbage, the wrong kind of store, names no one expects),
/// as a child process with a deadline: none may exit 1, hang, crash or print a raw Foundation
/// error.
@Suite struct NoUnforeseenExitTests {
  enum Input: String, CaseIterable {
    case missing, emptyFolder, fifo, socket, zeroBytes, garbage, deviceFile, linkLoop
    case danglingLink, ditto3Library, ditto2Store, recoveryFile, newlineInName, notUTF8
  }

  /// Makes `input` under `folder` and returns the shell word naming it.
  func make(_ input: Input, in folder: TemporaryDirectory) throws -> String {
    let path = folder.appending("input")
    switch input {
    case .missing: break
    case .emptyFolder:
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    case .fifo: #expect(mkfifo(path, 0o644) == 0)
    case .socket: try HostileContainerTests().makeSocket(at: path)
    case .zeroBytes: _ = FileManager.default.createFile(atPath: path, contents: Data())
    case .garbage:
      _ = FileManager.default.createFile(
        atPath: path, contents: Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 31) }))
    case .deviceFile: return "/dev/null"
    case .linkLoop:
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "input")
    case .danglingLink:
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "nowhere")
    case .ditto3Library:
      _ = try LibraryFixtures.copy(.presets, toFolder: folder.path)
      return shellQuoted(folder.appending("Ditto.store"))
    case .ditto2Store:
      try LegacyStoreWriter.write(
        FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 3), to: path)
    case .recoveryFile:
      let device = folder.appending("device")
      _ = ToolRunner.runFixture(["--out", device, "--scenario", "intact-2x"])
      let out = folder.appending("input.dittorecovery")
      #expect(
        try ToolRunner.runProcess(["extract", "--container", device, "--out", out]).exitCode == 0)
      return shellQuoted(out)
    case .newlineInName:
      let odd = folder.appending("in\nput")
      _ = FileManager.default.createFile(atPath: odd, contents: Data("x".utf8))
      return shellQuoted(odd)
    case .notUTF8:
      // odd\xFFname, or odd\x7Fname where the file system refuses it (APFS): see OddFileName.
      return try OddFileName.makeFolder(in: folder.path).shellWord
    }
    return shellQuoted(path)
  }

  /// The exit codes `ditto-recover` documents (README, "Exit codes").
  static let documentedExitCodes: Set<Int32> = [0, 64, 65, 66, 73, 74]

  /// Each command, with `X` where the hostile path goes.
  static let commands = [
    "status --container X", "status --from X", "migrate --container X",
    "recover --container X --dry-run", "recover --from X --library L", "inventory --container X",
    "inspect X", "export --legacy X", "export --library X --format csv",
    "import --library L --csv X", "import --library X --csv C", "extract --container X --out N",
    "backup list X", "backup recover X --out N", "backup extract X --out N", "salvage X",
    "outcomes X", "outcomes --html X C",
  ]

  @Test(arguments: Input.allCases)
  func noCommandExitsOneOnAHostileInput(_ input: Input) throws {
    let folder = try TemporaryDirectory("no-exit-1")
    let executable = try #require(ToolRunner.executablePath)
    let word = try make(input, in: folder)
    let library = try LibraryFixtures.copy(.empty, toFolder: folder.appending("library"))
    let csv = folder.appending("good.csv")
    try "Category,Ditto\r\nWork,a\r\n".write(toFile: csv, atomically: true, encoding: .utf8)
    for (index, command) in Self.commands.enumerated() {
      let line = command.replacingOccurrences(of: "X", with: word)
        .replacingOccurrences(of: " L", with: " " + shellQuoted(library))
        .replacingOccurrences(of: " C", with: " " + shellQuoted(csv))
        .replacingOccurrences(of: " N", with: " " + shellQuoted(folder.appending("new-\(index)")))
      // A deadline in Swift kills a hang (a stock Mac has no GNU `timeout`); `exec` makes the
      // killed process the tool itself.
      let (run, timedOut) = try ToolRun.shell(
        "exec \(shellQuoted(executable)) \(line) </dev/null", in: folder.path, deadline: 60)
      #expect(!timedOut, "\(input) \(command): still running after 60 s")
      // Only the tool's documented codes: 1 (a bug), 127 (nothing ran) or a signal fail.
      #expect(
        Self.documentedExitCodes.contains(run.exitCode),
        "\(input) \(command): exit \(run.exitCode) \(run.standardError)")
      for sign in ["NSCocoaErrorDomain", "Fatal error", "Stack dump", "Unexpected error"] {
        #expect(!run.standardError.contains(sign), "\(input) \(command): \(run.standardError)")
      }
    }
  }
}

/// The tests that need a name that is not UTF-8 hold on a file system that refuses one (APFS:
/// EILSEQ): the refusal is injected here, and the fallback name is made and used instead.
@Suite struct OddFileNameTests {
  @Test func aFileSystemThatRefusesTheNameGetsTheFallbackAndSaysSo() throws {
    let folder = try TemporaryDirectory("eilseq")
    let refusing: OddFileName.Maker = { path in
      path.contains(0xFF) ? EILSEQ : OddFileName.makeDirectory(path)
    }
    let made = try OddFileName.makeFolder(in: folder.path, maker: refusing)
    #expect(made.fileSystemRefusedNotUTF8)
    #expect(made.bytes == OddFileName.fallback)
    #expect(made.shown == "odd\\x7Fname")
    #expect(FileManager.default.fileExists(atPath: folder.appending("odd\u{7F}name")))
    // The shell word names the same folder.
    let listed = try ToolRun.shell("ls -d \(made.shellWord)", in: folder.path)
    #expect(listed.exitCode == 0, "\(listed.standardError)")
  }

  @Test func anotherFailureIsAFailure() throws {
    let folder = try TemporaryDirectory("eacces")
    #expect(throws: POSIXError.self) {
      try OddFileName.makeFolder(in: folder.path, maker: { _ in EACCES })
    }
  }

  @Test func hereTheNameThatIsNotUTF8IsMade() throws {
    let folder = try TemporaryDirectory("not-utf8")
    let made = try OddFileName.makeFile(in: folder.path)
    #if os(Linux)
      #expect(!made.fileSystemRefusedNotUTF8)
      #expect(made.bytes.contains(0xFF))
    #endif
    #expect(made.shown.hasPrefix("odd\\x"))
  }
}
