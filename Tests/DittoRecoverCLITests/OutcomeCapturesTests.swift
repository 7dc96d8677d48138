import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// Every capture a tester sends, made here in each layout (no one's logs are copied): a folder
/// of captures, UTF-16 and UTF-8 with a byte-order mark, gzip by content, a block indented as in
/// an email, Console copies from Macs set to other languages, `log stream` output wrapped onto
/// the next line. Each reads its two tags; binary data is never a capture; mentions that cannot
/// be read are said per file and make the verdict one on an incomplete sample.
@Suite struct OutcomeCapturesTests {
  static let auto =
    "migration_outcome source=auto outcome=success categories=4 dittos=27 inserted=27"
  static let manual =
    "migration_outcome source=manual outcome=no_new_data categories=4 dittos=27 inserted=0"

  /// A `log show` (or `log stream`) capture in the default style: two tags among other lines.
  static let logShow = logShow(pid: 812)

  /// The same capture from another device (another pid: not the same entries).
  static func logShow(pid: Int) -> String {
    [
      #"Filtering the log data using "subsystem == "io.kern.ditto"""#,
      "Timestamp                       Thread     Type        Activity             PID    TTL  ",
      "2026-11-30 10:00:00.100000+0100 0x1a2b     Info        0x0                  \(pid)    0    Ditto: [io.kern.ditto:LegacyDataMigrator] inventory[appgroup] 524288B /Ditto.sqlite",
      "2026-11-30 10:00:00.200000+0100 0x1a2b     Default     0x0                  \(pid)    0    Ditto: [io.kern.ditto:LegacyDataMigrator] \(auto)",
      "2026-11-30 10:00:01.000000+0100 0x0f00     Default     0x0                  77     0    SpringBoard: [com.apple.SpringBoard:Icon] badge updated",
      "2026-11-30 10:05:00.000000+0100 0x1a2c     Default     0x0                  \(pid)    0    Ditto: [io.kern.ditto:LegacyDataMigrator] \(manual)",
    ].joined(separator: "\n") + "\n"
  }

  /// A Console copy (the default four columns) with the type column in `types` (default, error,
  /// info as the Mac's language writes them).
  static func consoleCopy(types: [String]) -> String {
    [
      "\(types[0])\t10:00:00.200000+0100\tDitto\t\(auto)",
      "\(types[1])\t10:00:01.000000+0100\tkernel\tSandbox: deny(1) file-read-metadata /private/var",
      "\(types[2])\t10:05:00.000000+0100\tDitto\t\(manual)",
    ].joined(separator: "\n") + "\n"
  }

  /// Every line cut into pieces of `width` characters, as a terminal or a mail program wraps.
  static func hardWrapped(_ text: String, width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      var pieces: [String] = []
      var rest = Substring(line)
      while rest.count > width {
        pieces.append(String(rest.prefix(width)))
        rest = rest.dropFirst(width)
      }
      pieces.append(String(rest))
      return pieces.joined(separator: "\n")
    }.joined(separator: "\n")
  }

  static func utf16(_ text: String, littleEndian: Bool, mark: Bool) -> [UInt8] {
    let units = Array(text.utf16)
    var bytes: [UInt8] = mark ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
    for unit in units {
      let low = UInt8(unit & 0xFF)
      let high = UInt8(unit >> 8)
      bytes += littleEndian ? [low, high] : [high, low]
    }
    return bytes
  }

  static func gzip(_ text: String, in folder: String) throws -> [UInt8] {
    let plain = folder + "/plain-for-gzip.txt"
    try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
    let run = try ToolRun.shell("gzip -9 -c plain-for-gzip.txt > packed.gz", in: folder)
    #expect(run.exitCode == 0, "\(run.standardError)")
    defer {
      unlink(plain)
      unlink(folder + "/packed.gz")
    }
    return Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/packed.gz")))
  }

  /// The captures, by file name (in the folder tree the test reads).
  static func captures(scratch: String) throws -> [(name: String, bytes: [UInt8])] {
    let indented = logShow(pid: 901).split(separator: "\n").map { "    " + $0 }.joined(
      separator: "\n")
    let chinese = consoleCopy(types: ["默认", "错误", "信息"])
    let german = consoleCopy(types: ["Standard", "Fehler", "Info"])
    let french = consoleCopy(types: ["Par défaut", "Erreur", "Info"])
    return [
      ("show/default.log", Array(logShow.utf8)),
      ("show/indented.txt", Array(indented.utf8)),
      ("show/stream-wrapped-100.log", Array(hardWrapped(logShow(pid: 902), width: 100).utf8)),
      ("show/stream-wrapped-73.log", Array(hardWrapped(logShow(pid: 903), width: 73).utf8)),
      ("show/bom.txt", [0xEF, 0xBB, 0xBF] + Array(logShow(pid: 904).utf8)),
      ("notepad/utf16le.txt", utf16(logShow(pid: 905), littleEndian: true, mark: true)),
      ("notepad/utf16be-no-mark.txt", utf16(logShow(pid: 906), littleEndian: false, mark: false)),
      ("packed/default.log.gz", try gzip(logShow(pid: 907), in: scratch)),
      ("packed/no-extension", try gzip(logShow(pid: 908), in: scratch)),
      ("console/zh.txt", Array(chinese.utf8)),
      ("console/de.txt", Array(german.utf8)),
      ("console/fr.txt", Array(french.utf8)),
    ]
  }

  @Test func aFolderOfCapturesInEveryFormReadsEachAsOneDevice() throws {
    let folder = try TemporaryDirectory("outcome-captures")
    let logs = folder.appending("tester-logs")
    var made = try Self.captures(scratch: folder.path)
    // A gzip of UTF-16 text: told apart twice.
    let packedUTF16 = folder.appending("utf16.txt")
    try Data(Self.utf16(Self.logShow(pid: 909), littleEndian: true, mark: true)).write(
      to: URL(fileURLWithPath: packedUTF16))
    let packing = try ToolRun.shell("gzip -c utf16.txt > utf16.txt.gz", in: folder.path)
    #expect(packing.exitCode == 0)
    made.append(
      ("packed/utf16.gz", Array(try Data(contentsOf: URL(fileURLWithPath: packedUTF16 + ".gz")))))
    for (name, bytes) in made {
      let path = logs + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    try Data([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]).write(
      to: URL(fileURLWithPath: logs + "/.DS_Store"))

    let run = ToolRunner.run(["outcomes", "--json", logs])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["inputs"] as? Int == made.count)
    #expect(json["weighed"] as? Int == made.count, "\(run.standardOutput)")
    #expect(json["tags"] as? Int == made.count * 2, "\(run.standardOutput)")
    #expect(json["unreadable"] as? Int == 0)
    #expect(json["incomplete"] as? Bool == false)
    #expect((json["unweighedInputs"] as? [String]) == [])
    let devices = try #require(json["devices"] as? [[String: Any]])
    #expect(devices.allSatisfy { $0["outcome"] as? String == "success" && $0["tags"] as? Int == 2 })
    let encodings = Dictionary(
      uniqueKeysWithValues: devices.compactMap { device -> (String, String)? in
        guard let input = device["input"] as? String, let encoding = device["encoding"] as? String
        else { return nil }
        return (String(input.dropFirst(logs.count + 1)), encoding)
      })
    #expect(
      encodings == [
        "notepad/utf16le.txt": "UTF-16LE", "notepad/utf16be-no-mark.txt": "UTF-16BE",
        "packed/default.log.gz": "gzip", "packed/no-extension": "gzip",
        "packed/utf16.gz": "gzip, UTF-16LE",
      ])
    #expect(
      run.standardError.contains(
        "note: \(logs): a folder of \(made.count) files, each read as one device (1 hidden file left out)"
      ))
  }

  @Test func binaryDataIsNeverACapture() throws {
    let folder = try TemporaryDirectory("outcome-binary")
    var generator = SeededGenerator(seed: 7)
    let random = (0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let braced = Array("{\"eventMessage\":\"".utf8) + random + Array(Self.auto.utf8)
    let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + random
    var inputs: [String] = []
    for (name, bytes) in [("random.bin", random), ("braced.ndjson", braced), ("image.png", png)] {
      let path = folder.appending(name)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      inputs.append(path)
    }
    let good = folder.appending("good.log")
    try Data(Self.logShow.utf8).write(to: URL(fileURLWithPath: good))
    let run = ToolRunner.run(["outcomes", "--json", good] + inputs)
    #expect(run.exitCode == 0)
    let json = try #require(run.json)
    #expect(json["tags"] as? Int == 2)
    #expect(json["weighed"] as? Int == 1)
    let problems = try #require(json["inputProblems"] as? [[String: Any]])
    #expect(problems.map { $0["input"] as? String } == inputs)
    #expect(problems.allSatisfy { $0["problemCode"] as? String == "binary" })
    for input in inputs {
      #expect(run.standardError.contains("warning: \(input): not text (binary data)"))
    }
    // Not counted in any style.
    let text = ToolRunner.run(["outcomes"] + inputs)
    #expect(text.standardOutput.contains("Inputs: 3 (not text 3)\n"), "\(text.standardOutput)")
  }

  @Test func mentionsThatCannotBeReadAreSaidPerFileAndTheSampleIsIncomplete() throws {
    let folder = try TemporaryDirectory("outcome-unreadable")
    let odd = folder.appending("asl.log")
    try Data(
      [
        "Nov 30 10:00:00 iPhone Ditto[812] <Notice>: \(Self.auto)",
        "Nov 30 10:05:00 iPhone Ditto[812] <Notice>: \(Self.manual)",
        "Nov 30 10:06:00 iPhone Ditto[812] <Notice>: \(Self.manual)",
      ].joined(separator: "\n").utf8
    ).write(to: URL(fileURLWithPath: odd))
    let good = folder.appending("good.log")
    try Data(Self.logShow.utf8).write(to: URL(fileURLWithPath: good))
    let cut = folder.appending("cut.log.gz")
    let packed = try Self.gzip(Self.logShow, in: folder.path)
    try Data(packed.prefix(packed.count - 6)).write(to: URL(fileURLWithPath: cut))

    let run = ToolRunner.run(["outcomes", "--json", good, odd, cut])
    #expect(run.exitCode == 0)
    #expect(
      run.standardError.contains(
        "warning: \(odd): 3 mentions of migration_outcome could not be read"))
    #expect(run.standardError.contains("warning: \(cut): gzip data damaged"))
    let json = try #require(run.json)
    #expect(json["unreadable"] as? Int == 3)
    #expect(json["incomplete"] as? Bool == true)
    let problems = try #require(json["inputProblems"] as? [[String: Any]])
    #expect(problems.map { $0["input"] as? String } == [odd, cut])
    #expect(problems.first?["unreadableMentions"] as? Int == 3)
    #expect(problems.last?["problemCode"] as? String == "damaged_gzip")

    let text = ToolRunner.run(["outcomes", good, odd, cut])
    #expect(text.standardOutput.contains(", 3 could not be read\n"))
    #expect(text.standardOutput.contains("Incomplete: the sample is incomplete: 3 mentions"))
    #expect(text.standardOutput.contains("on an incomplete sample"))
  }
}
