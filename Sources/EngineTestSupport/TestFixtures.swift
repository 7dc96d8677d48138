import Foundation

/// The fixtures made outside this repository, kept in `Tests/Fixtures` (provenance in its README).
package enum TestFixtures {
  /// `Tests/Fixtures` of this package, resolved from this source file.
  package static var root: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures").standardized.path
  }

  /// A fixture that should be in `Tests/Fixtures` but is not: the test using it fails.
  package struct Missing: Error, CustomStringConvertible {
    /// The path that was looked for.
    package let path: String
    package var description: String { "missing fixture \(path) (see Tests/Fixtures/README.md)" }
  }

  /// The absolute path of `relative` (`ditto-2x/intact/Ditto.sqlite`) under ``root``.
  ///
  /// - Throws: ``Missing`` when nothing is there, so a lost fixture fails its test.
  package static func path(_ relative: String) throws -> String {
    let path = root + "/" + relative
    guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
    return path
  }

  /// The 2.x fixture folders.
  package static let dittoStores = ["intact", "reordered-ios8", "wal-only"]

  /// `expected.json` of a 2.x fixture, as (title, [(text, useCount)]).
  package static func expected(_ name: String) throws -> [(
    title: String, dittos: [(text: String, useCount: Int64)]
  )] {
    try expectedContent(at: path("ditto-2x/\(name)/expected.json"))
  }

  /// Any `expected.json` in the export shape.
  package static func expectedContent(at path: String) throws -> [(
    title: String, dittos: [(text: String, useCount: Int64)]
  )] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let categories = object["categories"] as? [[String: Any]]
    else { throw CocoaError(.fileReadCorruptFile) }
    return categories.map { category in
      let dittos = (category["dittos"] as? [[String: Any]] ?? []).map { ditto in
        (ditto["text"] as? String ?? "", Int64(ditto["useCount"] as? Int ?? -1))
      }
      return (category["title"] as? String ?? "", dittos)
    }
  }
}
