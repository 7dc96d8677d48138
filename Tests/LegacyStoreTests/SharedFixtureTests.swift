import Foundation
import LegacyStore
import Testing

@Test(arguments: ["intact", "reordered-ios8", "wal-only"])
func sharedFixtureReadsExactly(name: String) throws {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/fixtures/ditto-2x/\(name)").standardized
  let library = try DittoStoreReader.read(path: folder.appendingPathComponent("Ditto.sqlite").path)
  let expected = try JSONSerialization.jsonObject(
    with: Data(contentsOf: folder.appendingPathComponent("expected.json"))) as! [String: Any]
  let categories = expected["categories"] as! [[String: Any]]
  #expect(library.categories.map(\.title) == categories.map { $0["title"] as! String })
  for (read, want) in zip(library.categories, categories) {
    let dittos = want["dittos"] as! [[String: Any]]
    #expect(read.dittos.map(\.text) == dittos.map { $0["text"] as! String })
    #expect(read.dittos.map(\.useCount) == dittos.map { Int64($0["useCount"] as! Int) })
  }
}
