import Foundation
import PropertyLists
import Testing

/// Binary property lists Apple's own reader accepts. Core Foundation refuses a list whose trailer
/// breaks either of its two rules (CFBinaryPList.c, `__CFBinaryPlistGetTopLevelInfo`):
///
///   - an object reference must be able to hold the object count itself:
///     `objectRefSize == 8 || 1 << (8 × objectRefSize) > numObjects`;
///   - an offset must be able to hold the offset table's own offset:
///     `offsetIntSize == 8 || 1 << (8 × offsetIntSize) > offsetTableOffset`.
///
/// Each list is checked against those rules as stated here and read back by a second, independent
/// reader: Foundation's `PropertyListSerialization` (Core Foundation's code on Linux too).
@Suite struct CoreFoundationTrailerTests {
  struct Trailer {
    var offsetSize: Int
    var referenceSize: Int
    var objects: UInt64
    var tableOffset: UInt64

    init(_ bytes: [UInt8]) {
      let end = bytes.count
      func number(_ at: Int) -> UInt64 {
        bytes[at..<(at + 8)].reduce(0) { $0 << 8 | UInt64($1) }
      }
      offsetSize = Int(bytes[end - 26])
      referenceSize = Int(bytes[end - 25])
      objects = number(end - 24)
      tableOffset = number(end - 8)
    }

    /// Core Foundation's two rules, as stated above.
    var followsCoreFoundationsRules: Bool {
      (1...8).contains(offsetSize) && (1...8).contains(referenceSize)
        && (referenceSize == 8 || UInt64(1) << (8 * UInt64(referenceSize)) > objects)
        && (offsetSize == 8 || UInt64(1) << (8 * UInt64(offsetSize)) > tableOffset)
    }
  }

  static func readByFoundation(_ bytes: [UInt8]) -> PropertyListValue? {
    do {
      let value = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
      return FoundationValue.convert(value)
    } catch {
      return nil
    }
  }

  /// A list of exactly `count` objects: an array of `count - 1` small integers.
  @Test(arguments: [254, 255, 256, 257, 65_535, 65_536, 65_537])
  func objectCountsAroundTheReferenceSizes(count: Int) throws {
    let value = PropertyListValue.array((0..<(count - 1)).map { .integer(Int64($0 % 200)) })
    let bytes = PropertyListWriter.encode(value, format: .binary)
    let trailer = Trailer(bytes)
    #expect(trailer.objects == UInt64(count))
    #expect(trailer.followsCoreFoundationsRules, "count \(count): \(trailer)")
    // Compared as a Bool: a failure must not print tens of thousands of values.
    let accepted = Self.readByFoundation(bytes) == value
    #expect(accepted, "count \(count): Foundation refused it or read another value")
    let ours = try PropertyListReader.decode(bytes).value == value
    #expect(ours)
  }

  /// A list whose object area ends on each side of 256 and 65,536 bytes (the offset table starts
  /// right there): one data object sized to put it exactly at `tableOffset`.
  @Test(arguments: [255, 256, 257, 65_535, 65_536, 65_537])
  func objectAreasEndingAroundTheOffsetSizes(tableOffset: Int) throws {
    var size = max(tableOffset - 8 - 4, 0)
    var bytes: [UInt8] = []
    var value = PropertyListValue.data([])
    for _ in 0..<8 {
      value = .data([UInt8](repeating: 0xA5, count: size))
      bytes = PropertyListWriter.encode(value, format: .binary)
      let offset = Int(Trailer(bytes).tableOffset)
      if offset == tableOffset { break }
      size += tableOffset - offset
    }
    let trailer = Trailer(bytes)
    #expect(trailer.tableOffset == UInt64(tableOffset))
    #expect(trailer.followsCoreFoundationsRules, "table at \(tableOffset): \(trailer)")
    let accepted = Self.readByFoundation(bytes) == value
    #expect(accepted, "table at \(tableOffset): Foundation refused it or read another value")
  }

  /// Defaults shaped like Ditto's (a dozen keys, one long list), across sizes: all accepted.
  @Test func defaultsShapedListsOfEverySizeAreAccepted() throws {
    var refused: [Int] = []
    for entries in stride(from: 1, through: 700, by: 7) {
      let value = PropertyListValue.dictionary([
        "legacyCoreDataMigrationComplete_v302": .bool(true),
        "legacyCoreDataMigrationAttempts_v302": .integer(2),
        "keyboardHeight": .real(216.5),
        "history": .array((0..<entries).map { .string("ditto \($0) ✓") }),
        "lastLaunch": .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
      ])
      let bytes = PropertyListWriter.encode(value, format: .binary)
      if !Trailer(bytes).followsCoreFoundationsRules || Self.readByFoundation(bytes) != value {
        refused.append(entries)
      }
    }
    #expect(refused.isEmpty, "refused with \(refused) entries")
  }

  /// A 16-byte integer, read as Core Foundation reads it, is written back so that Core Foundation
  /// reads the same value.
  @Test func sixteenByteIntegersRoundTripAsCoreFoundationReadsThem() throws {
    let value = PropertyListValue.dictionary([
      "big": .unsignedInteger(UInt64.max - 4), "small": .integer(7),
    ])
    let bytes = PropertyListWriter.encode(value, format: .binary)
    #expect(try PropertyListReader.decode(bytes).value == value)
    // Foundation hands the number over with its low 64 bits: the same value, taken unsigned.
    let theirs = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
    let dictionary = try #require(theirs as? [String: Any])
    let big = try #require(dictionary["big"] as? NSNumber)
    #expect(big.uint64Value == UInt64.max - 4)
    #expect((dictionary["small"] as? NSNumber)?.int64Value == 7)
  }
}
