#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes each record as one line on standard error, private values redacted.
///
/// The line is the message itself, so `grep migration_outcome` and `^migration_outcome` both work
/// on captured output. Newlines inside a message are escaped: one record is always one line.
package struct StderrLogHandler: LogHandler {
  /// Records below this level are not printed.
  package var minimumLevel: LogLevel

  package init(minimumLevel: LogLevel = .notice) {
    self.minimumLevel = minimumLevel
  }

  package func log(_ record: LogRecord) {
    guard record.level >= minimumLevel else { return }
    var line = record.message.rendered(redactingPrivate: true)
    if line.contains(where: { $0 == "\n" || $0 == "\r" }) {
      line = line.replacingNewlines()
    }
    let prefix: String
    switch record.level {
    case .warning: prefix = "warning: "
    case .error, .critical: prefix = "error: "
    case .trace, .debug, .info, .notice: prefix = ""
    }
    StandardError.write(prefix + line + "\n")
  }
}

extension String {
  /// Line feeds and carriage returns escaped, scalar by scalar (a line feed followed by a
  /// combining mark is one `Character`, and must still never break the line).
  func replacingNewlines() -> String {
    var result = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      switch scalar {
      case "\n": result.append(contentsOf: "\\n".unicodeScalars)
      case "\r": result.append(contentsOf: "\\r".unicodeScalars)
      default: result.append(scalar)
      }
    }
    return String(result)
  }
}

/// Unbuffered writes to file descriptor 2.
enum StandardError {
  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        #if canImport(Glibc)
          Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
        #else
          Darwin.write(2, raw.baseAddress! + offset, raw.count - offset)
        #endif
      }
      if written <= 0 { return }
      offset += written
    }
  }
}
