import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an outcome report could not be made.
///
/// Malformed tags are never errors: they are counted. Errors are about reading the inputs and
/// about the rule's settings. ``description`` is the text the CLI prints after `Error: `.
package enum OutcomeReportError: Error, Equatable, Sendable, NamingFiles {
  /// `open(2)` failed for the named input; `code` is the `errno` value.
  case cannotOpen(file: String, code: Int32)
  /// `read(2)` failed part-way through the named input; `code` is the `errno` value. Counts from
  /// the bytes read before the failure stay in the scanner.
  case cannotRead(file: String, code: Int32)
  /// A ``VerdictRule`` setting is out of range; the text says which and why.
  case invalidRule(String)
  /// The named input is not one `outcomes` reads (a device, a socket, a zip that is not one, a
  /// folder that cannot be walked); `reason` says what it is.
  case notAnInput(file: String, reason: String)

  /// The system's text for the `errno` value ("No such file or directory"); nil for rule errors.
  package var reason: String? {
    switch self {
    case .cannotOpen(_, let code), .cannotRead(_, let code): String(cString: strerror(code))
    case .invalidRule, .notAnInput: nil
    }
  }

  /// One line naming the file and the reason: `cannot open x.log: No such file or directory`.
  package func described(naming shown: (String) -> String) -> String {
    switch self {
    case .cannotOpen(let file, _): "cannot open \(shown(file)): \(reason ?? "")"
    case .cannotRead(let file, _): "cannot read \(shown(file)): \(reason ?? "")"
    case .invalidRule(let text): "invalid verdict rule: \(text)"
    case .notAnInput(let file, let reason): "\(shown(file)): \(reason)"
    }
  }
}
