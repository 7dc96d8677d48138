import JSONOutput

/// The formats `export` writes.
package enum ExportFormat: String, Sendable, CaseIterable {
  /// `{"categories": [{"title": …, "dittos": [{"text": …, "useCount": N}]}]}`.
  case json
  /// Ditto 3.x's CSV: header `Category,Ditto`, one row per ditto, RFC 4180 quoting, CRLF.
  case csv
}

/// Writes categories and dittos in order, as JSON or CSV, streaming: memory stays flat.
///
/// Call ``beginCategory(title:)`` before each category's dittos, ``ditto(text:useCount:)`` for each
/// ditto, then ``finish()`` once. Output goes to `write` in chunks of UTF-8 bytes.
package final class ExportWriter {
  private let format: ExportFormat
  private let write: ([UInt8]) -> Void
  private var buffer: [UInt8] = []
  private var pendingTitle: String?
  /// CSV: the current title, already quoted, followed by a comma.
  private var titleField: [UInt8] = []
  private var categoriesWritten = 0
  private var dittosInCategory = 0
  private var started = false

  /// Flushes to `write` when the buffer passes this many bytes.
  private let flushThreshold = 1 << 16

  package init(format: ExportFormat, write: @escaping ([UInt8]) -> Void) {
    self.format = format
    self.write = write
    buffer.reserveCapacity(flushThreshold + 8192)
  }

  /// Starts a category.
  package func beginCategory(title: String) {
    start()
    closeCategory()
    pendingTitle = title
    dittosInCategory = 0
    switch format {
    case .json:
      append(
        categoriesWritten == 0 ? "\n    {\n      \"dittos\": [" : ",\n    {\n      \"dittos\": [")
      categoriesWritten += 1
    case .csv:
      titleField.removeAll(keepingCapacity: true)
      CSVFormat.appendField(title, to: &titleField)
      titleField.append(UInt8(ascii: ","))
    }
  }

  /// Adds a ditto to the current category (starts a `Recovered` category if none was begun).
  package func ditto(text: String, useCount: Int64) {
    var text = text
    text.withUTF8 { ditto(utf8: $0, useCount: useCount) }
  }

  /// Adds a ditto given as UTF-8 bytes (valid only during the call).
  package func ditto(utf8 text: UnsafeBufferPointer<UInt8>, useCount: Int64) {
    if pendingTitle == nil { beginCategory(title: "Recovered") }
    switch format {
    case .json:
      append(
        dittosInCategory == 0
          ? "\n        {\n          \"text\": " : ",\n        {\n          \"text\": ")
      JSONText.appendQuoted(utf8: text, to: &buffer)
      append(",\n          \"useCount\": ")
      append(String(useCount))
      append("\n        }")
    case .csv:
      buffer.append(contentsOf: titleField)
      CSVFormat.appendField(utf8: text, to: &buffer)
      buffer.append(13)
      buffer.append(10)
    }
    dittosInCategory += 1
    if buffer.count >= flushThreshold { flush() }
  }

  /// Ends the document and flushes everything.
  package func finish() {
    start()
    closeCategory()
    if format == .json {
      append(categoriesWritten == 0 ? "]\n}\n" : "\n  ]\n}\n")
    }
    flush()
  }

  private func append(_ text: String) {
    buffer.append(contentsOf: text.utf8)
  }

  private func flush() {
    guard !buffer.isEmpty else { return }
    write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  private func start() {
    guard !started else { return }
    started = true
    switch format {
    case .json: append("{\n  \"categories\": [")
    case .csv: CSVFormat.appendRecord(CSVFormat.header, to: &buffer)
    }
  }

  private func closeCategory() {
    guard let title = pendingTitle else { return }
    if format == .json {
      append(dittosInCategory == 0 ? "],\n      \"title\": " : "\n      ],\n      \"title\": ")
      JSONText.appendQuoted(title, to: &buffer)
      append("\n    }")
    }
    pendingTitle = nil
  }
}
