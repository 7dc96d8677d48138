import Foundation
import SafeFiles

/// How this run names an argument it reaches through a stand-in (``RawArguments``: a link or a
/// copy in a private folder, for a path that is not valid UTF-8): by the bytes the user typed,
/// never by the stand-in. One place, read where a word of a command is quoted (``ShellWord``, as
/// bash's `$'caf\xe9'`, which pasted names the same bytes) and where a sentence or a JSON string
/// names a path (`\xNN`; the JSON encoder then escapes it as any other string).
package enum ArgumentSpelling {
  /// A stand-in path and the argument it stands for.
  package struct Alias: Sendable {
    /// The path the tool was given (in this run's private folder).
    package let standIn: String
    /// The argument as typed.
    package let bytes: [UInt8]
    /// The argument as shown in a sentence (`\xNN` for each byte that is not UTF-8).
    package var shown: String { PrintablePath.escape(bytes) }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var aliases: [Alias] = []

  /// Names every argument in `aliases` by its bytes from now on (the program's `main`, once).
  static func use(_ aliases: [Alias]) {
    // The longest first: a folder's stand-in is a prefix of its files'.
    let sorted = aliases.sorted { $0.standIn.count > $1.standIn.count }
    lock.withLock { self.aliases = sorted }
  }

  private static var current: [Alias] { lock.withLock { aliases } }

  /// `text` with every stand-in named as typed (`\xNN`); `text` itself when the run has none.
  package static func shown(_ text: String) -> String {
    let aliases = current
    guard !aliases.isEmpty else { return text }
    var result = text
    for alias in aliases where result.contains(alias.standIn) {
      result = result.replacingOccurrences(of: alias.standIn, with: alias.shown)
    }
    return result
  }

  /// `word` quoted for a POSIX shell with bash's `$'…'` for each stand-in in it (the user's
  /// bytes, so the pasted command names the same file); nil when it holds none.
  static func shellWord(_ word: String, quotingRest quote: (String) -> String) -> String? {
    let aliases = current
    guard aliases.contains(where: { word.contains($0.standIn) }) else { return nil }
    var result = ""
    var rest = Substring(word)
    while !rest.isEmpty {
      // The first stand-in in what is left (the longest at that place).
      let next =
        aliases.compactMap { alias in rest.range(of: alias.standIn).map { (alias, $0) } }
        .min { $0.1.lowerBound < $1.1.lowerBound }
      guard let (alias, range) = next else {
        result += quote(String(rest))
        break
      }
      if range.lowerBound > rest.startIndex { result += quote(String(rest[..<range.lowerBound])) }
      result += ansiC(alias.bytes)
      rest = rest[range.upperBound...]
    }
    return result
  }

  /// `bytes` as bash's `$'…'` word.
  private static func ansiC(_ bytes: [UInt8]) -> String {
    var word = "$'"
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\\"): word += "\\\\"
      case UInt8(ascii: "'"): word += "\\'"
      case 0x20...0x7E: word += String(UnicodeScalar(byte))
      default: word += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
      }
    }
    return word + "'"
  }
}
