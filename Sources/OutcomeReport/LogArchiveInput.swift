import UnifiedLog

extension OutcomeScanner {
  /// Reads a unified-log archive (a `.logarchive`, a tracev3 file, a sysdiagnose `.tar.gz`) as one
  /// device: its `io.kern.ditto` entries are mapped to ``LogEntry`` directly (no JSON text in
  /// between) and counted exactly as the same entries captured with `log show --style ndjson`
  /// are, so the report is the same. Whatever could not be read is the device's problem, and its
  /// verdict counts as incomplete.
  ///
  /// - Returns: what the archive reader found (files, entries, problems, the device's model).
  package mutating func scanLogArchive(path: String, kind: UnifiedLogInputKind)
    -> UnifiedLogSummary
  {
    beginInput(name: naming(path))
    var line = 0
    let summary = UnifiedLogReader.read(path, kind: kind, subsystem: "io.kern.ditto") { entry in
      // Each entry as its line of `log show --style ndjson` would be read (line numbers
      // included): a message whose format string is not in the archive is its arguments, as
      // stored (the tag is one public string argument).
      line += 1
      let message = LogShowFormat.message(entry)
      // Only an entry that mentions the tag is made a LogEntry (its timestamp text, its identity).
      let mentionsTag = [message, entry.category ?? ""].contains { ByteScan.mentionsTag($0) }
      recordArchiveEntry(
        mentionsTag
          ? LogEntry(
            timestamp: LogShowFormat.timestamp(entry.timestampNanoseconds),
            pid: Int(truncatingIfNeeded: entry.processID),
            thread: UInt64(truncatingIfNeeded: entry.threadID),
            scope: .of(present: entry.subsystem, entry.category),
            message: JSONEntryDecoder.tagMessage(message)) : nil,
        line: line)
    }
    let damage = summary.problems.filter(\.isDamage)
    if let first = damage.first {
      let more = damage.count > 1 ? " (and \(damage.count - 1) more)" : ""
      archiveProblem = .damagedArchive("\(naming(first.file)): \(first.reason)\(more)")
    }
    endInput()
    return summary
  }
}
