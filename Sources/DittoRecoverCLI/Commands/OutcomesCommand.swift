import Foundation
import OutcomeReport
import SafeFiles

/// `ditto-recover outcomes`: the distribution of `migration_outcome` lines across a cohort.
struct OutcomesCommand: Command {
  static let name = "outcomes"
  static let abstract =
    "Count migration_outcome lines from log captures and give the rollout verdict."
  static let discussion: String? = """
    Reads what people collect with 'log show' or 'log stream' (default, compact, syslog, json or
    ndjson style, wrapped lines joined), Console copies in any language, or plain 'grep
    migration_outcome' output, from the files given, the files in a folder (and below it), or
    standard input, in one streaming pass; gzip, UTF-16, CR or mixed line ends and TextEdit's RTF
    are read by content, hard wraps are joined at any width, binary data never counts. Testers' log archives are
    read directly, told by content (a .logarchive folder, a tracev3 file, a sysdiagnose .tar.gz:
    no Mac needed), each one device; so is every file of a .zip of captures. A mention that cannot be
    read is named with its file and line and makes the sample incomplete. Lines from other
    subsystems or categories are ignored; malformed tags are counted apart, named with their file and
    line, and make the sample incomplete; entries repeated across overlapping captures are counted
    once.

    Each file is one device (standard input is one device). A device weighs once: its first automatic
    outcome that says something about the old data, else its first such manual one, in timestamp order
    where the style has timestamps. A found_unreadable with reason= (a locked iPhone, a file it may not
    open, a full disk: "not now") and a library_error decide nothing; a device with only those is
    listed as pending, not weighed, and counted in 'pending'. nothing_on_disk means no legacy file
    at all (no store, no -wal, no defaults key): the data is gone; a lone -wal or a damaged store is
    found_unreadable, whose data may still be there. With '--unit tag' every line counts. Every
    share carries a Wilson score interval. "recoverable" when the lower bound of
    success + no_new_data reaches its threshold, "gone" when that of nothing_on_disk does, "too_few"
    when neither does and the success + no_new_data interval is wider than --max-width, "mixed"
    otherwise. library_error (the current library could not be written) is counted but is neither
    reading: like empty_store and found_unreadable it weighs against both with '--denominator all' and
    is left out with 'decisive'. Tags with from=file (a file the user picked) are manual tags.
    """
  /// The command's options, declared once.
  @Argument(
    repeating: .positionalText(
      "file", value: "file",
      help: "Log captures, or folders of them, to read (default: standard input).",
      required: false, repeatable: true))
  var files: [String]
  @Argument(
    .choice(
      "unit", value: "unit",
      help:
        "What weighs once: each file's device, or every tag of one merged file (default: device)."))
  var unit: CountingUnit = .device
  @Argument(
    .count(
      "min-sample", help: "Fewer weighed devices (or tags) than this give 'too_few' (default: 1)."))
  var minimumSample: Int = 1
  @Argument(
    .number(
      "recoverable-threshold", value: "share",
      help:
        "Lower bound of the success + no_new_data share that means 'recoverable' (default: 0.6)."))
  var recoverableThreshold: Double = 0.6
  @Argument(
    .number(
      "gone-threshold", value: "share",
      help: "Lower bound of the nothing_on_disk share that means 'gone' (default: 0.6)."))
  var goneThreshold: Double = 0.6
  @Argument(
    .number("confidence", value: "level", help: "Confidence of every interval (default: 0.95)."))
  var confidence: Double = 0.95
  @Argument(
    .number(
      "max-width", value: "width",
      help: "Widest success + no_new_data interval that still allows 'mixed' (default: 0.30)."))
  var maximumWidth: Double = 0.3
  @Argument(
    .path(
      "html", value: "file",
      help: "Also write the report as one self-contained HTML page (bars, intervals, devices)."))
  var html: String?
  @Argument(
    .choice(
      "denominator", value: "kind",
      help:
        "What the shares are taken of: every valid tag, or only the decisive outcomes (default: all)."
    ))
  var denominator: VerdictRule.Denominator = .allValid

  /// The verdict's rule from the options (checked by ``validate()``).
  var rule: VerdictRule {
    get throws {
      try VerdictRule(
        minimumSample: minimumSample, recoverableThreshold: recoverableThreshold,
        goneThreshold: goneThreshold, denominator: denominator, confidence: confidence,
        maximumWidth: maximumWidth)
    }
  }

  func validate() throws(UsageError) {
    do {
      _ = try rule
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    if let html {
      try HTMLReportFile.requireNew(html, inputs: files, invocation: context.invocation)
    }
    var scanner = OutcomeScanner(options: OutcomeScanner.Options(rule: try rule, unit: unit))
    scanner.naming = ArgumentSpelling.shown(path:)
    if files.isEmpty, isatty(0) == 1 {
      context.diagnose(
        "outcomes: reading a log capture from standard input (end it with Ctrl-D), or give the files: ditto-recover outcomes tester-logs/*.log"
      )
    }
    let classified = try OutcomeInputs.classify(
      files.isEmpty ? ["-"] : files, naming: ArgumentSpelling.shown(path:))
    classified.notes.forEach(context.diagnose)
    scanner.noteUnread(classified)
    do {  // Progress over the files' bytes (a terminal only), an archive's once it is read.
      let sizes = classified.inputs.map { input -> Int64 in
        guard case .capture(let path) = input, let status = try? FileStatus.following(path: path),
          status.kind == .regular
        else { return 0 }
        return status.size
      }
      let progress =
        files.isEmpty
        ? nil : ProgressLine("outcomes", totalBytes: sizes.reduce(0, +), context: context)
      defer { progress?.finish() }
      var done: Int64 = 0
      scanner.onRead = { count in
        done += Int64(count)
        progress?.update(done: done)
      }
      for (index, input) in classified.inputs.enumerated() {
        try scanner.scan(input).forEach(context.diagnose)
        done = sizes.prefix(index + 1).reduce(0, +)
        progress?.update(done: done, detail: "(\(index + 1) of \(classified.inputs.count) inputs)")
      }
    }
    let summary = scanner.finish()
    summary.incompleteWarnings(verbose: context.isVerbose).forEach(context.diagnose)
    if let html { try HTMLReportFile.write(summary.htmlReport(), to: html) }
    let text = summary.textReport()
    return .result(
      summary.jsonValue, text: text.hasSuffix("\n") ? text : text + "\n",
      jsonStyle: OutcomeSummary.jsonStyle)
  }
}
