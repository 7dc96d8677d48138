import UnifiedLog

extension OutcomeScanner {
  /// Reads a unified-log archive (a `.logarchive`, a tracev3 file, a sysdiagnose `.tar.gz`) as one
  /// device: its `io.kern.ditto` entries are read exactly as the same entries captured with
  /// `log show --style ndjson`, so the report is the same. Whatever could not be read is the
  /// device's problem, and its verdict counts as incomplete.
  ///
  /// - Returns: what the archive reader found (files, entries, problems, the device's model).
  package mutating func scanLogArchive(path: String, kind: UnifiedLogInputKind)
    -> UnifiedLogSummary
  {
    beginInput(name: path)
    let summary = UnifiedLogReader.read(path, kind: kind, subsystem: "io.kern.ditto") { entry in
      // A message whose format string is not in the archive: its arguments, as stored (the tag
      // is one public string argument).
      consume(Array((LogShowFormat.tagNDJSON(entry) + "\n").utf8))
    }
    let damage = summary.problems.filter(\.isDamage)
    if let first = damage.first {
      let more = damage.count > 1 ? " (and \(damage.count - 1) more)" : ""
      archiveProblem = .damagedArchive("\(first.file): \(first.reason)\(more)")
    }
    endInput()
    return summary
  }
}
