import Foundation

/// The read-only fixtures in `../shared/fixtures` beside the repository.
public enum SharedFixtures {
  /// `../shared/fixtures`, resolved from this source file.
  public static var root: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared/fixtures").standardized.path
  }

  /// True when the shared fixtures are present.
  public static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: root + "/ditto-2x/intact/Ditto.sqlite")
  }

  /// The 2.x fixture folders.
  public static let dittoStores = ["intact", "reordered-ios8", "wal-only"]

  /// `expected.json` of a 2.x fixture, as (title, [(text, useCount)]).
  public static func expected(_ name: String) throws -> [(
    title: String, dittos: [(text: String, useCount: Int64)]
  )] {
    try expectedContent(at: root + "/ditto-2x/\(name)/expected.json")
  }

  /// Any `expected.json` in the export shape.
  public static func expectedContent(at path: String) throws -> [(
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
