import Foundation
import Testing

/// docs/EMBEDDING.md shows the app's SwiftData destination; the code it shows is the file the
/// SwiftData tests compile and run on a Mac, so the guide never drifts from code that works.
@Suite struct EmbeddingGuideTests {
  static let root = AvailabilityTests.root

  /// The lines between `// BEGIN EMBEDDING.md` and `// END EMBEDDING.md`, without the indentation
  /// of the `#if canImport(SwiftData)` block around them.
  static func quotedSource() throws -> String {
    let path = root.appendingPathComponent("Tests/SwiftDataTests/SwiftDataDestination.swift").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// BEGIN EMBEDDING.md") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// END EMBEDDING.md") })
    var quoted = lines[(begin + 1)..<end].map { $0.hasPrefix("  ") ? $0.dropFirst(2) : $0 }
    while quoted.last?.allSatisfy(\.isWhitespace) == true { quoted.removeLast() }
    return quoted.joined(separator: "\n")
  }

  /// The guide's ```swift block that starts with the same first line.
  static func guideBlock(startingWith first: String) throws -> String {
    let path = root.appendingPathComponent("docs/EMBEDDING.md").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for block in text.components(separatedBy: "```swift\n").dropFirst() {
      let code = try #require(block.components(separatedBy: "\n```").first)
      if code.hasPrefix(first) { return code }
    }
    Issue.record("docs/EMBEDDING.md has no swift block starting with \(first)")
    return ""
  }

  @Test func theGuideQuotesTheDestinationTheTestsRun() throws {
    let source = try Self.quotedSource()
    #expect(source.contains("final class SwiftDataDestination: PlanApplyingDestination"))
    let first = try #require(source.split(separator: "\n").first.map(String.init))
    #expect(try Self.guideBlock(startingWith: first) == source)
  }
}
