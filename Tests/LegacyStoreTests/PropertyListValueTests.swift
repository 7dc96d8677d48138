import Foundation
import LegacyStore
import Testing

/// Property lists are written through `PropertyListValue` (Codable), which encodes the same in a
/// statically linked build: what was decoded comes back with every type as it was.
@Suite struct PropertyListValueTests {
  static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>flag</key><true/><key>off</key><false/><key>count</key><integer>3</integer>
    <key>big</key><integer>9223372036854775807</integer><key>ratio</key><real>1.5</real>
    <key>name</key><string>Café ❤️</string><key>blob</key><data>AQID</data>
    <key>when</key><date>2024-01-01T00:00:00Z</date>
    <key>dittos</key><array><string>one</string><integer>0</integer><false/></array>
    <key>pendingDittos</key><dict><key>Work</key><array><string>a</string></array></dict>
    <key>empty</key><array/><key>none</key><dict/>
    </dict></plist>
    """

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func whatWasDecodedComesBackTheSame(format: PropertyListSerialization.PropertyListFormat) throws {
    let decoded = try UntrustedPropertyList.decode(Array(Self.xml.utf8)).value
    let value = try #require(PropertyListValue(decoded))
    let encoded = try value.encoded(format: format)
    let again = try UntrustedPropertyList.decode(Array(encoded))
    #expect(again.format == format)
    #expect(PropertyListValue(again.value) == value)
    guard case .dictionary(let keys) = value else {
      Issue.record("not a dictionary")
      return
    }
    #expect(keys["flag"] == .bool(true) && keys["off"] == .bool(false))
    #expect(keys["count"] == .integer(3) && keys["big"] == .integer(.max))
    #expect(keys["ratio"] == .real(1.5))
    #expect(keys["name"] == .string("Café ❤️"))
    #expect(keys["blob"] == .data(Data([1, 2, 3])))
    #expect(keys["dittos"] == .array([.string("one"), .integer(0), .bool(false)]))
    #expect(keys["pendingDittos"] == .dictionary(["Work": .array([.string("a")])]))
    #expect(keys["empty"] == .array([]) && keys["none"] == .dictionary([:]))
  }

  @Test func swiftValuesAndWhatIsNotAPropertyList() throws {
    let value = PropertyListValue(
      ["n": 641, "b": true, "s": [""], "h": ["x": Data(count: 2)]] as [String: Any])
    #expect(
      value
        == .dictionary([
          "n": .integer(641), "b": .bool(true), "s": .array([.string("")]),
          "h": .dictionary(["x": .data(Data(count: 2))]),
        ]))
    #expect(PropertyListValue(["bad": NSObject()] as [String: Any]) == nil)
    #expect(throws: PropertyListDecodingError.self) {
      try PropertyListValue.encode([1: "integer keys"] as [Int: String], format: .binary)
    }
  }
}
