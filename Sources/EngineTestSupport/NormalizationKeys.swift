import Foundation
import PropertyLists
import StoreFixtures

/// Defaults dictionaries whose keys differ only by Unicode normalization: the family Swift's
/// `String` equality merges and Core Foundation keeps apart (its keys compare by UTF-16 units).
///
/// Each key is a random stem (ASCII, accented, Japanese, or none) and one spelling of a character
/// that has several: precomposed (NFC), decomposed (NFD), a compatibility or singleton code point
/// (U+212B ANGSTROM SIGN, U+2126 OHM SIGN, U+212A KELVIN SIGN), reordered combining marks.
/// Dictionaries are made at the top and nested (a dictionary of titles, one inside an array),
/// holding strings (themselves drawn from the same spellings), integers, booleans and arrays.
package enum NormalizationKeys {
  /// Spellings of one text that Swift's `String ==` takes for equal (or, for the compatibility
  /// forms, that look alike): every one of them is a key of its own for Core Foundation.
  package static let spellings: [[String]] = [
    ["caf\u{E9}", "cafe\u{301}"],
    ["\u{C5}", "\u{212B}", "A\u{30A}"],
    ["\u{3A9}", "\u{2126}"],
    ["K", "\u{212A}"],
    ["\u{F1}", "n\u{303}"],
    ["\u{AC00}", "\u{1100}\u{1161}"],
    ["\u{1EC7}", "e\u{323}\u{302}", "\u{EA}\u{323}", "e\u{302}\u{323}"],
    ["\u{FB01}", "fi"],
    ["\u{FF21}", "A"],
    ["\u{30AC}", "\u{30AB}\u{3099}"],
  ]

  private static let stems = [
    "", "title ", "Ditto ", "r\u{E9}sum\u{E9} ", "\u{65E5}\u{672C} ", "x",
  ]

  /// A dictionary of `count` entries (at most, when spellings run out) whose keys fall into
  /// groups of equivalent spellings.
  package static func dictionary(
    entries count: Int, depth: Int, using generator: inout SeededGenerator
  ) -> PropertyListDictionary {
    var dictionary = PropertyListDictionary()
    var attempts = 0
    while dictionary.count < count, attempts < count * 4 {
      attempts += 1
      let group = spellings[Int.random(in: 0..<spellings.count, using: &generator)]
      let stem = stems[Int.random(in: 0..<stems.count, using: &generator)]
      // Usually every spelling of the group, so that the keys that merge are all there.
      let chosen =
        Bool.random(using: &generator) ? group : [group.randomElement(using: &generator)!]
      for spelling in chosen where dictionary.count < count {
        let key = stem + spelling
        guard dictionary[key] == nil else { continue }
        dictionary[key] = value(depth: depth, using: &generator)
      }
    }
    return dictionary
  }

  private static func value(depth: Int, using generator: inout SeededGenerator)
    -> PropertyListValue
  {
    let kinds = depth > 0 ? 6 : 4
    switch Int.random(in: 0..<kinds, using: &generator) {
    case 0:
      let group = spellings[Int.random(in: 0..<spellings.count, using: &generator)]
      return .string("text " + group.randomElement(using: &generator)!)
    case 1: return .integer(Int64.random(in: -1_000...1_000_000, using: &generator))
    case 2: return .bool(Bool.random(using: &generator))
    case 3:
      return .array(
        (0..<Int.random(in: 0...3, using: &generator)).map { .string("item \($0)") })
    case 4:
      return .dictionary(
        dictionary(
          entries: Int.random(in: 1...8, using: &generator), depth: depth - 1, using: &generator))
    default:
      return .array([
        .dictionary(
          dictionary(
            entries: Int.random(in: 1...6, using: &generator), depth: depth - 1,
            using: &generator))
      ])
    }
  }

  /// `value` in the canonical text ``PythonPlistlib/canonical(ofFile:)`` prints: keys and strings
  /// as the hex of their UTF-16 (big-endian) bytes, dictionaries as ordered `[key, value]` lists.
  package static func canonical(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let text): return "\"s:\(hex(text))\""
    case .integer(let number): return "\(number)"
    case .bool(let flag): return flag ? "true" : "false"
    case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
    case .dictionary(let entries):
      return "{\"d\":["
        + entries.map { "[\"\(hex($0.key))\",\(canonical($0.value))]" }.joined(separator: ",")
        + "]}"
    default: return "\"unsupported\""
    }
  }

  /// `text`'s UTF-16 code units, big-endian, in hex.
  package static func hex(_ text: String) -> String {
    text.utf16.map { unit in
      let digits = String(unit, radix: 16)
      return String(repeating: "0", count: 4 - digits.count) + digits
    }.joined()
  }
}

/// Python's `plistlib`: a property-list reader that is not ours and keeps keys as written (Python
/// strings compare by code point). Foundation on Linux cannot be that reader: it hands
/// dictionaries over as Swift dictionaries, which merge keys that differ only by normalization.
package enum PythonPlistlib {
  /// The file at `path` as plistlib reads it, in ``NormalizationKeys/canonical(_:)``'s text.
  package static func canonical(ofFile path: String) throws -> String {
    let script = """
      import json, plistlib, sys
      def hexed(text):
          return text.encode("utf-16-be", "surrogatepass").hex()
      def canonical(value):
          if isinstance(value, bool):
              return "true" if value else "false"
          if isinstance(value, int):
              return str(value)
          if isinstance(value, str):
              return '"s:' + hexed(value) + '"'
          if isinstance(value, list):
              return "[" + ",".join(canonical(element) for element in value) + "]"
          if isinstance(value, dict):
              pairs = ('["%s",%s]' % (hexed(key), canonical(element)) for key, element in value.items())
              return '{"d":[' + ",".join(pairs) + "]}"
          return '"unsupported"'
      with open(sys.argv[1], "rb") as file:
          sys.stdout.write(canonical(plistlib.load(file)))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw PlistlibFailed(message: String(decoding: complaint, as: UTF8.self))
    }
    return String(decoding: printed, as: UTF8.self)
  }

  /// plistlib could not read the file (or python3 is missing: `scripts/setup` installs it).
  package struct PlistlibFailed: Error, CustomStringConvertible {
    package let message: String
    package var description: String { "plistlib: \(message)" }
  }
}
