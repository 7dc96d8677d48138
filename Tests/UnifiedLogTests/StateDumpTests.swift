import Foundation
import LogArchiveFixtures
import PropertyLists
import StoreFixtures
import Testing

@testable import UnifiedLog

/// State dumps read as `log show` prints them: the TTL the chunk stores, the title, then the data
/// rendered by its type (a property list as JSON, CoreLocation's state trackers as the format
/// document lays them out, any other decoder named), over a generated family of dumps.
@Suite struct StateDumpTests {
  static func read(_ dumps: [LogArchiveWriter.StateDump], subsystem: String? = nil) -> (
    entries: [UnifiedLogEntry], problems: [String]
  ) {
    let writer = LogArchiveWriter(arm: true)
    let bytes = writer.traceV3(
      [LogArchiveWriter.Entry(offsetNanoseconds: 1_000, message: "before")], stateDumps: dumps)
    var parser = TraceV3Parser(
      file: "dumps.tracev3", context: LogContext(timesyncFiles: []) { _ in nil },
      subsystem: subsystem)
    var entries: [UnifiedLogEntry] = []
    parser.feed(bytes) { entries.append($0) }
    parser.finish { entries.append($0) }
    return (entries.filter { $0.eventType == "stateEvent" }, parser.problems.map(\.code))
  }

  /// The keys of `_CLLocationManagerStateTrackerState` in the order the format document prints
  /// them, each with its offset and kind (b: boolean byte, d: double, i4/i8: signed integer).
  static let locationManagerKeys: [(String, Int, String)] = [
    ("previousAuthorizationStatusValid", 35, "b"), ("paused", 60, "b"),
    ("requestingLocation", 17, "b"), ("updatingVehicleSpeed", 65, "b"),
    ("desiredAccuracy", 8, "d"), ("allowsBackgroundLocationUpdates", 61, "b"),
    ("dynamicAccuracyReductionEnabled", 34, "b"), ("distanceFilter", 0, "d"),
    ("allowsLocationPrompts", 32, "b"), ("activityType", 48, "i8"),
    ("groundAltitudeEnabled", 68, "b"), ("pausesLocationUpdatesAutomatially", 56, "i4"),
    ("fusionInfoEnabled", 69, "b"), ("isAuthorizedForWidgetUpdates", 71, "b"),
    ("updatingVehicleHeading", 66, "b"), ("batchingLocation", 64, "b"),
    ("showsBackgroundLocationIndicator", 62, "b"), ("updatingLocation", 16, "b"),
    ("requestingRanging", 18, "b"), ("updatingHeading", 20, "b"),
    ("previousAuthorizationStatus", 36, "i4"), ("allowsMapCorrection", 63, "b"),
    ("matchInfoEnabled", 67, "b"), ("allowsAlteredAccessoryLoctions", 33, "b"),
    ("updatingRanging", 19, "b"), ("limitsPrecision", 40, "b"),
    ("courtesyPromptNeeded", 70, "b"), ("headingFilter", 24, "d"),
  ]

  static func little(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
    (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }

  /// A random property-list value JSON can hold exactly (no dates, data or non-integral reals).
  static func randomValue(depth: Int, using generator: inout SeededGenerator) -> PropertyListValue {
    let texts = ["", "a", "café", "e\u{301}", "\"quoted\"\n\\", "日本", "tab\there", "🙂"]
    switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &generator) {
    case 0: return .string(texts.randomElement(using: &generator)! + String(depth))
    case 1: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
    case 2: return .bool(Bool.random(using: &generator))
    case 3: return .real(Double(Int.random(in: -500...500, using: &generator)) / 4)
    case 4: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator))
    case 5:
      return .array(
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in
          randomValue(depth: depth - 1, using: &generator)
        })
    default:
      var dictionary = PropertyListDictionary()
      for index in 0..<Int.random(in: 0...5, using: &generator) {
        dictionary[texts.randomElement(using: &generator)! + "\(index)"] = randomValue(
          depth: depth - 1, using: &generator)
      }
      return .dictionary(dictionary)
    }
  }

  /// `value` as what Foundation's JSON reader gives for its JSON text.
  static func matches(_ json: Any, _ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let text): return (json as? String) == text
    case .integer(let number): return (json as? NSNumber)?.int64Value == number
    case .bool(let flag): return (json as? NSNumber)?.boolValue == flag
    case .real(let number): return (json as? NSNumber)?.doubleValue == number
    case .array(let elements):
      guard let array = json as? [Any], array.count == elements.count else { return false }
      return zip(array, elements).allSatisfy { matches($0, $1) }
    case .dictionary(let entries):
      guard let object = json as? [String: Any], object.count == entries.count else { return false }
      return entries.allSatisfy { entry in
        object[entry.key].map { matches($0, entry.value) } ?? false
      }
    default: return false
    }
  }

  @Test func aFamilyOfStateDumpsRendersAsLogShowPrintsThem() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x57A7E))
    for round in 0..<60 {
      let ttl = UInt8.random(in: 0...255, using: &generator)
      let title = "<Tracker 0x\(String(round, radix: 16))> state \(round)"
      var dumps: [LogArchiveWriter.StateDump] = []
      var expectations: [(String) -> Bool] = []
      switch round % 6 {
      case 0, 1:
        // A serialized object: a dictionary (keys in the order written) or a lone string.
        let value: PropertyListValue =
          round % 6 == 0
          ? .dictionary(
            (Self.randomValue(depth: 2, using: &generator).dictionary ?? ["k": .integer(1)]))
          : .string("<SBThing: 0x1> {\n    flag = 1;\n}")
        dumps.append(
          .init(
            offsetNanoseconds: 5_000, ttl: ttl, dataType: 1, title: title,
            data: PropertyListWriter.encode(value, format: .binary)))
        expectations.append { message in
          guard message.hasPrefix(title + "\n") else { return false }
          let rest = String(message.dropFirst(title.count + 1))
          if case .string(let text) = value { return rest == text }
          guard
            let json = try? JSONSerialization.jsonObject(
              with: Data(rest.utf8), options: [.fragmentsAllowed])
          else { return false }
          guard Self.matches(json, value) else { return false }
          // Keys in the order stored.
          if case .dictionary(let entries) = value, let first = entries.keys.first {
            return rest.hasPrefix("{" + JSONEscapingProbe.quoted(first))
          }
          return true
        }
      case 2:
        let size = Bool.random(using: &generator) ? 72 : 64
        var bytes = (0..<size).map { _ in UInt8.random(in: 0...1, using: &generator) }
        for (offset, whole) in [(0, -1.0), (8, 100.0), (24, 1.5)] {
          let number = whole * Double(Int.random(in: 1...9, using: &generator))
          for index in 0..<8 {
            bytes[offset + index] = UInt8(truncatingIfNeeded: number.bitPattern >> (8 * index))
          }
        }
        for index in 36..<40 { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        dumps.append(
          .init(
            offsetNanoseconds: 5_000, ttl: ttl, dataType: 3, library: "location",
            decoder: "_CLLocationManagerStateTrackerState", title: "CLLocationManagerStateTracker",
            data: bytes))
        expectations.append { message in
          let prefix = "CLLocationManagerStateTracker\n"
          guard message.hasPrefix(prefix),
            let object = try? JSONSerialization.jsonObject(
              with: Data(message.dropFirst(prefix.count).utf8)) as? [String: Any]
          else { return false }
          let keys = Self.locationManagerKeys.filter { $0.1 < size }
          let order = keys.map { "\"\($0.0)\":" }
          var position = message.startIndex
          for key in order {
            guard let found = message.range(of: key, range: position..<message.endIndex) else {
              return false
            }
            position = found.upperBound
          }
          return object.count == keys.count
            && keys.allSatisfy { key, offset, kind in
              let number = object[key] as? NSNumber
              switch kind {
              case "b": return number?.boolValue == (bytes[offset] != 0)
              case "d":
                return number?.doubleValue == Double(bitPattern: Self.little(bytes, offset, 8))
              case "i4":
                return number?.int64Value
                  == Int64(Int32(bitPattern: UInt32(Self.little(bytes, offset, 4))))
              default:
                return number?.int64Value == Int64(bitPattern: Self.little(bytes, offset, 8))
              }
            }
        }
      case 3:
        let status = UInt8.random(in: 0...4, using: &generator)
        let restricted = Bool.random(using: &generator)
        dumps.append(
          .init(
            offsetNanoseconds: 5_000, ttl: ttl, dataType: 3, library: "location",
            decoder: "_CLClientManagerStateTrackerState", title: "CLClientManagerStateTracker",
            data: [status, 0, 0, 0, restricted ? 1 : 0, 0, 0, 0]))
        expectations.append {
          $0
            == "CLClientManagerStateTracker\n{\"locationRestricted\":\(restricted),\"locationServicesEnabledStatus\":\(status)}"
        }
      case 4:
        // A decoder this reader does not have, or a known one at a size it never has.
        let known = Bool.random(using: &generator)
        let data = (0..<Int.random(in: 1...40, using: &generator)).map { UInt8($0) }
        let decoder = known ? "_CLClientManagerStateTrackerState" : "dnsinfo"
        let library = known ? "location" : "SystemConfiguration"
        dumps.append(
          .init(
            offsetNanoseconds: 5_000, ttl: ttl, dataType: 3, library: library, decoder: decoder,
            title: title, data: data + (known && data.count == 8 ? [0] : [])))
        expectations.append { message in
          known
            ? message.hasPrefix(title + "\n<decode: ") && message.contains(library + ":" + decoder)
            : message == title + "\n<decode: unsupported decoder: \(library):\(decoder)>"
        }
      default:
        // A protocol buffer; bytes that are no property list; no data at all.
        let size = Int.random(in: 1...30, using: &generator)
        dumps.append(
          .init(
            offsetNanoseconds: 5_000, ttl: ttl, dataType: 2, title: title,
            data: [UInt8](repeating: 7, count: size)))
        dumps.append(
          .init(
            offsetNanoseconds: 6_000, ttl: ttl, dataType: 1, title: title,
            data: Array("not a plist".utf8)))
        dumps.append(.init(offsetNanoseconds: 7_000, ttl: ttl, dataType: 1, title: title, data: []))
        expectations.append { $0 == title + "\n<decode: protocol buffer of \(size) bytes>" }
        expectations.append { $0.hasPrefix(title + "\n<decode: not a property list (11 bytes): ") }
        expectations.append { $0 == title }
      }
      let read = Self.read(dumps)
      #expect(read.entries.count == dumps.count, "round \(round)")
      #expect(read.problems.isEmpty, "round \(round): \(read.problems)")
      for (entry, expectation) in zip(read.entries, expectations) {
        #expect(entry.ttl == Int(ttl), "round \(round)")
        #expect(
          expectation(entry.eventMessage ?? ""), "round \(round): \(entry.eventMessage ?? "nil")")
        // The ndjson line carries the same message and TTL.
        let line = LogShowFormat.ndjson(entry)
        let object = try #require(
          JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["eventMessage"] as? String == entry.eventMessage, "round \(round)")
        #expect((object["ttl"] as? NSNumber)?.intValue == Int(ttl), "round \(round)")
      }
    }
  }

  @Test func aStateDumpCutShortIsNamedAndRenderedFromWhatIsThere() {
    let value: PropertyListValue = ["key": "value"]
    let read = Self.read([
      .init(
        offsetNanoseconds: 5_000, dataType: 1, title: "cut",
        data: PropertyListWriter.encode(value, format: .binary), declaredSize: 4_000)
    ])
    #expect(read.entries.count == 1)
    #expect(read.entries.first?.eventMessage == "cut\n{\"key\":\"value\"}")
    #expect(read.problems == ["state_dump_cut"])
  }

  @Test func aSubsystemAskedForLeavesStateDumpsOut() {
    let read = Self.read(
      [.init(offsetNanoseconds: 5_000, dataType: 2, title: "t", data: [1, 2, 3])],
      subsystem: "io.kern.ditto")
    #expect(read.entries.isEmpty)
  }

  @Test func propertyListDatesAndNumbersPrintAsStated() {
    #expect(StateDumpMessage.realText(100) == "100")
    #expect(StateDumpMessage.realText(-1) == "-1")
    #expect(StateDumpMessage.realText(0.25) == "0.25")
    #expect(StateDumpMessage.realText(.nan) == "\"nan\"")
    #expect(
      StateDumpMessage.dateText(Date(timeIntervalSince1970: 1_654_049_753.9))
        == "2022-06-01 02:15:53 +0000")
    #expect(
      StateDumpMessage.dateText(Date(timeIntervalSince1970: -1)) == "1969-12-31 23:59:59 +0000")
    #expect(
      StateDumpMessage.dateText(Date(timeIntervalSinceReferenceDate: 1e300)).hasSuffix(
        "after 2001-01-01"))
  }
}

/// A key as the renderer quotes it (the one escaper the package has).
private enum JSONEscapingProbe {
  static func quoted(_ text: String) -> String {
    var output: [UInt8] = []
    StateDumpMessage.appendJSON(.string(text), to: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
