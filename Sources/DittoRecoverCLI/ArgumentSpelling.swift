import Foundation
import LegacyStore
import LibraryMerge
import SafeFiles

/// How this run names an argument it reaches through a stand-in (``RawArguments``: a link or a
/// copy in a private folder, for a path that is not valid UTF-8): by the bytes the user typed,
/// never by the stand-in. One place, read where a word of a command is quoted (``ShellWord``, as
/// bash's `$'caf\xe9'`, which pasted names the same bytes) and wherever a sentence or a JSON
/// string names a path (``shown(path:)``, `\xNN`; an error through ``described(_:)``, which
/// renders a ``NamingFiles`` message with its files named so). Paths are shown where they are
/// rendered: no printed text is searched for a stand-in afterwards.
package enum ArgumentSpelling {
  /// A stand-in path and the argument it stands for.
  package struct Alias: Sendable {
    /// The path the tool was given (in this run's private folder).
    package let standIn: String
    /// The argument as typed.
    package let bytes: [UInt8]
    /// What the argument names, when the stand-in is a link this run made to it (a folder, a
    /// FIFO, a device): an error about the link is about that. Nil for any other stand-in.
    package var linked: FileKind? = nil
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

  /// `path` named as typed: a stand-in, or a path inside one, by the user's bytes (`\xNN`);
  /// any other path as it is. Read wherever a sentence or a JSON string names a path.
  package static func shown(path: String) -> String {
    // The longest first, so the first that holds `path` is the closest.
    for alias in current {
      if path == alias.standIn { return alias.shown }
      if path.hasPrefix(alias.standIn), path.dropFirst(alias.standIn.count).first == "/" {
        return alias.shown + path.dropFirst(alias.standIn.count)
      }
    }
    return path
  }

  /// `error`'s words, each file it names shown as typed (``shown(path:)``).
  package static func described(_ error: any Error) -> String {
    switch aboutWhatWasTyped(error) {
    case let error as any NamingFiles: error.described(naming: shown(path:))
    case let error as DestinationError: shown(path: error.file) + ": " + error.reason
    case let error as FlagStoreError: shown(path: error.store) + ": " + error.reason
    case let error as SourceReadFailure: described(error.error)
    case let error as ImportFailure:
      switch error.reason {
      case .library(let error): described(error)
      case .source(let failure): described(failure.error)
      case .cancelled: "\(error)"
      }
    default: "\(error)"
    }
  }

  /// `error` about what the user named, when it is about a link this run made to it: a folder
  /// named with bytes that are not UTF-8, given where a file is expected, is "a directory" as any
  /// other folder is, never "a symbolic link" (the user gave no link).
  private static func aboutWhatWasTyped(_ error: any Error) -> any Error {
    func linked(_ path: String) -> FileKind? {
      current.first { $0.standIn == path }?.linked
    }
    switch error {
    case LegacyStoreError.notARegularFile(let file, .symbolicLink):
      if let kind = linked(file) { return LegacyStoreError.notARegularFile(file: file, kind: kind) }
    case SafeFileError.notARegularFile(let path, .symbolicLink):
      if let kind = linked(path) { return SafeFileError.notARegularFile(path: path, kind: kind) }
    default: break
    }
    return error
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
      // Bytes that are UTF-8 (the folder of a file that is not) are quoted as any word is.
      result += UserPath.validUTF8(alias.bytes).map(quote) ?? ansiC(alias.bytes)
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
