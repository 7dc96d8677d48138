import Foundation
import Testing

/// The package builds for iOS 17 / macOS 14: no API newer than those without a guard, in the
/// product sources or the tests (Linux would never notice; the app's build would fail).
@Suite struct AvailabilityTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every `.swift` file under `folder` (relative to the repository).
  static func swiftFiles(under folder: String) throws -> [String] {
    let base = root.appendingPathComponent(folder).path
    let enumerator = try #require(FileManager.default.enumerator(atPath: base))
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      if relative.hasSuffix(".swift") { files.append(folder + "/" + relative) }
    }
    return files.sorted()
  }

  @Test func noUnguardedAPINewerThanThePlatforms() throws {
    var files = try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Tests")
    files += try Self.swiftFiles(under: "Fuzz/Sources") + Self.swiftFiles(under: "Benchmarks")
    #expect(files.count > 100, "the scan found the sources")
    var findings: [AvailabilityCheck.Finding] = []
    for file in files {
      let text = try String(
        contentsOfFile: Self.root.appendingPathComponent(file).path, encoding: .utf8)
      findings += AvailabilityCheck.findings(in: text, file: file)
    }
    #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
  }

  /// The check would have caught the call that broke the iOS 17 build, and accepts it guarded.
  @Test func theCheckCatchesWhatBrokeTheBuild() {
    let unguarded = [
      "func decode(_ bytes: [UInt8]) -> String? {",
      "  return String(validating: bytes, as: UTF8.self)",
      "}",
    ].joined(separator: "\n")
    let found = AvailabilityCheck.findings(in: unguarded, file: "ByteReading.swift")
    #expect(found.map(\.api) == ["String(validating:as:)"])
    #expect(found.first?.line == 2)

    let guarded = [
      "func decode(_ bytes: [UInt8]) -> String? {",
      "  if #available(iOS 18, macOS 15, *) {",
      "    return String(validating: bytes, as: UTF8.self)",
      "  }",
      "  return nil",
      "}",
    ].joined(separator: "\n")
    #expect(AvailabilityCheck.findings(in: guarded, file: "x.swift").isEmpty)

    let inCommentsAndStrings = [
      "// String(validating: bytes, as: UTF8.self) is iOS 18",
      "let note = \"String(validating:) and Mutex<Int> are newer\"",
    ].joined(separator: "\n")
    #expect(AvailabilityCheck.findings(in: inCommentsAndStrings, file: "x.swift").isEmpty)
  }

  @Test func theOtherNamedAPIsAreCaught() {
    let cases: [(String, String)] = [
      ("let lock = Mutex<Int>(0)", "Mutex"),
      ("let counter = Atomic<Int>(0)", "Atomic"),
      ("import Synchronization", "import Synchronization"),
      ("var slots: InlineArray<4, Int>", "InlineArray"),
      ("let big: Int128 = 1", "Int128 / UInt128"),
      ("let handler: (Int) throws(MyError) -> Void", "typed throws in a stored function type"),
      (
        "  private var hooks: [() throws(HookError) -> Void] = []",
        "typed throws in a stored function type"
      ),
    ]
    for (line, api) in cases {
      #expect(
        AvailabilityCheck.findings(in: line, file: "x.swift").map(\.api) == [api], "\(line)")
    }
    // A typed-throws parameter of a function is fine (no stored function type).
    #expect(
      AvailabilityCheck.findings(
        in: "func run(_ body: () throws(E) -> Void) throws(E) {}", file: "x.swift"
      ).isEmpty)
    #expect(
      AvailabilityCheck.findings(
        in: "  public init(path: String) throws(LegacyStoreError) {", file: "x.swift"
      ).isEmpty)
  }
}
