import SQLiteDB

/// Why the current library could not be opened or written. Every case names the file.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but is not a Ditto library; it was not opened for writing and is left as it is.
  case notALibrary(file: String, reason: String)
  /// The library was written by a newer version whose schema we do not know.
  case newerSchema(file: String, found: Int, supported: Int)
  /// The file or its folder cannot be opened or created (permissions, missing folder, I/O).
  case cannotOpen(file: String, reason: String)
  /// A write failed; the transaction was rolled back and the library holds what it held before.
  case writeFailed(file: String, reason: String)

  public var file: String {
    switch self {
    case .notALibrary(let file, _), .newerSchema(let file, _, _), .cannotOpen(let file, _),
      .writeFailed(let file, _):
      file
    }
  }

  /// A short stable code for logs and JSON.
  public var code: String {
    switch self {
    case .notALibrary: "not_a_library"
    case .newerSchema: "newer_schema"
    case .cannotOpen: "cannot_open"
    case .writeFailed: "write_failed"
    }
  }

  public var description: String {
    switch self {
    case .notALibrary(let file, let reason):
      "\(file): not a Ditto library (\(reason)); it was left untouched"
    case .newerSchema(let file, let found, let supported):
      "\(file): library schema version \(found) is newer than this tool knows (\(supported))"
    case .cannotOpen(let file, let reason):
      "\(file): cannot open the library: \(reason)"
    case .writeFailed(let file, let reason):
      "\(file): could not write the library: \(reason)"
    }
  }

  static func writeFailed(_ error: SQLiteError, file: String) -> LibraryError {
    .writeFailed(
      file: file, reason: "SQLite error \(error.extendedCode) (\(error.codeText)): \(error.message)"
    )
  }
}
