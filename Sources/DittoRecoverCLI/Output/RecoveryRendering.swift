import Exchange
import Foundation
import RecoveryFile
import SafeFiles

/// The JSON and text forms of a recovery file's metadata record (`inspect`, `status --from`,
/// `extract`).
enum RecoveryRendering {
  /// `{"format", "origin", "deviceName", "backupDate", "backupPath", "container", "createdAt",
  /// "toolVersion", "categories", "dittos", "salvaged", "sources": [{"kind", "categories", "dittos"}]}`.
  static func json(_ info: RecoveryFileInfo) -> JSONValue {
    .object([
      "format": .number(info.format),
      "origin": .string(info.origin.rawValue),
      "deviceName": .optional(info.deviceName),
      "backupDate": .optional(info.backupDate.map(RecoveryFileInfo.isoDate)),
      "backupPath": .optional(info.backupPath),
      "container": .optional(info.container),
      "createdAt": .string(RecoveryFileInfo.isoDate(info.createdAt)),
      "toolVersion": .string(info.toolVersion),
      "categories": .number(info.categories),
      "dittos": .number(info.dittos),
      "salvaged": info.salvaged.map { .number($0) } ?? .null,
      "sources": .array(info.sources.map(sourceJSON)),
    ])
  }

  static func sourceJSON(_ source: RecoveryFileInfo.SourceCount) -> JSONValue {
    .object([
      "kind": .string(source.kind), "categories": .number(source.categories),
      "dittos": .number(source.dittos),
    ])
  }

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
      "  holds \(info.categories) categories, \(info.dittos) dittos",
    ]
    for source in info.sources {
      lines.append(
        "  source \(source.kind): \(source.categories) categories, \(source.dittos) dittos")
    }
    if let salvaged = info.salvaged { lines.append("  salvaged: \(salvaged) dittos rebuilt") }
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
    let name = defaultFileName(for: date)
    let stem = String(name.dropLast(RecoveryFileWriter.fileExtension.count + 1))
    var candidate = UserPath.resolved(name)
    var number = 2
    while number < 1000 {
      let existing: FileStatus?
      do {
        existing = try FileStatus.of(path: candidate)
      } catch {
        break  // the writer names what is wrong with the folder
      }
      guard existing != nil else { break }
      candidate = UserPath.resolved("\(stem)-\(number).\(RecoveryFileWriter.fileExtension)")
      number += 1
    }
    return candidate
  }
}
