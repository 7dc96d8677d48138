import Foundation
import Testing

@testable import OutcomeReport

/// The --html page read on a phone: rendered by a real browser (headless Chromium, which
/// `scripts/setup` installs from Debian; Google Chrome on a Mac) 375 pixels wide, nothing runs
/// off the side (the page, and no table hidden in a horizontal scroll), and each device's input
/// gets the whole width instead of one character per line.
@Suite struct PhoneWidthTests {
  /// The browser to render with: Debian's `chromium`, or Chrome where a Mac keeps it.
  static func browser() throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
    for folder in path.split(separator: ":") {
      for name in names where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
        return "\(folder)/\(name)"
      }
    }
    let mac = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
    if FileManager.default.isExecutableFile(atPath: mac) { return mac }
    throw BrowserMissing()
  }

  struct BrowserMissing: Error, CustomStringConvertible {
    let description =
      "no Chromium or Chrome to render the page: run scripts/setup (it installs Debian's chromium)"
  }

  /// A page with every part the report can have: devices decided, pending and without a tag, long
  /// input paths, later manual attempts, an incomplete sample.
  static func page() throws -> String {
    var scanner = OutcomeScanner()
    let folder =
      "/Users/someone/Library/Mobile Documents/com~apple~CloudDocs/Ditto beta/tester-logs"
    for name in Samples.names {
      scanner.beginInput(name: "\(folder)/\(name)")
      scanner.consume(try Samples.bytes(name))
    }
    scanner.beginInput(
      name: "\(folder)/a-very-long-file-name-without-any-break-sent-by-a-tester.log")
    scanner.consume(
      Array(
        "migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=locked\nNov 30 10:00:00 iPhone Ditto[1] <Notice>: migration_outcome source=auto\n"
          .utf8))
    return scanner.finish().htmlReport()
  }

  /// Renders `page` in an iframe 375 pixels wide and returns what the page measured there.
  static func measure(_ page: String, width: Int) throws -> [String: Any] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ditto-phone-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var escaped = ""
    for scalar in page.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "\"": escaped += "&quot;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    // The report itself has no script; the measuring script is in the test's own wrapper.
    let wrapper = """
      <!doctype html><html><body style="margin:0">
      <iframe id="f" style="width:\(width)px;height:812px;border:0" srcdoc="\(escaped)"></iframe>
      <script>
      document.getElementById("f").addEventListener("load", function () {
        var d = this.contentDocument;
        var page = d.scrollingElement;
        var boxes = [...d.querySelectorAll(".scroll, table")].map(function (e) {
          return [e.scrollWidth, e.clientWidth];
        });
        var inputs = [...d.querySelectorAll("td.input")].map(function (e) {
          return Math.round(e.getBoundingClientRect().width);
        });
        document.body.setAttribute("data-measure", JSON.stringify({
          scrollWidth: page.scrollWidth, viewport: this.contentWindow.innerWidth,
          boxes: boxes, inputs: inputs }));
      });
      </script></body></html>
      """
    let file = folder.appendingPathComponent("wrapper.html")
    try Data(wrapper.utf8).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try browser())
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--user-data-dir=" + folder.appendingPathComponent("profile").path,
      "--virtual-time-budget=5000", "--dump-dom", file.absoluteString,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let start = dom.range(of: "data-measure=\""),
      let end = dom[start.upperBound...].firstIndex(of: "\"")
    else { throw Unmeasured(dom: String(dom.prefix(500))) }
    let json = String(dom[start.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&amp;", with: "&")
    return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
  }

  struct Unmeasured: Error, CustomStringConvertible {
    let dom: String
    var description: String { "the browser did not measure the page: \(dom)" }
  }

  @Test func thePageReadsOnA375PixelScreen() throws {
    let measured = try Self.measure(try Self.page(), width: 375)
    let viewport = try #require(measured["viewport"] as? Int)
    #expect(viewport == 375)
    let scrollWidth = try #require(measured["scrollWidth"] as? Int)
    #expect(scrollWidth <= 375, "the page is \(scrollWidth) pixels wide")
    let boxes = try #require(measured["boxes"] as? [[Int]])
    #expect(!boxes.isEmpty)
    for box in boxes { #expect(box[0] <= box[1], "a table runs \(box[0] - box[1]) pixels over") }
    let inputs = try #require(measured["inputs"] as? [Int])
    #expect(inputs.count >= 10)
    for width in inputs { #expect(width >= 300, "a device's input is only \(width) pixels wide") }
  }
}
