import Telemetry

// THE --html PAGE (pinned by HTMLReportTests)
//
//   PART                 WHAT                                               DRAWN WITH
//   verdict              the verdict, its headline, recommendation, rule    HTML
//   outcome chart        one bar per outcome, height ∝ share, whiskers      the page's first <svg>: its only
//                        for the interval, axis 0–100%                      <rect> elements are the bars
//   readings             recoverable and gone shares, intervals and         one small <svg> each, of <line>s
//                        their thresholds, each under an HTML caption       and <text> only
//   tables               outcomes (count, share, interval), devices         HTML tables
//
// One self-contained file: well-formed XHTML (it parses as XML), inline CSS and SVG, no script, no
// link to anything. It holds codes, counts and the input names given on the command line, never a
// log message. The layout is one column that scales to a phone's width; print keeps the colours.

extension OutcomeSummary {
  /// The report as one self-contained HTML page (XHTML syntax, inline SVG and CSS, no script):
  /// the verdict and its recommendation, a bar per outcome with its interval as whiskers, the two
  /// readings against their thresholds, and the outcome and device tables.
  package func htmlReport() -> String {
    let assessment = assessment
    let confidence = VerdictRule.percent(rule.confidence, decimals: false)
    let noun = unit == .device ? "device" : "tag"
    var page: [String] = []
    page.append("<!DOCTYPE html>")
    page.append(#"<html xmlns="http://www.w3.org/1999/xhtml" lang="en">"#)
    page.append("<head>")
    page.append(#"<meta charset="utf-8"/>"#)
    page.append(#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#)
    page.append("<title>Ditto 3.0.2 migration outcomes: \(assessment.verdict.rawValue)</title>")
    page.append("<style>" + Self.css + "</style>")
    page.append("</head>")
    page.append("<body>")
    page.append("<main>")
    page.append("<h1>Ditto 3.0.2 migration outcomes</h1>")
    page.append(
      #"<p class="meta">"#
        + Self.escape(
          "\(Self.plural(assessment.sample, noun)) weighed · \(Self.plural(inputs, "input")) · \(Self.plural(total, "valid tag"))"
            + " · \(malformed) malformed · \(duplicates) repeated lines dropped (entries already counted)"
            + " · \(confidence) Wilson score intervals") + "</p>")
    page.append(
      #"<section class="verdict verdict-\#(assessment.verdict.rawValue)">"#)
    page.append(
      "<h2>Verdict: \(assessment.verdict.rawValue) <span class=\"headline\">("
        + Self.escape(assessment.verdict.headline) + ")</span></h2>")
    page.append(#"<p class="reason">"# + Self.escape(assessment.reason(noun: noun)) + "</p>")
    page.append(
      #"<p class="recommendation">"# + Self.escape(assessment.verdict.recommendation) + "</p>")
    if let next = assessment.collectNext(noun: noun) {
      page.append(#"<p class="collect">"# + Self.escape(next) + "</p>")
    }
    page.append(#"<p class="rule">Rule: "# + Self.escape(rule.summary(unit: unit)) + "</p>")
    if let note = pendingNote {
      page.append(#"<p class="pending">Pending: "# + Self.escape(note) + "</p>")
    }
    if let note = incompleteNote {
      page.append(#"<p class="incomplete">Incomplete: "# + Self.escape(note) + "</p>")
    }
    page.append("</section>")

    page.append(#"<section class="outcomes">"#)
    page.append("<h2>Outcomes by \(noun)</h2>")
    page += outcomeChart()
    page += outcomeTable()
    page.append("</section>")

    page.append(#"<section class="readings">"#)
    page.append("<h2>The two readings</h2>")
    page += readingsChart(assessment)
    page.append("</section>")

    if unit == .device, !devices.isEmpty {
      page.append(#"<section class="devices">"#)
      page.append("<h2>Devices</h2>")
      page += deviceTable()
      page.append("</section>")
    }
    page.append(
      #"<p class="foot">ditto-recover outcomes · unit \#(unit.rawValue) · denominator \#(rule.denominator.rawValue)</p>"#
    )
    page.append("</main>")
    page.append("</body>")
    page.append("</html>")
    return page.joined(separator: "\n") + "\n"
  }

  // MARK: - Charts

  /// Chart geometry, in SVG user units.
  private enum Chart {
    static let width = 480.0
    static let plotTop = 30.0
    static let plotHeight = 200.0
    static let left = 44.0
    static var baseline: Double { plotTop + plotHeight }
    static var slot: Double { (width - left - 8) / Double(MigrationOutcome.allCases.count) }
    static let barWidth = 40.0
  }

  private func outcomeChart() -> [String] {
    let counts = weighedCounts
    let all = counts.total
    var svg: [String] = []
    svg.append(
      #"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 480 290" role="img" aria-labelledby="chart-title">"#
    )
    svg.append(
      #"<title id="chart-title">Share of \#(unit.plural) by outcome, with \#(VerdictRule.percent(rule.confidence, decimals: false)) intervals</title>"#
    )
    for tick in stride(from: 0, through: 100, by: 25) {
      let y = Chart.baseline - Chart.plotHeight * Double(tick) / 100
      svg.append(
        #"<line class="grid" x1="\#(Chart.left)" y1="\#(Self.n(y))" x2="\#(Chart.width - 4)" y2="\#(Self.n(y))"/>"#
      )
      svg.append(
        #"<text class="tick" x="\#(Chart.left - 6)" y="\#(Self.n(y + 4))" text-anchor="end">\#(tick)%</text>"#
      )
    }
    for (index, outcome) in MigrationOutcome.allCases.enumerated() {
      let share = all == 0 ? 0 : Double(counts[outcome]) / Double(all)
      let height = share * Chart.plotHeight
      let centre = Chart.left + Chart.slot * (Double(index) + 0.5)
      let x = centre - Chart.barWidth / 2
      svg.append(
        #"<rect class="bar o-\#(outcome.rawValue)" data-outcome="\#(outcome.rawValue)" data-count="\#(counts[outcome])" data-share="\#(Self.number(share))" x="\#(Self.n(x))" y="\#(Self.n(Chart.baseline - height))" width="\#(Self.n(Chart.barWidth))" height="\#(Self.n(height))"/>"#
      )
      if all > 0 {
        let range = interval(outcome)
        let low = Chart.baseline - range.lower * Chart.plotHeight
        let high = Chart.baseline - range.upper * Chart.plotHeight
        svg.append(
          #"<g class="whisker" data-outcome="\#(outcome.rawValue)" data-lower="\#(Self.number(range.lower))" data-upper="\#(Self.number(range.upper))">"#
            + #"<line x1="\#(Self.n(centre))" y1="\#(Self.n(low))" x2="\#(Self.n(centre))" y2="\#(Self.n(high))"/>"#
            + #"<line x1="\#(Self.n(centre - 8))" y1="\#(Self.n(low))" x2="\#(Self.n(centre + 8))" y2="\#(Self.n(low))"/>"#
            + #"<line x1="\#(Self.n(centre - 8))" y1="\#(Self.n(high))" x2="\#(Self.n(centre + 8))" y2="\#(Self.n(high))"/>"#
            + "</g>")
      }
      let label = all == 0 ? "-" : VerdictRule.percent(share)
      svg.append(
        #"<text class="value" x="\#(Self.n(centre))" y="\#(Self.n(Chart.plotTop - 12))" text-anchor="middle">\#(label)</text>"#
      )
      let words = Self.labelLines(outcome.rawValue)
      var text =
        #"<text class="label" x="\#(Self.n(centre))" y="\#(Self.n(Chart.baseline + 18))" text-anchor="middle">"#
      for (line, word) in words.enumerated() {
        text += #"<tspan x="\#(Self.n(centre))" dy="\#(line == 0 ? 0 : 15)">\#(word)</tspan>"#
      }
      svg.append(text + "</text>")
    }
    svg.append(
      #"<line class="axis" x1="\#(Chart.left)" y1="\#(Chart.baseline)" x2="\#(Chart.width - 4)" y2="\#(Chart.baseline)"/>"#
    )
    svg.append("</svg>")
    return svg
  }

  /// `found_unreadable` as `found` / `unreadable`: two lines under a bar.
  private static func labelLines(_ code: String) -> [String] {
    guard let underscore = code.firstIndex(of: "_") else { return [code] }
    return [String(code[..<underscore]), String(code[code.index(after: underscore)...])]
  }

  private func readingsChart(_ assessment: VerdictAssessment) -> [String] {
    let rows: [(String, String, Int, WilsonInterval, Double)] = [
      (
        "success + no_new_data", "recoverable", assessment.recoverableCount,
        assessment.recoverableInterval, rule.recoverableThreshold
      ),
      (
        "nothing_on_disk", "gone", assessment.goneCount, assessment.goneInterval,
        rule.goneThreshold
      ),
    ]
    let left = 12.0
    let span = 456.0
    let y = 20.0
    var html: [String] = []
    for (name, reading, count, range, threshold) in rows {
      let sample = assessment.sample
      let share = sample == 0 ? 0 : Double(count) / Double(sample)
      let met = sample >= rule.minimumSample && range.lower >= threshold
      html.append(
        #"<p class="caption"><strong>\#(reading)</strong> · \#(name): \#(count) of \#(sample) = "#
          + "\(VerdictRule.percent(share)), interval "
          + Self.escape(OutcomeSummary.range(range, separator: " to "))
          + "; lower bound \(met ? "reaches" : "below") \(VerdictRule.percent(threshold))</p>")
      html.append(
        #"<svg xmlns="http://www.w3.org/2000/svg" class="reading" data-reading="\#(reading)" viewBox="0 0 480 56" role="img" aria-label="\#(reading) share, interval and threshold">"#
      )
      html.append(
        #"<line class="track" x1="\#(left)" y1="\#(Self.n(y))" x2="\#(left + span)" y2="\#(Self.n(y))"/>"#
      )
      if share > 0 {
        html.append(
          #"<line class="share r-\#(reading)" x1="\#(left)" y1="\#(Self.n(y))" x2="\#(Self.n(left + span * share))" y2="\#(Self.n(y))"/>"#
        )
      }
      if sample > 0 {
        let low = left + span * range.lower
        let high = left + span * range.upper
        html.append(
          #"<g class="whisker" data-lower="\#(Self.number(range.lower))" data-upper="\#(Self.number(range.upper))">"#
            + #"<line x1="\#(Self.n(low))" y1="\#(Self.n(y))" x2="\#(Self.n(high))" y2="\#(Self.n(y))"/>"#
            + #"<line x1="\#(Self.n(low))" y1="\#(Self.n(y - 10))" x2="\#(Self.n(low))" y2="\#(Self.n(y + 10))"/>"#
            + #"<line x1="\#(Self.n(high))" y1="\#(Self.n(y - 10))" x2="\#(Self.n(high))" y2="\#(Self.n(y + 10))"/>"#
            + "</g>")
      }
      let mark = left + span * threshold
      html.append(
        #"<line class="threshold" data-threshold="\#(Self.number(threshold))" x1="\#(Self.n(mark))" y1="\#(Self.n(y - 15))" x2="\#(Self.n(mark))" y2="\#(Self.n(y + 15))"/>"#
      )
      html.append(
        #"<text class="tick" x="\#(Self.n(mark))" y="\#(Self.n(y + 31))" text-anchor="middle">threshold \#(VerdictRule.percent(threshold))</text>"#
      )
      html.append("</svg>")
    }
    return html
  }

  // MARK: - Tables

  private func outcomeTable() -> [String] {
    let counts = weighedCounts
    let auto = weighedCounts(for: .auto)
    let manual = weighedCounts(for: .manual)
    let all = counts.total
    let confidence = VerdictRule.percent(rule.confidence, decimals: false)
    var rows = [
      "<div class=\"scroll\"><table class=\"outcome-table\">",
      "<thead><tr><th>Outcome</th><th>Count</th><th>Share</th><th>\(confidence) interval</th>"
        + "<th class=\"src\">Auto</th><th class=\"src\">Manual</th></tr></thead>",
      "<tbody>",
    ]
    for outcome in MigrationOutcome.allCases {
      let share = all == 0 ? "-" : VerdictRule.percent(Double(counts[outcome]) / Double(all))
      let range = all == 0 ? "-" : OutcomeSummary.range(interval(outcome), separator: "–")
      rows.append(
        "<tr><td><span class=\"key o-\(outcome.rawValue)\"></span>\(outcome.rawValue)</td>"
          + "<td>\(counts[outcome])</td><td>\(share)</td><td>\(range)</td>"
          + "<td class=\"src\">\(auto[outcome])</td><td class=\"src\">\(manual[outcome])</td></tr>")
    }
    rows.append(
      "<tr class=\"all\"><td>all</td><td>\(all)</td><td>\(all == 0 ? "-" : "100.0%")</td><td></td>"
        + "<td class=\"src\">\(auto.total)</td><td class=\"src\">\(manual.total)</td></tr>")
    rows.append("</tbody>")
    rows.append("</table></div>")
    return rows
  }

  private func deviceTable() -> [String] {
    var rows = [
      #"<div class="scroll"><table class="device-table">"#,
      "<thead><tr><th>Input</th><th>Outcome</th><th>Source</th><th>Tags</th>"
        + "<th>Later manual attempt</th></tr></thead>",
      "<tbody>",
    ]
    for device in devices {
      let outcome = device.outcome?.rawValue ?? (device.isPending ? "pending" : "-")
      var source = device.source?.rawValue ?? "-"
      if let from = device.from { source += " (from=\(from.rawValue))" }
      var notes = [
        device.laterManual?.description
          ?? (device.isWeighed
            ? "" : device.pendingReason.map { "not now: \($0)" } ?? "no valid tag")
      ]
      if let other = device.sameCaptureAs {
        notes.append("repeats entries of \(other) (the same device captured twice?)")
      }
      let later = notes.filter { !$0.isEmpty }.joined(separator: "; ")
      rows.append(
        "<tr><td class=\"input\">\(Self.escape(device.input))</td>"
          + "<td><span class=\"key o-\(outcome)\"></span>\(outcome)</td>"
          + "<td data-label=\"source\">\(Self.escape(source))</td>"
          + "<td data-label=\"tags\">\(device.tags)</td>"
          + "<td data-label=\"later manual attempt\">\(later.isEmpty ? "-" : Self.escape(later))</td></tr>"
      )
    }
    rows.append("</tbody>")
    rows.append("</table></div>")
    return rows
  }

  // MARK: - Helpers

  /// A coordinate with at most three decimals.
  private static func n(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    return "\(rounded)"
  }

  /// Text or an attribute value, with `&`, `<`, `>`, `"` and `'` escaped, scalar by scalar (a `<`
  /// followed by a combining mark is one `Character`, and must still be escaped); control
  /// characters but tab become U+FFFD.
  static func escape(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out.append(contentsOf: "&amp;".unicodeScalars)
      case "<": out.append(contentsOf: "&lt;".unicodeScalars)
      case ">": out.append(contentsOf: "&gt;".unicodeScalars)
      case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
      case "'": out.append(contentsOf: "&#39;".unicodeScalars)
      default:
        if scalar.value < 0x20, scalar != "\t" {
          out.append("\u{FFFD}")
        } else {
          out.append(scalar)
        }
      }
    }
    return String(out)
  }

  private static let css = """

    :root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d5dae3; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; \
    color: var(--ink); background: #fff; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    main { max-width: 860px; margin: 0 auto; padding: 20px 16px 32px; }
    h1 { font-size: 1.45em; margin: 0 0 4px; }
    h2 { font-size: 1.15em; margin: 0 0 8px; }
    .meta, .foot { color: var(--muted); font-size: 0.9em; margin: 0 0 16px; }
    section { margin: 0 0 22px; break-inside: avoid; page-break-inside: avoid; }
    .verdict { border: 2px solid var(--line); border-left-width: 10px; border-radius: 8px; padding: 12px 16px; }
    .verdict h2 { font-size: 1.35em; }
    .headline { font-weight: normal; color: var(--muted); }
    .verdict p { margin: 6px 0; }
    .rule { color: var(--muted); font-size: 0.9em; }
    .verdict-recoverable { border-color: #2e7d32; background: #eef7ee; }
    .verdict-gone { border-color: #c62828; background: #fbeeee; }
    .verdict-mixed { border-color: #b26a00; background: #fdf5e6; }
    .verdict-too_few { border-color: #6b7280; background: #f3f4f6; }
    svg { display: block; width: 100%; height: auto; max-width: 640px; margin: 0 0 10px; }
    svg text { font-family: inherit; fill: var(--ink); }
    .tick { font-size: 13px; fill: var(--muted); }
    .value { font-size: 14px; font-weight: 600; }
    .label { font-size: 13.5px; }
    .caption { margin: 10px 0 2px; }
    svg.reading { margin: 0 0 4px; }
    .grid { stroke: var(--line); stroke-width: 1; }
    .axis { stroke: var(--ink); stroke-width: 1.2; }
    .whisker line { stroke: var(--ink); stroke-width: 1.6; }
    .track { stroke: #eceff4; stroke-width: 16; }
    .share { stroke-width: 16; }
    .r-recoverable { stroke: #2e7d32; }
    .r-gone { stroke: #c62828; }
    .threshold { stroke: var(--ink); stroke-width: 2; stroke-dasharray: 4 3; }
    .o-success { fill: #2e7d32; background: #2e7d32; }
    .o-no_new_data { fill: #81c784; background: #81c784; }
    .o-empty_store { fill: #f2b705; background: #f2b705; }
    .o-found_unreadable { fill: #e65100; background: #e65100; }
    .o-nothing_on_disk { fill: #c62828; background: #c62828; }
    .o-library_error { fill: #7e57c2; background: #7e57c2; }
    .key { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
    table { border-collapse: collapse; width: 100%; font-size: 0.92em; font-variant-numeric: tabular-nums; }
    th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; background: #f6f7f9; }
    .outcome-table td + td, .outcome-table th + th { text-align: right; }
    tr.all td { font-weight: 600; }
    .scroll { overflow-x: auto; }
    td.input { overflow-wrap: anywhere; }
    td:first-child, .outcome-table td { white-space: nowrap; }
    .device-table td.input { white-space: normal; }
    .device-table td:nth-child(2) { white-space: nowrap; }
    @media (max-width: 520px) {
      body { font-size: 14px; }
      main { padding: 14px 10px 24px; }
      th, td { padding: 4px 5px; }
      table { font-size: 0.86em; }
      .outcome-table .src { display: none; }
      /* Each device on its own lines: its input across the whole width, then the rest. */
      .device-table thead { display: none; }
      .device-table, .device-table tbody, .device-table tr { display: block; width: 100%; }
      .device-table tr { border-bottom: 1px solid var(--line); padding: 4px 0; }
      .device-table td { display: inline-block; border: 0; padding: 1px 5px; white-space: normal; }
      .device-table td.input { display: block; font-weight: 600; }
      .device-table td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
    }
    @media print {
      body { font-size: 10.5pt; }
      main { max-width: none; padding: 0; }
      .verdict { background: none; }
      svg { max-width: 15cm; }
      .scroll { overflow: visible; }
    }

    """
}
