import EngineTestSupport
import Foundation
import LogArchiveFixtures
import TestSupport
import Testing

/// Testers' archives straight from the device: `outcomes` reads them as it reads the same entries
/// captured as text, and `logs` prints them.
@Suite struct LogArchiveCommandTests {
  typealias Entry = LogArchiveWriter.Entry

  /// One device's entries: its tags (auto then manual), and noise around them.
  static func device(_ outcomes: [String], seed: Int) -> [Entry] {
    var entries: [Entry] = []
    var time: UInt64 = 2_000_000_000
    for (index, outcome) in outcomes.enumerated() {
      let source = index == 0 ? "auto" : "manual"
      entries.append(
        Entry(
          offsetNanoseconds: time, level: index % 2 == 0 ? 0x00 : 0x01,
          message:
            "migration_outcome source=\(source) outcome=\(outcome) categories=\(seed) dittos=\(seed * 7) inserted=\(outcome == "success" ? seed * 7 : 0)"
        ))
      time += 3_000_000_000
      entries.append(
        Entry(
          offsetNanoseconds: time, level: 0x00, message: "inventory[appgroup] 4096B /Ditto.sqlite"))
      time += 1_000_000
      entries.append(
        Entry(
          offsetNanoseconds: time, pid: 77, level: 0x00, subsystem: "com.example.other",
          category: "x",
          message:
            "migration_outcome source=auto outcome=nothing_on_disk categories=0 dittos=0 inserted=0"
        ))
      time += 1_000_000
    }
    return entries
  }

  /// The same entries as `log show` prints them (default style), written by hand here.
  static func text(_ entries: [Entry], writer: LogArchiveWriter) -> String {
    var lines = [
      "Timestamp                       Thread     Type        Activity             PID    TTL  "
    ]
    for entry in entries.sorted(by: { $0.offsetNanoseconds < $1.offsetNanoseconds }) {
      let nanoseconds = writer.bootWallClock + Int64(entry.offsetNanoseconds)
      let date = Date(timeIntervalSince1970: Double(nanoseconds / 1000) / 1_000_000)
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSSSSZ"
      let type = entry.messageType.padding(toLength: 11, withPad: " ", startingAt: 0)
      let process = entry.pid == 77 ? "other" : "Ditto"
      let pid = String(entry.pid).padding(toLength: 6, withPad: " ", startingAt: 0)
      lines.append(
        "\(formatter.string(from: date)) 0x1a2b     \(type) 0x0                  \(pid) 0    \(process): [\(entry.subsystem ?? ""):\(entry.category)] \(entry.message)"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let devices: [[String]] = [
    ["found_unreadable", "success"], ["no_new_data"], ["nothing_on_disk", "success"],
  ]

  @Test func threeArchivesGiveTheSameReportAsTheSameEntriesAsText() throws {
    let folder = try TemporaryDirectory("outcomes-archives")
    let writer = LogArchiveWriter(entriesPerChunkSet: 4)
    var archives: [String] = []
    var texts: [String] = []
    for (index, outcomes) in Self.devices.enumerated() {
      let entries = Self.device(outcomes, seed: index + 2)
      let text = folder.appending("device-\(index).log")
      try Self.text(entries, writer: writer).write(toFile: text, atomically: true, encoding: .utf8)
      texts.append(text)
      switch index {
      case 1:
        // A sysdiagnose, named by its content only (no .tar.gz suffix needed).
        let path = folder.appending("sysdiagnose-\(index).tar.gz")
        try Data(writer.sysdiagnose(entries)).write(to: URL(fileURLWithPath: path))
        archives.append(path)
      default:
        let path = folder.appending("device-\(index).logarchive")
        try writer.writeLogArchive(entries, at: path)
        archives.append(path)
      }
    }
    let fromArchives = ToolRunner.run(["outcomes", "--json"] + archives)
    let fromText = ToolRunner.run(["outcomes", "--json"] + texts)
    #expect(fromArchives.exitCode == 0, "\(fromArchives.standardError)")
    #expect(fromText.exitCode == 0, "\(fromText.standardError)")
    var archiveJSON = try #require(fromArchives.json)
    var textJSON = try #require(fromText.json)
    func canonical(_ value: Any?) -> String {
      guard let value, JSONSerialization.isValidJSONObject([value]),
        let data = try? JSONSerialization.data(withJSONObject: [value], options: .sortedKeys)
      else { return "\(String(describing: value))" }
      return String(decoding: data, as: UTF8.self)
    }
    for key in ["byOutcome", "bySource", "tags", "total", "verdict", "sums", "tagSums", "weighed"] {
      #expect(canonical(archiveJSON[key]) == canonical(textJSON[key]), "\(key)")
    }
    func devices(_ json: [String: Any]) -> [String] {
      ((json["devices"] as? [[String: Any]]) ?? []).map { device in
        var copy = device
        copy["input"] = nil
        return canonical(copy)
      }
    }
    #expect(devices(archiveJSON).count == 3)
    #expect(devices(archiveJSON) == devices(textJSON))
    #expect(archiveJSON["incomplete"] as? Bool == false)
    #expect(fromArchives.standardError.contains("read as one device"))
    archiveJSON = [:]
    textJSON = [:]
  }

  @Test func aDamagedArchiveIsNamedAndMakesTheVerdictIncomplete() throws {
    let folder = try TemporaryDirectory("outcomes-damaged")
    let writer = LogArchiveWriter(entriesPerChunkSet: 2)
    let path = folder.appending("cut.logarchive")
    let files = try writer.writeLogArchive(
      Self.device(["success", "no_new_data"], seed: 3), at: path)
    let name = "Persist/0000000000000003.tracev3"
    let whole = try #require(files[name])
    try Data(whole.prefix(whole.count - 30)).write(to: URL(fileURLWithPath: path + "/" + name))
    let run = ToolRunner.run(["outcomes", "--json", path])
    let json = try #require(run.json)
    #expect(json["incomplete"] as? Bool == true)
    let problems = try #require(json["inputProblems"] as? [[String: Any]])
    #expect(problems.first?["problemCode"] as? String == "damaged_archive")
    #expect((problems.first?["problem"] as? String)?.contains(name) == true)
    #expect(run.standardError.contains(name))
  }

  @Test func aFolderOfArchivesIsOneDevicePerArchive() throws {
    let folder = try TemporaryDirectory("outcomes-folder")
    let writer = LogArchiveWriter()
    try writer.writeLogArchive(
      Self.device(["success"], seed: 1), at: folder.appending("testers/a.logarchive"))
    try writer.writeLogArchive(
      Self.device(["no_new_data"], seed: 2), at: folder.appending("testers/b.logarchive"))
    // An archive unpacked under another name is one device too.
    try writer.writeLogArchive(
      Self.device(["empty_store"], seed: 3), at: folder.appending("testers/c/logs"))
    let run = ToolRunner.run(["outcomes", "--json", folder.appending("testers")])
    #expect(run.exitCode == 0, "\(run.standardError)")
    let json = try #require(run.json)
    #expect(json["inputs"] as? Int == 3)
    let devices = try #require(json["devices"] as? [[String: Any]])
    #expect(devices.count == 3)
    #expect(
      devices.compactMap { $0["outcome"] as? String }.sorted() == [
        "empty_store", "no_new_data", "success",
      ])
  }

  @Test func logsPrintsAnArchiveAsLogShowDoes() throws {
    let folder = try TemporaryDirectory("logs-command")
    let writer = LogArchiveWriter()
    let entries = Self.device(["success", "no_new_data"], seed: 4)
    let path = folder.appending("device.logarchive")
    try writer.writeLogArchive(entries, at: path)
    let json = ToolRunner.run(["logs", "--json", path])
    #expect(json.exitCode == 0, "\(json.standardError)")
    let objects = json.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.count == entries.count)
    for key in [
      "timestamp", "machTimestamp", "eventType", "messageType", "processID", "threadID",
      "subsystem",
      "category", "formatString", "eventMessage",
    ] {
      #expect(objects.allSatisfy { $0.keys.contains(key) }, "\(key)")
    }
    let filtered = ToolRunner.run([
      "logs", "--subsystem", "io.kern.ditto", "--category", "LegacyDataMigrator", path,
    ])
    let lines = filtered.standardOutput.split(separator: "\n")
    #expect(lines.first?.hasPrefix("Timestamp ") == true)
    #expect(lines.count == 1 + entries.filter { $0.subsystem == "io.kern.ditto" }.count)
    #expect(
      lines.dropFirst().allSatisfy { $0.contains("Ditto: [io.kern.ditto:LegacyDataMigrator] ") })
    let notAnArchive = folder.appending("notes.txt")
    try "hello\n".write(toFile: notAnArchive, atomically: true, encoding: .utf8)
    let refused = ToolRunner.run(["logs", notAnArchive])
    #expect(refused.exitCode == 66)
    #expect(refused.standardError.contains("notes.txt: not a unified-log archive"))
  }

  @Test func logsSaysWhatItCouldNotReadAndExits65() throws {
    let folder = try TemporaryDirectory("logs-damaged")
    var bytes = LogArchiveWriter().sysdiagnose(Self.device(["success"], seed: 1), gzip: false)
    bytes.removeLast(1500)
    let path = folder.appending("s.tar")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let run = ToolRunner.run(["logs", path])
    #expect(run.exitCode == 65)
    #expect(run.standardError.contains("warning: \(path): "))
  }
}

/// A zip of captures, as testers attach them: every file in it is one device, read from the
/// archive (stored or deflated), and the report is the one of the same files given directly.
@Suite struct ZipOfCapturesTests {
  static func capture(_ outcome: String, _ seed: Int) -> [UInt8] {
    Array(
      "2025-03-14 09:12:0\(seed).512345-0700  localhost Ditto[1234]: [io.kern.ditto:LegacyDataMigrator] migration_outcome source=auto outcome=\(outcome) categories=\(seed) dittos=\(seed * 3) inserted=0\n"
        .utf8)
  }

  @Test func aZipOfCapturesReadsAsItsFiles() throws {
    let folder = try TemporaryDirectory("outcomes-zip")
    let files: [(String, [UInt8])] = [
      ("tester-1.log", Self.capture("no_new_data", 1)),
      ("logs/tester-2.log", Self.capture("success", 2)),
    ]
    let zip = folder.appending("captures.zip")
    try Data(
      ZipWriter.archive(
        files.enumerated().map { ($1.0, $1.1, $0 == 1) } + [
          ("__MACOSX/._tester-1.log", [0, 1], false)
        ])
    ).write(to: URL(fileURLWithPath: zip))
    var plain: [String] = []
    for (name, bytes) in files {
      let path = folder.appending(name.replacingOccurrences(of: "/", with: "-"))
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      plain.append(path)
    }
    let fromZip = ToolRunner.run(["outcomes", "--json", zip])
    let direct = ToolRunner.run(["outcomes", "--json"] + plain)
    #expect(fromZip.exitCode == 0, "\(fromZip.standardError)")
    let zipJSON = try #require(fromZip.json)
    let directJSON = try #require(direct.json)
    #expect(zipJSON["inputs"] as? Int == 2)
    #expect((zipJSON["byOutcome"] as? [String: Int]) == (directJSON["byOutcome"] as? [String: Int]))
    let devices = try #require(zipJSON["devices"] as? [[String: Any]])
    #expect(
      devices.compactMap { $0["input"] as? String } == [
        zip + ":tester-1.log", zip + ":logs/tester-2.log",
      ])
    #expect(fromZip.standardError.contains("a zip of 2 captures, each read as one device"))
  }

  @Test func aDamagedEntryIsItsDevicesProblemAndAZipThatIsNotOneIsNamed() throws {
    let folder = try TemporaryDirectory("outcomes-zip-damaged")
    var bytes = ZipWriter.archive([("a.log", Self.capture("success", 1), false)])
    // One byte of the stored data changed: its CRC-32 no longer matches.
    let at = try #require(bytes.firstIndex(of: UInt8(ascii: "m")))
    bytes[at] = UInt8(ascii: "M")
    let zip = folder.appending("damaged.zip")
    try Data(bytes).write(to: URL(fileURLWithPath: zip))
    let run = ToolRunner.run(["outcomes", "--json", zip])
    let json = try #require(run.json)
    #expect(json["incomplete"] as? Bool == true)
    let problems = try #require(json["inputProblems"] as? [[String: Any]])
    #expect((problems.first?["problem"] as? String)?.contains("bad CRC-32") == true)
    let cut = folder.appending("cut.zip")
    try Data(bytes.prefix(20)).write(to: URL(fileURLWithPath: cut))
    let refused = ToolRunner.run(["outcomes", cut])
    #expect(refused.exitCode == 66)
    #expect(refused.standardError.contains("cut.zip: no end of central directory"))
  }
}
