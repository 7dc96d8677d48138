import Foundation
import Testing

/// docs/EMBEDDING.md is compiled code: every ```swift block in it is, verbatim, part of a Swift file
/// of the package (the example app in Examples/ExampleApp, whose platform-neutral code the
/// ExampleAppTests run and whose SwiftData, UIKit and SwiftUI code the Apple workflow builds). A
/// block may sit indented inside an `#if canImport(…)` in its file; nothing else may differ.
/// (`scripts/embedding-guide` writes the guide's blocks from the files.)
@Suite struct EmbeddingGuideTests {
  static let root = AvailabilityTests.root

  /// The ```swift blocks of `document` (the guide, or README's dozen lines), in order.
  static func guideBlocks(_ document: String = "docs/EMBEDDING.md") throws -> [String] {
    let path = root.appendingPathComponent(document).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.components(separatedBy: "```swift\n").dropFirst().map { block in
      try #require(block.components(separatedBy: "\n```").first)
    }
  }

  /// Every Swift file of the package (sources, examples, tests), by path.
  static func swiftFiles() throws -> [String: [Substring]] {
    var files: [String: [Substring]] = [:]
    for folder in ["Sources", "Examples", "Tests"] {
      let base = root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let relative as String in walker where relative.hasSuffix(".swift") {
        let text = try String(
          contentsOfFile: base.appendingPathComponent(relative).path, encoding: .utf8)
        files[folder + "/" + relative] = text.split(
          separator: "\n", omittingEmptySubsequences: false)
      }
    }
    return files
  }

  /// True when `block`'s lines appear consecutively in `lines`, each behind the same indentation
  /// (empty lines empty).
  static func contains(_ lines: [Substring], _ block: [Substring]) -> Bool {
    guard let first = block.first, !block.isEmpty, lines.count >= block.count else { return false }
    for start in 0...(lines.count - block.count) {
      let line = lines[start]
      guard line.hasSuffix(first), line.dropLast(first.count).allSatisfy({ $0 == " " }) else {
        continue
      }
      let indent = String(repeating: " ", count: line.count - first.count)
      let matches = zip(lines[start..<(start + block.count)], block).allSatisfy { file, quoted in
        quoted.isEmpty ? file.allSatisfy(\.isWhitespace) : file == indent + quoted
      }
      if matches { return true }
    }
    return false
  }

  /// Expects every ```swift block of `document` (at least `minimum`) to be code of the package.
  static func expectEveryBlockIsCode(of document: String, minimum: Int) throws {
    let blocks = try Self.guideBlocks(document)
    #expect(blocks.count >= minimum, "\(document) lost its code")
    let files = try Self.swiftFiles()
    for block in blocks {
      let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
      let home = files.filter { Self.contains($0.value, lines) }.map(\.key)
      #expect(!home.isEmpty, "this block of \(document) is in no Swift file:\n\(block)")
    }
  }

  @Test func everySwiftBlockOfTheGuideIsCodeOfThePackage() throws {
    try Self.expectEveryBlockIsCode(of: "docs/EMBEDDING.md", minimum: 6)
  }

  /// README's embedding lines are the example app's, too.
  @Test func everySwiftBlockOfTheReadmeIsCodeOfThePackage() throws {
    try Self.expectEveryBlockIsCode(of: "README.md", minimum: 2)
  }

  @Test func theGuideQuotesTheExampleAppsDestinationLaunchAndAlert() throws {
    let blocks = try Self.guideBlocks().joined(separator: "\n")
    for needle in [
      "public struct SwiftDataDestination: PlanApplyingDestination",
      "await migrator.migrateIfNeeded(",
      "if launch.isSettled {",
      "public struct RecoveryAlert",
      "struct RecoveryFileSupport: ViewModifier",
    ] {
      #expect(blocks.contains(needle), "\(needle)")
    }
  }

  @Test func theCheckFindsADifferenceOfOneCharacter() throws {
    let file: [Substring] = ["#if x", "  func a() {", "    b()", "  }", "#endif"]
    #expect(Self.contains(file, ["func a() {", "  b()", "}"]))
    #expect(!Self.contains(file, ["func a() {", "  c()", "}"]))
    #expect(!Self.contains(file, ["func a() {", "   b()", "}"]))
  }
}

/// docs/ARCHITECTURE.md names every module under Sources/ (a module added without its row fails).
@Suite struct ArchitecturePageTests {
  @Test func everyModuleIsNamed() throws {
    let root = AvailabilityTests.root
    let page = try String(
      contentsOfFile: root.appendingPathComponent("docs/ARCHITECTURE.md").path, encoding: .utf8)
    let modules = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Sources").path)
    for module in modules where !module.hasPrefix(".") {
      #expect(page.contains("`\(module)`"), "docs/ARCHITECTURE.md does not name \(module)")
    }
  }
}
