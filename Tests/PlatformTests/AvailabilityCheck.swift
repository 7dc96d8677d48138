import Foundation

/// Finds uses of standard-library APIs that are newer than the platforms the package ships for
/// (iOS 17, macOS 14) and carry no availability guard.
///
/// Linux has no availability gating, so such a call builds and passes here and then fails to
/// compile for the app. The list names what the Swift 6 standard library marks newer than our
/// floor; a use is accepted when an `if #available` / `guard #available` / `@available(…)` with a
/// newer version appears within the lines before it (``guardWindow``), which is where Swift's own
/// guards sit.
enum AvailabilityCheck {
  /// One API and the first OS versions that have it.
  struct Rule: Sendable {
    var name: String
    var pattern: String
    var since: String
  }

  /// What the check knows about (at least those the platform issue names).
  static let rules: [Rule] = [
    Rule(
      name: "String(validating:as:)", pattern: #"String\(\s*validating:"#,
      since: "iOS 18 / macOS 15"),
    Rule(name: "Mutex", pattern: #"\bMutex\s*[<(]"#, since: "iOS 18 / macOS 15"),
    Rule(name: "Atomic", pattern: #"\bAtomic\s*[<(]"#, since: "iOS 18 / macOS 15"),
    Rule(
      name: "import Synchronization", pattern: #"^\s*import\s+Synchronization\b"#,
      since: "iOS 18 / macOS 15"),
    Rule(name: "InlineArray", pattern: #"\bInlineArray\b"#, since: "iOS 26 / macOS 26"),
    Rule(name: "Int128 / UInt128", pattern: #"\bU?Int128\b"#, since: "iOS 18 / macOS 15"),
    Rule(
      name: "Span", pattern: #"\b(Mutable)?(Raw)?Span\s*<|\bRawSpan\b|\bUTF8Span\b|\.span\b"#,
      since: "iOS 26 / macOS 26"),
    Rule(name: "@isolated(any)", pattern: #"@isolated\(any\)"#, since: "iOS 18 / macOS 15"),
    Rule(
      name: "typed throws in a stored function type",
      // `let f: (…) throws(E) -> T`, or such a type as a generic argument or element:
      // its metadata needs the iOS 18 runtime.
      pattern:
        #"^\s*(?:(?:public|private|fileprivate|internal|static|nonisolated|lazy)\s+)*(?:let|var)\s+\w+\s*:[^=]*throws\(|[<\[,]\s*(?:@escaping\s+)?\([^()]*\)\s*(?:async\s+)?throws\("#,
      since: "iOS 18 / macOS 15"),
  ]

  /// How many lines before a use a guard may stand.
  static let guardWindow = 25

  /// One unguarded use.
  struct Finding: Sendable, Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var api: String
    var since: String
    var description: String { "\(file):\(line): \(api) needs \(since); guard it or replace it" }
  }

  /// The unguarded uses in one file's text.
  static func findings(in text: String, file: String) -> [Finding] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var found: [Finding] = []
    for (index, line) in lines.enumerated() {
      let code = codePart(of: line)
      guard !code.isEmpty else { continue }
      for rule in rules where code.range(of: rule.pattern, options: .regularExpression) != nil {
        let window = lines[max(0, index - guardWindow)..<index]
        if window.contains(where: isNewerGuard) || isNewerGuard(line) { continue }
        found.append(Finding(file: file, line: index + 1, api: rule.name, since: rule.since))
      }
    }
    return found
  }

  /// A line that guards newer code: `#available(iOS 18…` / `@available(macOS 15…` and later.
  static func isNewerGuard(_ line: String) -> Bool {
    guard line.contains("#available(") || line.contains("@available(") else { return false }
    guard !line.contains("unavailable") else { return false }
    return line.range(
      of: #"(iOS|macOS) (1[89]|2\d)\b"#, options: .regularExpression) != nil
  }

  /// The line without its `//` comment and without the contents of string literals (doc comments
  /// and messages may name an API).
  static func codePart(of line: String) -> String {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("//") { return "" }
    var result = ""
    var inString = false
    var previous: Character = " "
    for character in line {
      if character == "\"" && previous != "\\" {
        inString.toggle()
        result.append(character)
      } else if !inString {
        if character == "/" && previous == "/" {
          result.removeLast()
          break
        }
        result.append(character)
      }
      previous = character
    }
    return result
  }
}
