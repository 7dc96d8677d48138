import Foundation
import PropertyLists
import Testing

/// The package's own property-list reader and writer: every kind of value in both formats, the
/// XML forms people and tools write, and hostile input refused with a named error.
@Suite struct PropertyListReaderTests {
  static let sample: PropertyListValue = .dictionary([
    "string": .string("plain"),
    "unicode": .string("Café ❤️ 日本語"),
    "empty": .string(""),
    "integers": .array([
      .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
      .integer(4_294_967_295), .integer(4_294_967_296), .integer(-1), .integer(Int64.min),
      .integer(Int64.max),
    ]),
    "reals": .array([.real(1.5), .real(-0.25), .real(1e300)]),
    "flags": .array([.bool(true), .bool(false)]),
    "date": .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
    "data": .data([0, 1, 2, 255, 128]),
    "bigData": .data(Array(repeating: 7, count: 300)),
    "nested": .dictionary(["array": .array([.dictionary([:]), .array([])])]),
    "long": .string(String(repeating: "x", count: 40)),
  ])

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func whatIsWrittenReadsBackTheSame(format: PropertyListFormat) throws {
    let bytes = PropertyListWriter.encode(Self.sample, format: format)
    let decoded = try PropertyListReader.decode(bytes)
    #expect(decoded.format == format)
    #expect(decoded.value == Self.sample)
  }

  @Test func uidsAreTheirOwnCaseInBinaryAndXML() throws {
    let value: PropertyListValue = .dictionary(["root": .uid(1), "big": .uid(70_000)])
    let binary = try PropertyListReader.decode(PropertyListWriter.encode(value, format: .binary))
    #expect(binary.value == value)
    // XML spells a UID {CF$UID: n}: read back as a UID, as Core Foundation reads it.
    let written = String(decoding: PropertyListWriter.encode(value, format: .xml), as: UTF8.self)
    #expect(written.contains("<key>CF$UID</key>"))
    let xml = try PropertyListReader.decode(Array(written.utf8))
    #expect(xml.value == value)
    let notAUID = "<dict><key>CF$UID</key><integer>-1</integer></dict>"
    #expect(
      try PropertyListReader.decode(Array(notAUID.utf8)).value
        == .dictionary(["CF$UID": .integer(-1)]))
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func foundationWrittenListsReadAsFoundationReadsThem(format: PropertyListFormat) throws {
    let object: [String: Any] = [
      "dittos": ["On my way", "Thanks!", "Café ❤️"],
      "count": 12, "negative": -3, "ratio": 0.5, "flag": true, "off": false,
      "when": Date(timeIntervalSinceReferenceDate: 12_345), "blob": Data([1, 2, 3]),
      "pendingDittos": ["Work": ["a", "b"]],
    ]
    let data = try PropertyListSerialization.data(
      fromPropertyList: object, format: format == .xml ? .xml : .binary, options: 0)
    let ours = try PropertyListReader.decode(Array(data))
    #expect(ours.format == format)
    #expect(ours.value == FoundationValue.convert(object))
  }

  @Test func theXMLPeopleAndToolsWriteIsRead() throws {
    let xml =
      "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
      + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\r\n"
      + "<!-- a comment -->\r\n<plist version=\"1.0\">\r\n<dict>\r\n"
      + "  <key>entities</key><string>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#233; &#x1F600;</string>\r\n"
      + "  <key>cdata</key><string><![CDATA[<not markup> & more]]></string>\r\n"
      + "  <key>lines</key><string>one\r\ntwo\rthree\nfour</string>\r\n"
      + "  <key>hex</key><integer>0x1F</integer>\r\n"
      + "  <key>spaced</key><integer> 42 </integer>\r\n"
      + "  <key>data</key><data>\r\n\tAAEC\r\n\t/w==\r\n</data>\r\n"
      + "  <!-- between -->\r\n"
      + "  <key>empty</key><string/>\r\n  <key>none</key><dict/>\r\n  <key>nothing</key><array/>\r\n"
      + "  <key>yes</key><true/><key>no</key><false></false>\r\n"
      + "  <key>when</key><date>2001-01-01T00:00:00Z</date>\r\n"
      + "  <key>nan</key><real>nan</real><key>inf</key><real>-infinity</real>\r\n"
      + "</dict>\r\n</plist>\r\n"
    let decoded = try PropertyListReader.decode(Array(xml.utf8))
    #expect(decoded.format == .xml)
    let value = decoded.value
    #expect(value["entities"] == .string("<a> & \"b\" 'c' é 😀"))
    #expect(value["cdata"] == .string("<not markup> & more"))
    #expect(value["lines"] == .string("one\r\ntwo\rthree\nfour"))
    #expect(value["hex"] == .integer(31))
    #expect(value["spaced"] == .integer(42))
    #expect(value["data"] == .data([0, 1, 2, 255]))
    #expect(value["empty"] == .string(""))
    #expect(value["none"] == .dictionary([:]))
    #expect(value["nothing"] == .array([]))
    #expect(value["yes"] == .bool(true) && value["no"] == .bool(false))
    #expect(value["when"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
    #expect(value["nan"]?.real?.isNaN == true)
    #expect(value["inf"] == .real(-.infinity))
  }

  /// A string value that starts with U+FEFF keeps it (Foundation's UTF-8 decoding drops one), in
  /// both formats and through a rewrite (found by the fuzzer).
  @Test(arguments: [PropertyListFormat.binary, .xml])
  func aStringStartingWithAByteOrderMarkKeepsIt(format: PropertyListFormat) throws {
    let value = PropertyListValue.dictionary(["text": .string("\u{FEFF}<?x starts with a BOM")])
    let read = try PropertyListReader.decode(PropertyListWriter.encode(value, format: format))
    #expect(read.value == value)
  }

  @Test func utf16TextWithABOMIsRead() throws {
    let xml = "<plist><dict><key>k</key><string>Grüße</string></dict></plist>"
    for bigEndian in [true, false] {
      var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
      for unit in xml.utf16 {
        let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        bytes += bigEndian ? pair : pair.reversed()
      }
      #expect(try PropertyListReader.decode(bytes).value["k"] == .string("Grüße"))
    }
  }

  @Test func theWriterIsByteStable() {
    let value: PropertyListValue = .dictionary([
      "b": .integer(1), "a": .array([.string("x"), .bool(true)]), "c": .string("é"),
    ])
    // bplist00, then: dict(3) → keys a b c, values; ASCII and UTF-16 strings; minimal sizes.
    let expected: [UInt8] =
      Array("bplist00".utf8) + [
        0xD3, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08,  // dict: keys 1 2 3, values 4 7 8
        0x51, 0x61,  // "a"
        0x51, 0x62,  // "b"
        0x51, 0x63,  // "c"
        0xA2, 0x05, 0x06,  // [5, 6]
        0x51, 0x78,  // "x"
        0x09,  // true
        0x10, 0x01,  // 1
        0x61, 0x00, 0xE9,  // "é" in UTF-16
        // offset table (1 byte each)
        0x08, 0x0F, 0x11, 0x13, 0x15, 0x18, 0x1A, 0x1B, 0x1D,
        // trailer
        0, 0, 0, 0, 0, 0, 1, 1,
        0, 0, 0, 0, 0, 0, 0, 9,
        0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0x20,
      ]
    #expect(PropertyListWriter.encode(value, format: .binary) == expected)
    let xml = String(decoding: PropertyListWriter.encode(value, format: .xml), as: UTF8.self)
    #expect(
      xml == """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>a</key>
        \t<array>
        \t\t<string>x</string>
        \t\t<true/>
        \t</array>
        \t<key>b</key>
        \t<integer>1</integer>
        \t<key>c</key>
        \t<string>é</string>
        </dict>
        </plist>

        """)
  }

  // MARK: - Hostile input

  /// A binary list with `objects` (each a marker and payload), the top object first, and
  /// one-byte offsets and references.
  static func binary(_ objects: [[UInt8]], top: UInt8 = 0, referenceSize: UInt8 = 1) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = UInt8(bytes.count)
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, referenceSize]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
    bytes += [0, 0, 0, 0, 0, 0, 0, top]
    bytes += [0, 0, 0, 0, 0, 0, 0, table]
    return bytes
  }

  static func kind(_ bytes: [UInt8]) -> PropertyListError.Kind? {
    do {
      _ = try PropertyListReader.decode(bytes)
      return nil
    } catch {
      return error.kind
    }
  }

  @Test func hostileBinaryListsAreNamedErrors() {
    // An array that holds itself.
    #expect(Self.kind(Self.binary([[0xA1, 0x00]])) == .cycle)
    // Two arrays holding each other.
    #expect(Self.kind(Self.binary([[0xA1, 0x01], [0xA1, 0x00]])) == .cycle)
    // A reference past the object count.
    #expect(Self.kind(Self.binary([[0xA1, 0x05]])) == .malformed)
    // A set, and null.
    #expect(Self.kind(Self.binary([[0xC1, 0x01], [0x09]])) == .unsupportedObject)
    #expect(Self.kind(Self.binary([[0x00]])) == .unsupportedObject)
    // A string whose count runs past the objects.
    #expect(
      Self.kind(Self.binary([[0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        == .truncated)
    // A data whose count is negative.
    #expect(
      Self.kind(Self.binary([[0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        == .truncated)
    // A dictionary key that is not a string.
    #expect(Self.kind(Self.binary([[0xD1, 0x01, 0x01], [0x10, 0x01]])) == .unsupportedObject)
    // An integer of 16 bytes is read as Core Foundation reads it: its low 8 bytes, unsigned (the
    // high 8 dropped), never a reason to refuse the whole list.
    #expect(
      (try? PropertyListReader.decode(
        Self.binary([[0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]])))?
        .value == .integer(0))
    #expect(
      (try? PropertyListReader.decode(
        Self.binary([[0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)])
      ))?
      .value == .unsignedInteger(UInt64.max))
    #expect(
      (try? PropertyListReader.decode(
        Self.binary([[0x14] + [UInt8](repeating: 0, count: 15) + [7]])))?
        .value == .integer(7))
    // An ASCII string with a byte above 127 reads as ISO Latin-1.
    #expect((try? PropertyListReader.decode(Self.binary([[0x51, 0xE9]])))?.value == .string("é"))
    // Trailers that lie.
    var lying = Self.binary([[0x09]])
    lying[lying.count - 1] = 0xFF
    #expect(Self.kind(lying) == .truncated)
    var badSize = Self.binary([[0x09]])
    badSize[badSize.count - 26] = 9
    #expect(Self.kind(badSize) == .malformed)
    #expect(Self.kind(Array("bplist00".utf8)) == .truncated)
    #expect(
      Self.kind(Array("bplist16abcdefghijklmnopqrstuvwxyz0123456789".utf8)) == .unsupportedVersion)
    var anyEighthByte = Self.binary([[0x09]])
    anyEighthByte[7] = UInt8(ascii: "h")
    #expect((try? PropertyListReader.decode(anyEighthByte))?.value == .bool(true))
  }

  @Test func deepNestingAndExpansionAreBounded() {
    // 300 arrays, each holding the next.
    var objects: [[UInt8]] = []
    for index in 0..<300 { objects.append(index == 299 ? [0x09] : [0xA1, 0x00]) }
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt64] = []
    for (index, object) in objects.enumerated() {
      offsets.append(UInt64(bytes.count))
      bytes +=
        index == 299 ? object : [0xA1] + [UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]
    }
    let table = bytes.count
    for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
    bytes +=
      [0, 0, 0, 0, 0, 0, 2, 2] + [0, 0, 0, 0, 0, 0, 1, 44] + [UInt8](repeating: 0, count: 8)
    bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
    #expect(Self.kind(bytes) == .tooDeep)
    // Each array holds the next one twice: 2^40 values if it were expanded.
    var shared: [[UInt8]] = []
    for index in 0..<41 {
      shared.append(index == 40 ? [0x09] : [0xA2, UInt8(index + 1), UInt8(index + 1)])
    }
    #expect(Self.kind(Self.binary(shared)) == .tooLarge)
    let xml = String(repeating: "<array>", count: 300) + String(repeating: "</array>", count: 300)
    #expect(Self.kind(Array(xml.utf8)) == .tooDeep)
  }

  @Test func otherTextIsRefusedByName() {
    #expect(Self.kind(Array("{ dittos = (a, b); }".utf8)) == .openStep)
    #expect(Self.kind(Array("(a, b)".utf8)) == .openStep)
    #expect(Self.kind([]) == .notAPropertyList)
    #expect(Self.kind(Array("   \n".utf8)) == .openStep)
    #expect(Self.kind(Array("hello".utf8)) == .openStep)
    #expect(Self.kind([0xFF, 0xFE, 0x00]) == .invalidText)
    #expect(Self.kind([0x00, 0xC3, 0x28]) == .notAPropertyList)
    #expect(Self.kind(Array("<plist><dict><key>a</key></dict></plist>".utf8)) == .malformed)
    #expect(Self.kind(Array("<plist><string>a</plist>".utf8)) == .malformed)
    #expect(Self.kind(Array("<plist><string>a".utf8)) == .truncated)
    #expect(Self.kind(Array("<plist><integer>12x</integer></plist>".utf8)) == .malformed)
    #expect(
      Self.kind(Array("<plist><integer>99999999999999999999</integer></plist>".utf8)) == .malformed)
    #expect(Self.kind(Array("<plist><date>yesterday</date></plist>".utf8)) == .malformed)
    // <data> decodes as Core Foundation decodes it: what is not base64 is skipped.
    #expect(
      (try? PropertyListReader.decode(Array("<data>!!AA==</data>".utf8)))?.value == .data([0]))
    #expect(Self.kind(Array("<plist><string>&bogus;</string></plist>".utf8)) == .malformed)
    #expect(Self.kind(Array("<plist><blob/></plist>".utf8)) == .malformed)
    #expect(
      Self.kind([
        0x3C, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x3E, 0xFF, 0x3C, 0x2F, 0x73, 0x74, 0x72, 0x69,
        0x6E, 0x67, 0x3E,
      ]) == .invalidText)
    // What follows the end is ignored, as Core Foundation ignores it.
    #expect(
      (try? PropertyListReader.decode(Array("<plist><string>a</string></plist> trailing".utf8)))?
        .value == .string("a"))
  }

  @Test func keyedArchivesAreReadByKey() throws {
    let archive: PropertyListValue = .dictionary([
      "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
      "$top": .dictionary(["root": .uid(1)]),
      "$objects": .array([
        .string("$null"),
        .dictionary([
          "Size": .integer(40_960), "RelativePath": .uid(2), "Missing": .uid(0), "$class": .uid(3),
        ]),
        .string("Library/Ditto.sqlite"),
        .dictionary(["$classname": .string("MBFile"), "$classes": .array([.string("MBFile")])]),
      ]),
    ])
    for format in [PropertyListFormat.binary, .xml] {
      let read = try PropertyListReader.decode(PropertyListWriter.encode(archive, format: format))
      let keyed = try KeyedArchive(read.value)
      #expect(keyed["Size"] == .integer(40_960))
      #expect(keyed["RelativePath"] == .string("Library/Ditto.sqlite"))
      #expect(keyed["Missing"] == nil)
    }
    #expect(throws: KeyedArchiveError.self) { try KeyedArchive(.array([])) }
    #expect(throws: KeyedArchiveError.self) {
      try KeyedArchive(
        .dictionary(["$objects": .array([]), "$top": .dictionary(["root": .uid(4)])]))
    }
  }
}

/// What fuzzing found in the writer, kept as tests.
@Suite struct PropertyListWriterFindingTests {
  /// Finding 1 (fuzz-property-list, 74k runs): a `&` followed by a combining mark is one Swift
  /// `Character`, and escaping by Character left it raw, so the XML written did not read back.
  @Test func anAmpersandBeforeACombiningMarkIsEscaped() throws {
    let value: PropertyListValue = ["k": "a &\u{6E0}c <\u{301}"]
    let xml = PropertyListWriter.encode(value, format: .xml)
    #expect(try PropertyListReader.decode(xml).value == value)
  }
}

/// An unsigned value above Int64.max (a binary plist's 128-bit integer keeps its low 64 bits)
/// reads back from the XML the writer writes for it (a fuzz finding: the XML reader refused it).
@Suite struct UnsignedIntegerRoundTripTests {
  @Test(arguments: [UInt64(Int64.max) + 1, UInt64.max])
  func anUnsignedIntegerReadsBackFromXML(value: UInt64) throws {
    for format in [PropertyListFormat.xml, .binary] {
      let written = PropertyListWriter.encode(.unsignedInteger(value), format: format)
      #expect(try PropertyListReader.decode(written).value == .unsignedInteger(value), "\(format)")
    }
    #expect(
      throws: PropertyListError.self,
      performing: {
        try PropertyListReader.decode(
          Array("<plist><integer>18446744073709551616</integer></plist>".utf8))
      })
  }
}
