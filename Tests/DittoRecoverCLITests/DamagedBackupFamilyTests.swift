import EngineTestSupport
import Foundation
import PropertyLists
import StoreFixtures
import TestSupport
import Testing

/// Backups damaged in generated ways: `Manifest.db`, `Manifest.plist`, `Info.plist` or
/// `Status.plist` cut at any length, overwritten with random bytes in any range, a page zeroed, or
/// removed; the stored store's file cut or garbled. Every command answers: a clear error naming
/// what it could not read (never a crash or a silent "nothing"), nothing left under `--out` when it
/// fails, the file whole when it succeeds, and the backup byte for byte as it was. Half the family
/// is encrypted (opened with its password): its keybag, its encrypted manifest and files damaged.
@Suite struct DamagedBackupFamilyTests {
  enum Damage: CaseIterable {
    case cut, garble, zeroPage, remove
  }

  static let parts = ["Manifest.db", "Manifest.plist", "Info.plist", "Status.plist", "store"]

  /// The backup's file for `part`; for the legacy store, one of its files (main file or
  /// `-wal`), found by what it holds: Core Data's ZCATEGORY table and no SwiftData table.
  static func path(
    of part: String, in root: String, encrypted: Bool, using generator: inout SeededGenerator
  ) throws -> String {
    guard part == "store" else { return root + "/" + part }
    if encrypted {
      // Stored encrypted: any file the backup holds (the store's among them).
      var stored: [String] = []
      for folder in try FileManager.default.contentsOfDirectory(atPath: root).sorted()
      where folder.count == 2 {
        stored += try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
          .sorted().map { root + "/" + folder + "/" + $0 }
      }
      return stored.randomElement(using: &generator) ?? root + "/none"
    }
    var candidates: [String] = []
    for folder in try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    where folder.count == 2 {
      for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder).sorted()
      {
        let file = root + "/" + folder + "/" + name
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        if bytes.range(of: Data("ZCATEGORY".utf8)) != nil,
          bytes.range(of: Data("ZDITTOITEM".utf8)) == nil
        {
          candidates.append(file)
        }
      }
    }
    guard let chosen = candidates.randomElement(using: &generator) else {
      Issue.record("the backup holds no legacy store")
      return root + "/none"
    }
    return chosen
  }

  static func damage(
    _ file: String, with damage: Damage, using generator: inout SeededGenerator
  ) throws -> String {
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    switch damage {
    case .cut:
      let length = Int.random(in: 0..<max(1, bytes.count), using: &generator)
      let whole = bytes.count
      bytes = Array(bytes.prefix(length))
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      return "cut to \(length) of \(whole) bytes"
    case .garble:
      guard !bytes.isEmpty else { return "empty" }
      let start = Int.random(in: 0..<bytes.count, using: &generator)
      let length = min(bytes.count - start, Int.random(in: 1...512, using: &generator))
      for index in start..<(start + length) {
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      return "\(length) random bytes at \(start)"
    case .zeroPage:
      let pages = max(1, bytes.count / 4096)
      let page = Int.random(in: 0..<pages, using: &generator)
      for index in (page * 4096)..<min(bytes.count, page * 4096 + 4096) { bytes[index] = 0 }
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      return "page \(page) zeroed"
    case .remove:
      try FileManager.default.removeItem(atPath: file)
      return "removed"
    }
  }

  @Test func everyDamagedBackupGetsAClearAnswerAndNothingHalfMade() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0xBAC0))
    for round in 0..<40 {
      let folder = try TemporaryDirectory("damaged-backup")
      let root = folder.appending("Backup/device")
      // Every other round encrypted (its keybag in Manifest.plist, Manifest.db and each file
      // encrypted), opened with its password.
      let encrypted = round % 2 == 1
      try DittoBackupFixture.build(
        at: root, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(round)),
        encryption: encrypted ? BackupEncryption(password: "secret") : nil)
      let password = folder.appending("password.txt")
      try Data("secret".utf8).write(to: URL(fileURLWithPath: password))
      let unlock = encrypted ? ["--password-file", password] : []
      let part = Self.parts[(round / 2) % Self.parts.count]
      let kind = Damage.allCases.randomElement(using: &generator)!
      let damagedPath = try Self.path(
        of: part, in: root, encrypted: encrypted, using: &generator)
      let what = try Self.damage(damagedPath, with: kind, using: &generator)
      let label = "round \(round)\(encrypted ? " (encrypted)" : ""): \(part) \(what)"
      let before = try FileHashes(of: root)
      // A plist left in place that does not read as one must be named by every command.
      let unreadablePlist =
        part.hasSuffix(".plist") && FileManager.default.fileExists(atPath: damagedPath)
        && (try? PropertyListReader.decode(
          Array(try Data(contentsOf: URL(fileURLWithPath: damagedPath))))) == nil

      let list = ToolRunner.run(["backup", "list", folder.appending("Backup")] + unlock)
      let out = folder.appending("out.dittorecovery")
      let extract = ToolRunner.run(["backup", "extract", root, "--out", out] + unlock)
      let recoveredFolder = folder.appending("recovered")
      let recover = ToolRunner.run(
        ["backup", "recover", root, "--out", recoveredFolder] + unlock)
      #expect(
        !(recover.standardError + recover.standardOutput).contains("ditto-backup-"), "\(label)")
      // The result names the files where they are now (the folder built under another name and
      // then given --out's): its sources, its error, its next steps, in text and in JSON.
      var results = [recover]
      if part == "store" {
        results.append(
          ToolRunner.run(
            ["--json", "backup", "recover", root, "--out", folder.appending("recovered-json")]
              + unlock))
      }
      for result in results {
        #expect(
          !result.standardOutput.contains("/.ditto-new-"), "\(label): \(result.standardOutput)")
      }
      if recover.exitCode != 0, !recover.standardOutput.contains("inserted") {
        #expect(
          !FileManager.default.fileExists(atPath: recoveredFolder),
          "\(label): recover left a folder: \(recover.exitCode) \(recover.standardOutput) \(recover.standardError)"
        )
      }
      for (name, run) in [("list", list), ("extract", extract), ("recover", recover)] {
        #expect([0, 65, 66, 74].contains(run.exitCode), "\(label): \(name) exit \(run.exitCode)")
        if encrypted {
          // The password was given: never "not needed", never "cannot be read without it".
          let said = run.standardError + run.standardOutput
          #expect(!said.contains("is not encrypted"), "\(label): \(name): \(said)")
          #expect(!said.contains("without the backup password"), "\(label): \(name): \(said)")
        }
        if run.exitCode != 0 {
          // Named: the backup, or the file of it that could not be read.
          let named = ["Manifest", "Info.plist", "Status.plist", "device", "store", "backup"]
          #expect(
            named.contains { (run.standardError + run.standardOutput).contains($0) },
            "\(label): \(name) says: \(run.standardError) \(run.standardOutput)")
        }
      }
      if unreadablePlist {
        for (name, run) in [("list", list), ("extract", extract)] {
          #expect(
            (run.standardOutput + run.standardError).contains(part),
            "\(label): \(name) does not name \(part): \(run.standardOutput) \(run.standardError)")
        }
      }
      // No message names the private folder the backup's files were rebuilt in (gone when the
      // run ends): a file is named by the backup and its path in it.
      #expect(
        !extract.standardError.contains("ditto-extract-"), "\(label): \(extract.standardError)")
      #expect(
        !extract.standardOutput.contains("ditto-extract-"), "\(label): \(extract.standardOutput)")
      // (The path it names may be the folder as resolved: a Mac names /private/var for /var.)
      let wrote = extract.standardOutput.hasPrefix("wrote ")
      if extract.exitCode == 0 || wrote {
        // Whole: what could be read, said so (65) when part of it could not.
        #expect(FileManager.default.fileExists(atPath: out), "\(label): extract made nothing")
        let check = ToolRunner.run(["status", "--from", out])
        #expect(
          check.exitCode == 0, "\(label): the file written does not read: \(check.standardError)")
        if extract.exitCode != 0 {
          #expect(
            extract.standardError.contains("the file holds only what could be read"), "\(label)")
        }
      } else {
        #expect(!FileManager.default.fileExists(atPath: out), "\(label): extract left \(out)")
        #expect(
          try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0 != "Backup" && $0 != "recovered" && $0 != "password.txt"
          }.isEmpty, "\(label): extract left something")
      }
      // "Nothing" is never said of a backup whose store could not be read.
      if part == "store" || part == "Manifest.db" {
        #expect(
          !extract.standardOutput.contains("No legacy dittos were found"), "\(label)")
      }
      #expect(try FileHashes(of: root) == before, "\(label): the backup changed")
    }
  }
}
