import Exchange
import Foundation
import RecoveryFile
import SafeFiles

/// The JSON and text forms of a recovery file's metadata record (`inspect`, `status --from`,
/// `extract`).
enum RecoveryRendering {
  /// Human lines: where it came from, when, by which tool, what it holds.
  static func lines(_ info: RecoveryFileInfo) -> [String] {
    var origin: String
    switch info.origin {
    case .backup:
      origin = "backup \(info.backupPath ?? "(unknown)")"
      let device = info.deviceName ?? "unknown device"
      let date = info.backupDate.map(RecoveryFileInfo.isoDate) ?? "date unknown"
      origin += " (\(device), made \(date))"
    case .container:
      origin = "container \(info.container ?? "(unknown)")"
    }
    var lines = [
      "recovery file: from \(origin)",
      "  written \(RecoveryFileInfo.isoDate(info.createdAt)) by ditto-recover \(info.toolVersion) (format \(info.format))",
      "  holds \(plural(info.categories, "category", "categories")), \(plural(info.dittos, "ditto"))",
    ]
    for source in info.sources {
      lines.append(
        "  source \(source.kind): \(plural(source.categories, "category", "categories")), \(plural(source.dittos, "ditto"))"
      )
    }
    if let salvaged = info.salvaged {
      lines.append("  salvaged: \(plural(salvaged, "ditto")) rebuilt")
    }
    if let neverCommitted = info.neverCommitted {
      lines.append(
        "  never committed: \(plural(neverCommitted, "ditto")) only in -wal frames no commit covers, in categories titled '… (never committed)'"
      )
    }
    return lines
  }

  /// `Ditto-recovered-2023-11-14.dittorecovery`.
  static func defaultFileName(for date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return "Ditto-recovered-\(formatter.string(from: date)).\(RecoveryFileWriter.fileExtension)"
  }

  /// The default output in the current folder: `defaultFileName(for:)`, or, when something has
  /// that name (an earlier run's file), the first free `Ditto-recovered-<date>-2.dittorecovery`,
  /// `-3`, …: a default never collides with a file already there (a given `--out` that exists is
  /// refused instead).
  static func defaultOutput(for date: Date) -> String {
    freeName(like: UserPath.resolved(defaultFileName(for: date)))
  }

  /// `path` when nothing has that name (or it cannot be told: the writer then says why), else
  /// the first free `<stem>-2<.extension>`, `-3`, … beside it.
  static func freeName(like path: String) -> String {
    func isTaken(_ candidate: String) -> Bool {
      do {
        return try FileStatus.of(path: candidate) != nil
      } catch {
        return false
      }
    }
    guard isTaken(path) else { return path }
    let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    let name = path[slash...]
    let dot = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? $0 : nil } ?? name.endIndex
    let stem = String(path[..<dot])
    let suffix = String(path[dot...])
    for number in 2..<1000 where !isTaken("\(stem)-\(number)\(suffix)") {
      return "\(stem)-\(number)\(suffix)"
    }
    return stem + "-new" + suffix
  }
}
