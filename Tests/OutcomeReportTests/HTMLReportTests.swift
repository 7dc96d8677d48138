import Foundation
import Telemetry
import Testing

@testable import OutcomeReport

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The --html page: well-formed, one bar per outcome with heights proportional to the shares,
/// self-contained, and free of log text.
struct HTMLReportTests {
  /// Elements of a parsed page, in document order, with their attributes.
  final class Collector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var svgDepth = 0
    var svgCount = 0
    var rectsInFirstSVG: [[String: String]] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      elements.append((name, attributes))
      if name == "svg" {
        svgDepth += 1
        svgCount += 1
      }
      if name == "rect", svgCount == 1, svgDepth > 0 { rectsInFirstSVG.append(attributes) }
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      if name == "svg" { svgDepth -= 1 }
    }
  }

  static func parse(_ html: String) throws -> Collector {
    let parser = XMLParser(data: Data(html.utf8))
    let collector = Collector()
    parser.delegate = collector
    let parsed = parser.parse()
    #expect(parsed, "\(String(describing: parser.parserError))")
    return collector
  }

  /// Four devices: 2 success (one retried), 1 nothing_on_disk, 1 found_unreadable then salvaged.
  static func cohort() -> OutcomeSummary {
    let secret = "Buy milk <b>&amp; call Mum</b>"
    let noise =
      "2025-03-14 09:00:00.000001-0700 0x1   Default     0x0      1234   0    Ditto: "
      + "[io.kern.ditto:Inventory] \(secret)"
    return scan(
      noise + "\n" + DeviceReductionTests.entry("09:01:00", tag(.auto, .success)) + "\n"
        + DeviceReductionTests.entry("09:02:00", tag(.auto, .success)),
      tag(.auto, .success),
      tag(.auto, .nothingOnDisk) + " error=\(secret)",
      tag(.auto, .foundUnreadable) + "\n"
        + "migration_outcome source=manual outcome=success categories=1 dittos=9 inserted=9 salvaged=9"
    )
  }

  @Test func pageIsWellFormed() throws {
    let page = Self.cohort().htmlReport()
    let collector = try Self.parse(page)
    #expect(collector.elements.first?.name == "html")
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(collector.elements.contains { $0.name == "table" })
  }

  @Test func oneBarPerOutcomeWithHeightsProportionalToShares() throws {
    let summary = Self.cohort()
    let collector = try Self.parse(summary.htmlReport())
    let bars = collector.rectsInFirstSVG
    #expect(bars.count == MigrationOutcome.allCases.count)
    #expect(bars.map { $0["data-outcome"] ?? "" } == MigrationOutcome.allCases.map(\.rawValue))
    let heights = bars.map { Double($0["height"] ?? "") ?? -1 }
    let total = Double(summary.weighedCounts.total)
    let tallest = try #require(heights.max())
    #expect(tallest > 0)
    #expect(summary.weighedCounts == counts([.success: 2, .nothingOnDisk: 1, .foundUnreadable: 1]))
    for (outcome, height) in zip(MigrationOutcome.allCases, heights) {
      let share = Double(summary.weighedCounts[outcome]) / total
      let maxShare = Double(summary.weighedCounts[.success]) / total
      #expect(abs(height / tallest - share / maxShare) < 0.001, "\(outcome)")
    }
    // Every <rect> of the page is a bar.
    #expect(collector.elements.filter { $0.name == "rect" }.count == bars.count)
  }

  @Test func whiskersCarryTheIntervals() throws {
    let summary = Self.cohort()
    let collector = try Self.parse(summary.htmlReport())
    let whiskers = collector.elements.filter {
      $0.name == "g" && $0.attributes["class"] == "whisker" && $0.attributes["data-outcome"] != nil
    }
    #expect(whiskers.count == MigrationOutcome.allCases.count)
    let success = try #require(whiskers.first { $0.attributes["data-outcome"] == "success" })
    let interval = summary.interval(.success)
    #expect(
      Double(success.attributes["data-lower"] ?? "")
        == Double(OutcomeSummary.number(interval.lower)))
    #expect(
      Double(success.attributes["data-upper"] ?? "")
        == Double(OutcomeSummary.number(interval.upper)))
  }

  @Test func showsVerdictReadingsAndDevices() throws {
    let summary = Self.cohort()
    let page = summary.htmlReport()
    #expect(page.contains("Verdict: \(summary.verdict.rawValue)"))
    #expect(page.contains(OutcomeSummary.escape(summary.verdict.recommendation)))
    let collector = try Self.parse(page)
    let thresholds = collector.elements.filter { $0.attributes["class"] == "threshold" }
    #expect(thresholds.map { $0.attributes["data-threshold"] } == ["0.6", "0.6"])
    #expect(page.contains("success inserted=9 salvaged=9"))
    // Why, and (too few to tell) what to collect next.
    #expect(page.contains(OutcomeSummary.escape(summary.assessment.reason(noun: "device"))))
    if summary.verdict == .tooFew {
      #expect(page.contains("Collect next: the logs of about"))
    }
    #expect(
      collector.elements.filter { $0.name == "tr" }.count >= 4 + MigrationOutcome.allCases.count)
  }

  @Test func carriesNoUserContentAndLoadsNothing() {
    let page = Self.cohort().htmlReport()
    for fragment in ["Buy milk", "Mum", "error=", "<script", "src=", "href=", "@import", "url("] {
      #expect(!page.contains(fragment), "\(fragment)")
    }
    let links = page.components(separatedBy: "http").count - 1
    let namespaces = page.components(separatedBy: "xmlns=\"http://www.w3.org/").count - 1
    #expect(links == namespaces)
  }

  @Test func inputNamesAreEscaped() throws {
    var scanner = OutcomeScanner()
    scanner.beginInput(name: "a&b <c>.log")
    scanner.consume(Array(tag(.auto, .success).utf8))
    let page = scanner.finish().htmlReport()
    #expect(page.contains("a&amp;b &lt;c&gt;.log"))
    _ = try Self.parse(page)
  }

  @Test func emptyReportIsStillAPage() throws {
    var scanner = OutcomeScanner()
    let collector = try Self.parse(scanner.finish().htmlReport())
    #expect(collector.rectsInFirstSVG.count == MigrationOutcome.allCases.count)
    #expect(collector.rectsInFirstSVG.allSatisfy { $0["height"] == "0" })
  }
}
