import UnifiedLog

/// `ditto-recover logs ARCHIVE…`: the entries of a tester's log archive, read without a Mac.
struct LogsCommand: Command {
  static let name = "logs"
  static let abstract =
    "Print the entries of a .logarchive, a tracev3 file or a sysdiagnose archive (no Mac needed)."
  static let discussion: String? = """
    Reads Apple's binary unified log with this tool's own reader: a .logarchive folder (Persist,
    Special, Signpost, HighVolume, logdata.LiveData.tracev3, timesync, uuidtext, dsc), a loose
    tracev3 file with its timesync and uuidtext neighbours, or a sysdiagnose_….tar.gz (its
    system_logs.logarchive, streamed from the archive: nothing is unpacked to disk). Inputs are
    told by their content, never by their name. Entries are printed file by file, in the order
    each file holds them, as `log show` prints them: the default style, or with --json one object
    per line as `log show --style ndjson` (timestamp, machTimestamp, eventType, messageType,
    processID, threadID, subsystem, category, formatString, eventMessage, …; `args` when the format
    string is not in the archive, `file` the tracev3 file). Times are UTC, microseconds truncated
    (timestampNs is exact). Whatever could not be read (a damaged chunk, another compression than
    LZ4, a file cut short) is named on standard error, file by file; what can be read still is,
    and the exit code is then 65.
    """
  @Argument(
    repeating: .positionalText(
      "archive", value: "archive",
      help: "A .logarchive folder, a tracev3 file, or a sysdiagnose .tar.gz / .tar.",
      required: true, repeatable: true))
  var archives: [String]
  @Argument(.text("subsystem", value: "subsystem", help: "Only entries of this subsystem."))
  var subsystem: String?
  @Argument(.text("category", value: "category", help: "Only entries of this category."))
  var category: String?

  func run(_ context: ToolContext) throws -> CommandOutput {
    var kinds: [(String, UnifiedLogInputKind)] = []
    for archive in archives {
      guard let kind = UnifiedLogReader.kind(of: archive) else {
        throw InputError(
          "\(ArgumentSpelling.shown(path: archive)): not a unified-log archive (no .logarchive folder, tracev3 file or tar archive holding one)"
        )
      }
      kinds.append((archive, kind))
    }
    // The entries are the output, streamed as they are read (`--json` chose ndjson).
    return .stream { output in try stream(kinds, to: output, context: context) }
  }

  private func stream(
    _ kinds: [(String, UnifiedLogInputKind)], to output: any TextOutput, context: ToolContext
  ) throws -> ExitCode {
    let json = context.isJSON
    var damaged = false
    // Lines gathered as UTF-8 and written 64 KiB at a time.
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 17)
    if !json { buffer += Array((LogShowFormat.header + "\n").utf8) }
    // Progress only when the entries go elsewhere than the terminal that shows it.
    let progress: ProgressLine? =
      context.outputIsTerminal ? nil : ProgressLine("logs", totalBytes: 0, context: context)
    defer { progress?.finish() }
    var entries = 0
    for (index, (archive, kind)) in kinds.enumerated() {
      let detail = kinds.count > 1 ? "(archive \(index + 1) of \(kinds.count))" : ""
      let summary = UnifiedLogReader.readAlongside(archive, kind: kind, subsystem: subsystem) {
        entry in
        entries += 1
        if entries % 4096 == 0 { progress?.update(count: entries, of: "entries", detail: detail) }
        if let category, entry.category != category { return }
        if json {
          LogShowFormat.appendNDJSON(entry, to: &buffer)
        } else {
          buffer += Array(LogShowFormat.line(entry).utf8)
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count > 1 << 16 {
          output.write(bytes: buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      output.write(bytes: buffer)
      buffer.removeAll(keepingCapacity: true)
      var note =
        "note: \(ArgumentSpelling.shown(path: archive)): \(summary.kind.rawValue), \(summary.files.count) tracev3 files, \(summary.entries) entries"
      if let device = summary.device { note += " (device \(device))" }
      context.diagnose(note)
      for problem in summary.problems {
        if problem.isDamage { damaged = true }
        context.diagnose(
          "\(problem.isDamage ? "warning" : "note"): \(ArgumentSpelling.shown(path: archive)): \(problem.file): \(problem.reason) [\(problem.code)]"
        )
      }
    }
    return damaged ? .dataError : .success
  }
}
