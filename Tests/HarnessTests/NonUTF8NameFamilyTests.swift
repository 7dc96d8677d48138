import EngineTestSupport
import Foundation
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file or folder whose own name is not valid UTF-8 (possible on Linux file systems), over a
/// generated family of names: every command that reads it reads it (the file only read, its bytes
/// unchanged); one that writes it writes it, under the very bytes, leaving nothing else; one that
/// cannot says why (exit 74), never "is a symbolic link" or "already exists".
@Suite struct NonUTF8NameFamilyTests {
  static let spec = FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 61)

  /// A name from a large space with bytes that are not UTF-8 in it (a lone continuation byte, a
  /// cut sequence, 0xFE/0xFF), before the extension.
  static func name(using generator: inout SeededGenerator, extension ext: String) -> [UInt8] {
    let stems = ["store", "Ditto", "データ", "x", "my dittos", "copy (2)"]
    let bad: [[UInt8]] = [
      [0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xFE, 0xFE], [0xED, 0xA0, 0x80],
    ]
    var bytes = Array(stems.randomElement(using: &generator)!.utf8)
    let at = Int.random(in: 0...bytes.count, using: &generator)
    bytes.insert(contentsOf: bad.randomElement(using: &generator)!, at: at)
    return bytes + Array(ext.utf8)
  }

  /// A shell word that expands to `bytes` (`"$(printf '…')"`, every byte outside printable ASCII
  /// as an octal escape).
  static func shellWord(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
      if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "'"), byte != UInt8(ascii: "\\"),
        byte != UInt8(ascii: "%")
      {
        text.append(Character(UnicodeScalar(byte)))
      } else {
        text += "\\" + String(byte, radix: 8).leftPadded(to: 3)
      }
    }
    return "\"$(printf '" + text + "')\""
  }

  static func makeFile(_ contents: [UInt8], at path: [UInt8]) -> Int32 {
    let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
      }
    }
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    return written == contents.count ? 0 : EIO
  }

  static func contents(of path: [UInt8]) -> [UInt8]? {
    let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
    }
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return bytes }
      bytes += buffer.prefix(count)
    }
  }

  @Test func aStoreWhoseNameIsNotUTF8IsReadByEveryCommand() throws {
    let folder = try TemporaryDirectory("non-utf8-names")
    let source = folder.appending("source.sqlite")
    try LegacyStoreWriter.write(Self.spec, to: source, journal: .walCheckpointed)
    let store = Array(try Data(contentsOf: URL(fileURLWithPath: source)))
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D7F))
    for member in 0..<6 {
      let name = Self.name(using: &generator, extension: ".sqlite")
      let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
      let made = Self.makeFile(store, at: path)
      if made == EILSEQ {
        // A file system that refuses such names (APFS) has nothing to test here; say so.
        Issue.record("this file system refuses names that are not UTF-8: run these tests on Linux")
        return
      }
      // A name an earlier member drew already: that member tried it.
      if made == EEXIST { continue }
      #expect(made == 0)
      let word = Self.shellWord(path)
      let count = Self.spec.readableDittoCount
      for command in ["salvage \(word)", "inspect \(word)", "status --from \(word)"] {
        let run = try ToolRun.pasted("ditto-recover \(command)", in: folder.path)
        #expect(run.exitCode == 0, "member \(member): \(command): \(run.standardError)")
        #expect(!run.standardError.contains("symbolic link"), "member \(member): \(command)")
      }
      let exported = try ToolRun.pasted(
        "ditto-recover export --legacy \(word) --format json", in: folder.path)
      #expect(exported.exitCode == 0, "member \(member): \(exported.standardError)")
      #expect(exported.standardOutput.components(separatedBy: "\"text\"").count - 1 == count)
      #expect(Self.contents(of: path) == store, "member \(member): the file changed")
    }
  }

  /// A file named with bytes that are not valid UTF-8 that is not there is said to be missing,
  /// by its bytes (exit 66), never "a symbolic link"; one that cannot be read is named as typed
  /// in `--json`'s error too, never by this run's private copy of it.
  @Test func aMissingOrDamagedFileIsNamedAsTyped() throws {
    let folder = try TemporaryDirectory("non-utf8-missing")
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D84))
    for member in 0..<4 {
      let (name, path) = Self.newName(in: folder.path, using: &generator, extension: ".sqlite")
      let word = Self.shellWord(member % 2 == 0 ? name : path)
      let shown = PrintablePath.escape(name)
      for command in ["export --legacy \(word)", "salvage \(word)", "status --from \(word)"] {
        let run = try ToolRun.pasted("ditto-recover \(command)", in: folder.path)
        #expect(run.exitCode == 66, "member \(member): \(command): \(run.standardError)")
        #expect(run.standardError.contains("no such file"), "member \(member): \(command)")
        #expect(run.standardError.contains(shown), "member \(member): \(run.standardError)")
        #expect(!run.standardError.contains("symbolic link"), "member \(member): \(command)")
      }
      // The same name, now a file SQLite cannot read.
      #expect(Self.makeFile(Array(repeating: 0x5A, count: 8192), at: path) == 0)
      let run = try ToolRun.pasted("ditto-recover --json salvage \(word)", in: folder.path)
      let error = try #require(
        run.json?["error"] as? String, "member \(member): \(run.standardOutput)")
      #expect(error.contains(shown), "member \(member): \(error)")
      #expect(!run.standardOutput.contains("ditto-recover-args-"), "member \(member): \(error)")
    }
  }

  /// A folder or a FIFO named with bytes that are not valid UTF-8, given where a file is
  /// expected, is called what it is ("is a directory", "is a FIFO", exit 65), as one with a UTF-8
  /// name is: never "a symbolic link" (the link is this run's, the user gave none), and the FIFO
  /// is never opened (the run ends).
  @Test func aFolderOrAFIFOGivenAsAFileIsCalledWhatItIs() throws {
    let folder = try TemporaryDirectory("non-utf8-not-a-file")
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D85))
    for member in 0..<4 {
      let (name, path) = Self.newName(in: folder.path, using: &generator, extension: "")
      let isFolder = member % 2 == 0
      let made = (path + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          isFolder ? mkdir($0.baseAddress!, 0o755) : mkfifo($0.baseAddress!, 0o644)
        }
      }
      try #require(made == 0, "member \(member): \(errno)")
      let word = Self.shellWord(member < 2 ? name : path)
      let kind = isFolder ? "is a directory" : "is a FIFO"
      for command in [
        "export --legacy \(word)", "salvage \(word)", "status --from \(word)", "inspect \(word)",
        "--json salvage \(word)",
      ] {
        let run = try ToolRun.pasted("ditto-recover \(command)", in: folder.path)
        #expect(run.exitCode == 65, "member \(member): \(command): \(run.standardError)")
        #expect(run.standardError.contains(kind), "member \(member): \(run.standardError)")
        #expect(
          run.standardError.contains(PrintablePath.escape(name)),
          "member \(member): \(run.standardError)")
        #expect(!(run.standardOutput + run.standardError).contains("symbolic link"))
      }
    }
  }

  /// A library named with bytes that are not valid UTF-8 (relative or absolute; with its `-wal`,
  /// or checkpointed without one) is read and written like any: `status` and `--dry-run` read it
  /// and leave every byte; `recover` imports into it, once (again: nothing new); nothing else is
  /// left beside it, and what the tool prints names it as typed.
  @Test func aLibraryIsWrittenUnderTheBytesGiven() throws {
    let folder = try TemporaryDirectory("non-utf8-library")
    let source = folder.appending("source.sqlite")
    try LegacyStoreWriter.write(Self.spec, to: source, journal: .walCheckpointed)
    let scratch = try TemporaryDirectory("non-utf8-library-scratch")
    let legacy = Self.contents(of: Array(source.utf8))
    defer {
      #expect(Self.contents(of: Array(source.utf8)) == legacy, "the legacy store changed")
    }
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D80))
    for member in 0..<4 {
      let (name, path) = Self.newName(in: folder.path, using: &generator, extension: ".store")
      let made = scratch.appending("library\(member).store")
      let withWAL = member % 2 == 0
      let library = SwiftDataStoreSpec(
        profiles: 1, categories: [.init(title: "Work", dittos: [.init("a"), .init("b")])])
      try SwiftDataStoreWriter.write(
        library, to: made, journal: withWAL ? .walOnly : .walCheckpointed)
      for suffix in withWAL ? ["", "-wal"] : [""] {
        let bytes = try #require(Self.contents(of: Array((made + suffix).utf8)))
        #expect(Self.makeFile(bytes, at: path + Array(suffix.utf8)) == 0)
      }
      let word = Self.shellWord(member < 2 ? name : path)
      let original = Self.contents(of: path)
      let listing = { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
      let before = try listing()

      for reading in [
        "status --container . --library \(word)",
        "recover --from source.sqlite --library \(word) --dry-run",
      ] {
        let run = try ToolRun.pasted("ditto-recover \(reading)", in: folder.path)
        #expect(run.exitCode == 0, "member \(member): \(reading): \(run.standardError)")
        #expect(try listing() == before, "member \(member): \(reading) left a file")
        #expect(Self.contents(of: path) == original, "member \(member): \(reading) wrote")
      }
      let export = "ditto-recover export --library \(word) --format json"
      let texts = { (run: ToolRun) in
        run.standardOutput.components(separatedBy: "\"text\"").count - 1
      }
      let exported = try ToolRun.pasted(export, in: folder.path)
      #expect(texts(exported) == 2, "member \(member): \(exported.standardError)")

      let recover = "ditto-recover recover --from source.sqlite --library \(word) --json"
      let run = try ToolRun.pasted(recover, in: folder.path)
      #expect(run.exitCode == 0, "member \(member): \(run.standardError)")
      #expect(
        run.standardOutput.contains("\"outcome\": \"success\""),
        "member \(member): \(run.standardOutput)")
      #expect(
        run.standardOutput.contains(
          PrintablePath.escape(name).replacingOccurrences(of: "\\", with: "\\\\")),
        "member \(member): the output does not name the library as typed")
      #expect(!run.standardOutput.contains("ditto-recover-args-"), "member \(member)")
      #expect(try listing() == before, "member \(member): the import left a file")
      let after = try ToolRun.pasted(export, in: folder.path)
      #expect(
        texts(after) == 2 + Self.spec.readableDittoCount,
        "member \(member): \(after.standardError)")

      let again = try ToolRun.pasted(recover, in: folder.path)
      #expect(again.exitCode == 0, "member \(member): \(again.standardError)")
      #expect(again.standardOutput.contains("\"inserted\": 0,"), "member \(member)")
      #expect(try listing() == before, "member \(member): the second import left a file")
    }
  }

  /// A file that cannot be a library reached by a second name (a store in rollback-journal mode,
  /// no file at all) is refused before anything is read or written, saying why (exit 74).
  @Test func aLibraryThatCannotBeLinkedIsRefusedBeforeAnythingHappens() throws {
    let folder = try TemporaryDirectory("non-utf8-refused")
    let source = folder.appending("source.sqlite")
    try LegacyStoreWriter.write(Self.spec, to: source, journal: .walCheckpointed)
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D84))
    for member in 0..<4 {
      let name = Self.name(using: &generator, extension: ".store")
      let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
      if member % 2 == 1, !Self.exists(path) {
        let rollback = folder.appending("rollback\(member).sqlite")
        try LegacyStoreWriter.write(Self.spec, to: rollback, journal: .delete)
        let bytes = try #require(Self.contents(of: Array(rollback.utf8)))
        try FileManager.default.removeItem(atPath: rollback)
        #expect(Self.makeFile(bytes, at: path) == 0)
      }
      let original = Self.contents(of: path)
      let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      let run = try ToolRun.pasted(
        "ditto-recover recover --from source.sqlite --library \(Self.shellWord(name))",
        in: folder.path)
      #expect(run.exitCode == 74, "member \(member): \(run.standardError)")
      #expect(
        run.standardError.contains(original == nil ? "no such file" : "not a store in WAL mode"),
        "member \(member): \(run.standardError)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
      #expect(Self.contents(of: path) == original)
    }
  }

  /// `backup recover --out` under a name that is not valid UTF-8 (relative or absolute): the
  /// folder is made under the very bytes given, whole, and nothing else appears beside it; what
  /// the tool prints names it as typed. Given again, the name is refused as taken (exit 73) and
  /// the folder keeps every byte.
  @Test func aFolderOfResultsIsMadeUnderTheBytesGiven() throws {
    let folder = try TemporaryDirectory("non-utf8-out-folder")
    try DittoBackupFixture.build(
      at: folder.appending("udid"), date: Date(timeIntervalSince1970: 1.7e9))
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D83))
    for member in 0..<4 {
      let (name, path) = Self.newName(in: folder.path, using: &generator, extension: "")
      let word = Self.shellWord(member % 2 == 0 ? name : path)
      let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      let command = "ditto-recover backup recover udid --out \(word) --json"
      let run = try ToolRun.pasted(command, in: folder.path)
      #expect(run.exitCode == 0, "member \(member): \(run.standardError)")
      #expect(run.standardOutput.contains("\"outcome\""), "member \(member)")
      #expect(
        run.standardOutput.contains(
          PrintablePath.escape(name).replacingOccurrences(of: "\\", with: "\\\\")),
        "member \(member): the output does not name the folder as typed: \(run.standardOutput)")
      #expect(!run.standardOutput.contains("ditto-recover-args-"), "member \(member)")
      let library = path + Array("/AppDomainGroup-group.io.kern.ditto/Ditto.store".utf8)
      let stored = try #require(
        Self.contents(of: library), "member \(member): no library made: \(run.standardOutput)")
      #expect(!stored.isEmpty)
      let after = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(after.count == before.count + 1, "member \(member): \(after)")

      let again = try ToolRun.pasted(command, in: folder.path)
      #expect(again.exitCode == 73, "member \(member): \(again.standardError)")
      #expect(Self.contents(of: library) == stored, "member \(member): the folder changed")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == after.count)
    }
  }

  /// A name from the family that nothing in `folder` has yet (an earlier member may have made
  /// one), and its path.
  static func newName(
    in folder: String, using generator: inout SeededGenerator, extension ext: String
  ) -> (name: [UInt8], path: [UInt8]) {
    while true {
      let name = Self.name(using: &generator, extension: ext)
      let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name
      if !exists(path) { return (name, path) }
    }
  }

  static func exists(_ path: [UInt8]) -> Bool {
    var info = stat()
    return lstat(path.map { CChar(bitPattern: $0) } + [0], &info) == 0
  }

  /// A new file (a recovery file, an HTML report) is written under the very bytes given, and
  /// nothing else appears; given again, the name is refused as taken, and the `next:` line, pasted
  /// into bash, writes the `-2` name (before the extension) instead.
  @Test func aNewFileIsWrittenUnderTheBytesGiven() throws {
    let folder = try TemporaryDirectory("non-utf8-outputs")
    let container = folder.appending("container")
    try ContainerBuilder(root: container).writeStore(Self.spec)
    let capture = folder.appending("capture.log")
    try Data(
      "Ditto: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=success categories=1 dittos=3 inserted=3\n"
        .utf8
    ).write(to: URL(fileURLWithPath: capture))
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D81))
    for member in 0..<4 {
      let html = member % 2 == 1
      // A name an earlier member drew (or wrote as its `-2`) is drawn again: this one is new.
      let (name, path) = Self.newName(
        in: folder.path, using: &generator, extension: html ? ".html" : ".dittorecovery")
      let word = Self.shellWord(html ? name : path)  // relative and absolute
      let command =
        html
        ? "ditto-recover outcomes capture.log --html \(word)"
        : "ditto-recover extract --container container --out \(word)"
      let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      let run = try ToolRun.pasted(command, in: folder.path)
      #expect(run.exitCode == 0, "member \(member): \(run.standardError)")
      let written = try #require(Self.contents(of: path), "member \(member): not written")
      if html {
        #expect(String(decoding: written, as: UTF8.self).contains("<html"))
      } else {
        let status = try ToolRun.pasted(
          "ditto-recover status --from \(Self.shellWord(path))", in: folder.path)
        #expect(
          status.standardOutput.contains("\(Self.spec.readableDittoCount) dittos"),
          "member \(member): \(status.standardOutput)")
      }
      let after = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(after.count == before.count + 1, "member \(member): \(after)")

      let again = try ToolRun.pasted(command, in: folder.path)
      #expect(again.exitCode == 73, "member \(member): \(again.standardError)")
      #expect(again.standardError.contains("already exists"))
      #expect(Self.contents(of: path) == written, "member \(member): the first file changed")
      let next = try #require(
        again.standardError.split(separator: "\n").first { $0.hasPrefix("next: ") },
        "member \(member): no next step: \(again.standardError)")
      let pasted = try ToolRun.pasted(
        "bash -c \(shellQuoted(String(next.dropFirst(6))))", in: folder.path)
      #expect(pasted.exitCode == 0, "member \(member): \(next): \(pasted.standardError)")
      let dot = name.lastIndex(of: UInt8(ascii: "."))!
      let second = Array(name[..<dot]) + Array("-2".utf8) + Array(name[dot...])
      #expect(
        Self.contents(of: Array(folder.path.utf8) + [UInt8(ascii: "/")] + second) != nil,
        "member \(member): the -2 name was not written by \(next)")
    }
  }

  /// `export --library` reads the library it names: a name that is not UTF-8 is read like any.
  @Test func aLibraryToExportIsRead() throws {
    let folder = try TemporaryDirectory("non-utf8-export")
    let library = try LibraryFixtures.copy(.presets, toFolder: folder.path)
    var generator = SeededGenerator(seed: FamilySeed.base(0x0D82))
    let name = Self.name(using: &generator, extension: ".store")
    let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
    // The store and its `-wal` (where the app's rows are), under the new name.
    let bytes = try #require(Self.contents(of: Array(library.utf8)))
    #expect(Self.makeFile(bytes, at: path) == 0)
    let wal = try #require(Self.contents(of: Array((library + "-wal").utf8)))
    #expect(Self.makeFile(wal, at: path + Array("-wal".utf8)) == 0)
    let run = try ToolRun.pasted(
      "ditto-recover export --library \(Self.shellWord(path)) --format json", in: folder.path)
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("\"text\""))
    #expect(Self.contents(of: path) == bytes)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
