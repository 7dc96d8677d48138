/// The formats `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
  /// `{"categories": [{"title": …, "dittos": [{"text": …, "useCount": N}]}]}`.
  case json
  /// Ditto 3.x's CSV: header `Category,Ditto`, one row per ditto, RFC 4180 quoting, CRLF.
  case csv
}

/// Writes categories and dittos in order, as JSON or CSV, streaming: memory stays flat.
///
/// Call ``beginCategory(title:)`` before each category's dittos, ``ditto(text:useCount:)`` for each
/// ditto, then ``finish()`` once. Output goes to `write` in pieces.
public final class ExportWriter {
  private let format: ExportFormat
  private let write: (String) -> Void
  private var buffer = ""
  private var pendingTitle: String?
  private var categoriesWritten = 0
  private var dittosInCategory = 0
  private var started = false

  /// Flushes to `write` when the buffer passes this many bytes.
  private let flushThreshold = 1 << 16

  public init(format: ExportFormat, write: @escaping (String) -> Void) {
    self.format = format
    self.write = write
  }

  /// Starts a category.
  public func beginCategory(title: String) {
    start()
    closeCategory()
    pendingTitle = title
    dittosInCategory = 0
    if format == .json {
      buffer +=
        categoriesWritten == 0 ? "\n    {\n      \"dittos\": [" : ",\n    {\n      \"dittos\": ["
      categoriesWritten += 1
    }
  }

  /// Adds a ditto to the current category (starts a `Recovered` category if none was begun).
  public func ditto(text: String, useCount: Int64) {
    if pendingTitle == nil { beginCategory(title: "Recovered") }
    switch format {
    case .json:
      buffer +=
        dittosInCategory == 0
        ? "\n        {\n          \"text\": " : ",\n        {\n          \"text\": "
      JSONText.appendQuoted(text, to: &buffer)
      buffer += ",\n          \"useCount\": \(useCount)\n        }"
    case .csv:
      CSVFormat.appendRecord([pendingTitle ?? "", text], to: &buffer)
    }
    dittosInCategory += 1
    flushIfNeeded()
  }

  /// Ends the document and flushes everything.
  public func finish() {
    start()
    closeCategory()
    if format == .json {
      buffer += categoriesWritten == 0 ? "]\n}\n" : "\n  ]\n}\n"
    }
    write(buffer)
    buffer = ""
  }

  private func start() {
    guard !started else { return }
    started = true
    switch format {
    case .json: buffer += "{\n  \"categories\": ["
    case .csv: CSVFormat.appendRecord(CSVFormat.header, to: &buffer)
    }
  }

  private func closeCategory() {
    guard let title = pendingTitle else { return }
    if format == .json {
      buffer += dittosInCategory == 0 ? "],\n      \"title\": " : "\n      ],\n      \"title\": "
      JSONText.appendQuoted(title, to: &buffer)
      buffer += "\n    }"
    }
    pendingTitle = nil
    flushIfNeeded()
  }

  private func flushIfNeeded() {
    if buffer.utf8.count >= flushThreshold {
      write(buffer)
      buffer = ""
    }
  }
}
