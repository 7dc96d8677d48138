import BackupReader
import Exchange
import Foundation

/// The JSON and text forms of `backup list` and of the `backup` key of `backup recover --json`.
enum BackupRendering {
  /// `2015-10-01T12:30:00Z`.
  static func isoDate(_ date: Date?) -> String? {
    date.map { ISO8601DateFormatter().string(from: $0) }
  }

  /// One backup of `backup list --json`:
  /// `{"path", "deviceName", "date", "iosVersion", "encrypted", "dittoFiles": [{"domain",
  /// "relativePath", "bytes"}], "hasDittoStore", "snapshotState", "error", "problems"}`.
  /// `dittoFiles` is null (and `error` says why) when the manifest could not be read.
  static func listOutput(_ summary: BackupSummary, recoverable: StatusRendering.Recoverable?)
    -> Combined<BackupIdentity, BackupListOutput.Backup>
  {
    let identity = BackupIdentity(summary.backup)
    var encrypted = identity.encrypted
    if case .failure(.encrypted) = summary.listing { encrypted = true }
    let decrypted = summary.keys != nil && summary.error == nil
    var problems = summary.backup.metadata.problems
    switch summary.listing {
    case .success(let listing):
      let files = listing.files.map { entry in
        let stored = storedBytes(summary.backup, entry, problems: &problems)
        return BackupListOutput.Backup.File(
          domain: entry.domain, relativePath: entry.relativePath,
          bytes: entry.expectedBytes ?? stored)
      }
      return Combined(
        identity,
        BackupListOutput.Backup(
          encrypted: encrypted, decrypted: decrypted, dittoFiles: files,
          hasDittoStore: listing.hasDittoStore, error: nil, problems: problems + listing.problems,
          recoverable: recoverable))
    case .failure(let error):
      return Combined(
        identity,
        BackupListOutput.Backup(
          encrypted: encrypted, decrypted: decrypted, dittoFiles: nil, hasDittoStore: false,
          error: ArgumentSpelling.described(error), errorCode: error.code, problems: problems,
          recoverable: recoverable))
    }
  }

  /// The stored file's size; notes a missing stored file or a size that differs from the manifest.
  static func storedBytes(_ backup: Backup, _ entry: ManifestEntry, problems: inout [String])
    -> Int64?
  {
    let name = "\(entry.domain)/\(entry.relativePath)"
    if let problem = entry.fileIDProblem {
      problems.append("\(name): \(problem)")
      return nil
    }
    do {
      guard let stored = try backup.storedFile(for: entry) else {
        problems.append("\(name): no stored file \(entry.storedPath) in the backup")
        return nil
      }
      if let expected = entry.expectedBytes, !entry.storedSizeMatches(stored.status.size) {
        let padding = entry.record?.encryptionKey != nil ? " (with encryption's padding)" : ""
        problems.append(
          "\(name): the stored file has \(stored.status.size) bytes, the manifest says \(expected)\(padding)"
        )
      }
      return stored.status.size
    } catch {
      problems.append("\(name): \(ArgumentSpelling.described(error))")
      return nil
    }
  }

  /// `backup list` for people.
  static func listText(
    _ summaries: [BackupSummary], newest: BackupSummary?, undecided: [BackupSummary] = [],
    recoverable: (Int) -> String? = { _ in nil }
  ) -> String {
    var lines: [String] = []
    for (index, summary) in summaries.enumerated() {
      let metadata = summary.backup.metadata
      lines.append("backup: \(ArgumentSpelling.shown(path: summary.backup.path))")
      var encrypted =
        metadata.isEncrypted.map { $0 ? "encrypted" : "not encrypted" } ?? "encryption unknown"
      if case .failure(.encrypted) = summary.listing { encrypted = "encrypted" }
      if summary.keys != nil, summary.error == nil { encrypted = "encrypted, unlocked" }
      lines.append(
        "  device: \(metadata.deviceName ?? "unknown"), iOS \(metadata.iosVersion ?? "unknown"), \(isoDate(metadata.date) ?? "date unknown"), \(encrypted)"
      )
      if metadata.isSnapshotUnfinished {
        lines.append(
          "  note: Status.plist says \(metadata.snapshotState ?? ""): the backup may be incomplete")
      }
      var problems = metadata.problems
      switch summary.listing {
      case .success(let listing):
        let files = listing.files
        if files.isEmpty {
          lines.append(
            "  Ditto files: none (\(plural(Int(listing.totalRows), "file")) in the manifest)")
        } else {
          lines.append("  Ditto files (\(files.count)):")
          for entry in files {
            let stored = storedBytes(summary.backup, entry, problems: &problems)
            let bytes = (entry.expectedBytes ?? stored).map { "\($0) bytes" } ?? "size unknown"
            lines.append("    \(entry.domain)  \(entry.relativePath)  \(bytes)")
          }
        }
        problems += listing.problems
      case .failure(let error):
        lines.append("  cannot read its files: \(ArgumentSpelling.described(error))")
      }
      for problem in problems { lines.append("  problem: \(problem)") }
      if let line = recoverable(index) { lines.append("  " + line) }
    }
    if summaries.count > 1 {
      lines.append(
        "newest backup holding a Ditto store: \(newest.map { ArgumentSpelling.shown(path: $0.backup.path) } ?? "none")"
      )
      if !undecided.isEmpty {
        lines.append(
          "  not certain: \(undecidedWords(undecided)), and may hold a newer one")
      }
    } else if newest == nil, summaries.first?.error == nil {
      lines.append("no Ditto store in this backup")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension BackupRendering {
  /// "2 backups could not be read (A, B)": the unreadable backups a choice depends on.
  static func undecidedWords(_ undecided: [BackupSummary]) -> String {
    let names = undecided.map(\.backup.path).joined(separator: ", ")
    return
      "\(plural(undecided.count, "newer or undated backup", "newer or undated backups")) could not be read (\(names))"
  }

  /// The lines `backup recover` prints before the recovery's own.
  static func recoverText(_ summary: BackupSummary, rebuild: RebuildReport, output: String)
    -> String
  {
    let metadata = summary.backup.metadata
    var lines = [
      "backup: \(ArgumentSpelling.shown(path: summary.backup.path)) (\(metadata.deviceName ?? "unknown device"), iOS \(metadata.iosVersion ?? "unknown"), \(isoDate(metadata.date) ?? "date unknown"))"
    ]
    let copied = rebuild.files.filter { $0.status == .copied || $0.status == .sizeMismatch }
    lines.append(
      "rebuilt: \(copied.count) of \(rebuild.files.count) Ditto files into \(ArgumentSpelling.shown(path: output))"
    )
    let problems = rebuild.files.filter { $0.status != .copied }
    if !problems.isEmpty {
      lines.append("not rebuilt as listed: \(problems.count) (see the warnings)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
