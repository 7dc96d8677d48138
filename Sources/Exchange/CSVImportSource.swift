import LegacyStore
import SafeFiles

/// Why a CSV file could not be imported. Names the file and the reason.
package enum CSVImportError: Error, Equatable, Sendable, NamingFiles {
  case unreadable(file: String, reason: String)
  case malformed(file: String, line: Int, reason: String)

  package func described(naming shown: (String) -> String) -> String {
    switch self {
    case .unreadable(let file, let reason): "\(shown(file)): cannot read: \(reason)"
    case .malformed(let file, let line, let reason): "\(shown(file)), line \(line): \(reason)"
    }
  }
}

/// A CSV file in Ditto 3.x's format, read as a stream of categories and dittos.
///
/// The first record must be the header `Category,Ditto`. Each other record is one ditto: its category
/// title and its text. Rows of one category need not be adjacent: a title seen again starts the same
/// category again (the import merges by title). Rows with an empty text are skipped and counted.
package struct CSVImportSource {
  package let path: String
  /// Rows whose ditto text was empty.
  package private(set) var skippedEmptyTexts = 0

  package init(path: String) {
    self.path = path
  }

  /// Reads the file in fixed-size chunks and calls `sink` for each category change and ditto.
  ///
  /// - Throws: ``CSVImportError``, or errors from `sink` unchanged.
  package mutating func walk(_ sink: (LegacyItem) throws -> Void) throws {
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(path: path)
    } catch {
      throw CSVImportError.unreadable(file: path, reason: error.reason)
    }
    var reader = CSVReader()
    var sawHeader = false
    var currentTitle: String?
    var skipped = 0
    var record = 0
    let path = self.path
    let handle: ([String]) throws -> Void = { fields in
      record += 1
      if !sawHeader {
        let names = fields.map { $0.trimmingSpaces().lowercased() }
        guard names == CSVFormat.header.map({ $0.lowercased() }) else {
          throw CSVImportError.malformed(
            file: path, line: 1, reason: "the first row must be the header \"Category,Ditto\"")
        }
        sawHeader = true
        return
      }
      guard fields.count == 2 else {
        throw CSVImportError.malformed(
          file: path, line: record,
          reason: "expected 2 fields (Category,Ditto), found \(fields.count)")
      }
      guard !fields[1].isEmpty else {
        skipped += 1
        return
      }
      if currentTitle != fields[0] {
        currentTitle = fields[0]
        try sink(.category(title: fields[0], origin: .other("csv")))
      }
      try sink(.ditto(LegacyDitto(text: fields[1], useCount: 0)))
    }
    var offset: Int64 = 0
    let chunk = 1 << 20
    do {
      while true {
        let bytes = try file.read(count: chunk, at: offset)
        if bytes.isEmpty { break }
        offset += Int64(bytes.count)
        try reader.feed(bytes, emit: handle)
      }
      try reader.finish(emit: handle)
    } catch let error as CSVError {
      throw CSVImportError.malformed(file: path, line: error.line, reason: error.reason)
    } catch let error as FileAccessError {
      throw CSVImportError.unreadable(file: path, reason: error.failure)
    }
    if !sawHeader {
      throw CSVImportError.malformed(
        file: path, line: 1, reason: "the file is empty (no header row)")
    }
    skippedEmptyTexts = skipped
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
