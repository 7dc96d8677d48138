import DittoStore
import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// `outcomes` through the built binary over one capture of three tags saved six ways: every tag
/// read, nothing counted as unreadable, the verdict complete.
@Suite struct CaptureFormsThroughTheToolTests {
  static let lines: [String] = {
    let prefix =
      "0x2f1a0c   Default     0x0                  812    0    Ditto: [io.kern.ditto:LegacyDataMigrator] "
    let tags = [
      "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0",
      "migration_outcome source=manual outcome=success categories=4 dittos=28 inserted=28 salvaged=28",
      "migration_outcome source=manual outcome=no_new_data categories=4 dittos=28 inserted=0",
    ]
    return [
      "Timestamp                       Thread     Type        Activity             PID    TTL  "
    ]
      + tags.enumerated().map {
        "2026-11-30 08:0\($0.offset + 1):00.000001-0800 " + prefix + $0.element
      }
  }()

  /// Hard wrap at `width`, cutting words.
  static func fold(_ width: Int) -> String {
    lines.flatMap { line -> [String] in
      stride(from: 0, to: line.count, by: width).map {
        String(line.dropFirst($0).prefix(width))
      }
    }.joined(separator: "\n") + "\n"
  }

  static var forms: [String: [UInt8]] {
    let ends = ["\n", "\r", "\r\n"]
    let rtfBody = lines.map {
      $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "{", with: "\\{")
        .replacingOccurrences(of: "}", with: "\\}")
    }.joined(separator: "\\\n")
    // The tag word cut in the middle: the wrap falls inside "migration_outcome".
    let cut = lines[1].range(of: "migration_out")!.upperBound.utf16Offset(in: lines[1])
    return [
      "cr-only.log": Array((lines.joined(separator: "\r") + "\r").utf8),
      "mixed.log": Array(lines.enumerated().map { $0.element + ends[$0.offset % 3] }.joined().utf8),
      "textedit.rtf": Array(
        ("{\\rtf1\\ansi\\ansicpg1252\\cocoartf2761\n{\\fonttbl\\f0\\fmodern\\fcharset0 Courier;}\n{\\colortbl;\\red255\\green255\\blue255;}\n\\pard\\f0\\fs24 \\cf0 "
          + rtfBody + "}").utf8),
      "wrapped-100.log": Array(fold(100).utf8),
      "wrapped-72.log": Array(fold(72).utf8),
      "tag-split.log": Array(fold(cut).utf8),
    ]
  }

  @Test func everyFormGivesTheSameThreeTags() throws {
    let folder = try TemporaryDirectory("capture-forms")
    for (name, bytes) in Self.forms {
      let path = folder.appending(name)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let run = try ToolRunner.runProcess(["outcomes", path, "--json"])
      #expect(run.exitCode == 0, "\(name): \(run.standardError)")
      #expect(run.json?["tags"] as? Int == 3, "\(name): \(run.standardError)")
      #expect(run.json?["unreadable"] as? Int == 0, "\(name)")
      #expect(run.json?["incomplete"] as? Bool == false, "\(name)")
      #expect(!run.standardError.contains("warning:"), "\(name): \(run.standardError)")
    }
  }
}
