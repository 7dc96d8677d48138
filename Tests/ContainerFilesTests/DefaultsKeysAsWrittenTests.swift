import ContainerFiles
import EngineTestSupport
import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists
import StoreFixtures
import Testing

/// Keys that differ only by Unicode normalization (`café` precomposed and decomposed, `Å` three
/// ways) are distinct keys for Core Foundation, so for the app and for iOS: reading, the model,
/// writing and the flag's rewrite keep every one of them with its value, in its place, at the top
/// and nested, in binary and XML. Checked over a generated family, and read back by a reader that
/// is not ours (Python's plistlib).
@Suite struct DefaultsKeysAsWrittenTests {
  /// Members of the family per format (fixed seeds; `scripts/fuzz` draws fresh ones through the
  /// defaults-plist target).
  static let members = 24

  static func member(_ seed: UInt64) -> PropertyListDictionary {
    var generator = SeededGenerator(seed: 0x4E46_4300 + seed)
    return NormalizationKeys.dictionary(
      entries: Int.random(in: 2...30, using: &generator), depth: 2, using: &generator)
  }

  /// Every key of `dictionary`, nested ones included, as its UTF-16 units, in order.
  static func keyUnits(_ value: PropertyListValue) -> [[UInt16]] {
    switch value {
    case .dictionary(let entries):
      entries.flatMap { [Array($0.key.utf16)] + keyUnits($0.value) }
    case .array(let elements): elements.flatMap(keyUnits)
    default: []
    }
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func theReaderAndTheWriterKeepEveryKeyAsWritten(format: PropertyListFormat) throws {
    var merged = 0
    for seed in 0..<UInt64(Self.members) {
      let original = Self.member(seed)
      merged += original.count - original.merged.count
      let bytes = PropertyListWriter.encode(.dictionary(original), format: format)
      let read = try PropertyListReader.decode(bytes).value
      #expect(read == .dictionary(original), "seed \(seed)")
      #expect(Self.keyUnits(read) == Self.keyUnits(.dictionary(original)), "seed \(seed)")
      // Written again, the same bytes: nothing reordered.
      #expect(PropertyListWriter.encode(read, format: format) == bytes, "seed \(seed)")
    }
    // The family holds keys a Swift dictionary would have merged.
    #expect(merged > Self.members)
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func settingTheFlagKeepsEveryKeyAndValueAsPlistlibReadsThem(format: PropertyListFormat) throws {
    for seed in 0..<UInt64(Self.members) {
      let folder = try TemporaryDirectory("defaults-normalization")
      let path = try AppGroupDefaultsTests.preferencesFile(in: folder)
      let original = Self.member(seed)
      try Data(PropertyListWriter.encode(.dictionary(original), format: format)).write(
        to: URL(fileURLWithPath: path))
      let before = try PythonPlistlib.canonical(ofFile: path)
      #expect(before == NormalizationKeys.canonical(.dictionary(original)), "seed \(seed)")

      let defaults = AppGroupDefaults(path: path)
      try defaults.writeFlags(MigrationFlags(isComplete: true, attempts: 1))

      var expected = original
      // New keys after the file's own, in key order.
      expected[AppGroupDefaults.attemptsKey] = .integer(1)
      expected[AppGroupDefaults.completionKey] = .bool(true)
      #expect(
        try PythonPlistlib.canonical(ofFile: path)
          == NormalizationKeys.canonical(.dictionary(expected)), "seed \(seed)")
      #expect(try defaults.readFlags() == MigrationFlags(isComplete: true, attempts: 1))
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(try PropertyListReader.decode(bytes).format == format)
    }
  }

  /// A string holding an unpaired UTF-16 surrogate (a binary plist can hold one; no Swift string
  /// can) is never rewritten as U+FFFD: the flag's rewrite is refused by name and the file keeps
  /// its bytes.
  @Test(arguments: [[UInt16(0xD800)], [0x61, 0xDC00], [0xDBFF, 0x62]], [false, true])
  func aStringThatCannotBeWrittenBackAsReadRefusesTheRewrite(units: [UInt16], inKey: Bool) throws {
    let folder = try TemporaryDirectory("defaults-surrogate")
    let path = try AppGroupDefaultsTests.preferencesFile(in: folder)
    let bytes = Self.binaryPlist(units: units, inKey: inKey)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let text = String(decoding: units, as: UTF16.self)
    #expect(
      try PropertyListReader.decode(bytes).value
        == (inKey ? [text: "value"] : ["note": .string(text)]))
    let defaults = AppGroupDefaults(path: path)
    #expect(try defaults.readFlags() == MigrationFlags())
    #expect {
      try defaults.update([AppGroupDefaults.completionKey: true])
    } throws: { error in
      guard case .writeFailed(let file, let reason) = error as? DefaultsError else { return false }
      return file == path && reason.contains("unpaired surrogate")
    }
    #expect(throws: FlagStoreError.self) {
      try defaults.writeFlags(MigrationFlags(isComplete: true, attempts: 0))
    }
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
  }

  /// A one-entry dictionary as a binary plist: `{note: <UTF-16 string of units>}`, or with
  /// `inKey`, `{<UTF-16 string of units>: value}`.
  static func binaryPlist(units: [UInt16], inKey: Bool) -> [UInt8] {
    func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
    var utf16: [UInt8] = [0x60 | UInt8(units.count)]
    for unit in units { utf16 += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    var bytes = Array("bplist00".utf8)
    let dictionaryOffset = bytes.count
    bytes += [0xD1, 0x01, 0x02]
    let keyOffset = bytes.count
    bytes += inKey ? utf16 : ascii("note")
    let valueOffset = bytes.count
    bytes += inKey ? ascii("value") : utf16
    let table = bytes.count
    bytes += [UInt8(dictionaryOffset), UInt8(keyOffset), UInt8(valueOffset)]
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, 3]
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    return bytes
  }
}
