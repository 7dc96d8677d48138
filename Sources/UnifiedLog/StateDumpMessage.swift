import CivilCalendar
import Foundation
import JSONOutput
import PropertyLists

/// The message of a state dump, as `log show` prints one: its title, a line break, then its data
/// rendered by its type.
///
/// - No data: the title alone.
/// - A serialized object (type 1, a binary property list): a string as it is, any other object as
///   compact JSON, keys in the order stored (dates as `yyyy-MM-dd HH:mm:ss +0000`, bytes as `<hex>`, a keyed-archive UID as
///   `{"CF$UID":n}`).
/// - Custom data (type 3) of a decoder this reader has: CoreLocation's
///   `_CLLocationManagerStateTrackerState` and `_CLClientManagerStateTrackerState`, formatted as the
///   published format document shows them; any other decoder is named:
///   `<decode: unsupported decoder: LIBRARY:TYPE>`.
/// - Protocol buffers (type 2), another type, data that does not decode: a `<decode: …>` line naming
///   what was stored, never the bytes taken for something they are not.
enum StateDumpMessage {
  static func render(
    title: String, type: UInt32, library: String, decoder: String, data: ArraySlice<UInt8>
  ) -> String {
    if data.isEmpty { return title }
    return title + "\n" + value(type: type, library: library, decoder: decoder, data: data)
  }

  static func value(type: UInt32, library: String, decoder: String, data: ArraySlice<UInt8>)
    -> String
  {
    switch type {
    case 1:
      let bytes = Array(data)
      // The common case straight to JSON; anything the decoder has to decide, decoded.
      var writer = JSONWriter()
      writer.output.reserveCapacity(bytes.count * 2)
      if BinaryPropertyListWalk.walk(bytes, into: &writer) {
        return String(decoding: writer.output, as: UTF8.self)
      }
      do {
        let object = try PropertyListReader.decode(bytes).value
        // A string is printed as it is (its description), not as a JSON literal.
        if case .string(let text) = object { return text }
        var output: [UInt8] = []
        appendJSON(object, to: &output)
        return String(decoding: output, as: UTF8.self)
      } catch {
        return "<decode: not a property list (\(data.count) bytes): \(error.reason)>"
      }
    case 2:
      return "<decode: protocol buffer of \(data.count) bytes>"
    case 3:
      let name = library + ":" + decoder
      switch name {
      case "location:_CLLocationManagerStateTrackerState":
        return locationManagerState(data) ?? unexpectedSize(name, data)
      case "location:_CLClientManagerStateTrackerState":
        return clientManagerState(data) ?? unexpectedSize(name, data)
      default:
        return "<decode: unsupported decoder: \(name)>"
      }
    default:
      return "<decode: unknown state data type \(type) (\(data.count) bytes)>"
    }
  }

  private static func unexpectedSize(_ name: String, _ data: ArraySlice<UInt8>) -> String {
    "<decode: \(data.count) bytes of \(name) is not a size it has>"
  }

  // MARK: - CoreLocation's state trackers (the format document's layouts)

  /// 64 or 72 bytes; the last 8 only in the longer form.
  private static func locationManagerState(_ data: ArraySlice<UInt8>) -> String? {
    guard data.count == 64 || data.count == 72 else { return nil }
    let fields = Fields(data)
    var values: [(String, JSONNumberOrBool?)] = [
      ("previousAuthorizationStatusValid", .bool(fields.bool(35))),
      ("paused", .bool(fields.bool(60))),
      ("requestingLocation", .bool(fields.bool(17))),
      ("updatingVehicleSpeed", data.count > 64 ? .bool(fields.bool(65)) : nil),
      ("desiredAccuracy", .real(fields.real(8))),
      ("allowsBackgroundLocationUpdates", .bool(fields.bool(61))),
      ("dynamicAccuracyReductionEnabled", .bool(fields.bool(34))),
      ("distanceFilter", .real(fields.real(0))),
      ("allowsLocationPrompts", .bool(fields.bool(32))),
      ("activityType", .integer(Int64(bitPattern: fields.unsigned(48, 8)))),
      ("groundAltitudeEnabled", data.count > 64 ? .bool(fields.bool(68)) : nil),
      (
        "pausesLocationUpdatesAutomatially",
        .integer(Int64(Int32(bitPattern: UInt32(fields.unsigned(56, 4)))))
      ),
      ("fusionInfoEnabled", data.count > 64 ? .bool(fields.bool(69)) : nil),
      ("isAuthorizedForWidgetUpdates", data.count > 64 ? .bool(fields.bool(71)) : nil),
      ("updatingVehicleHeading", data.count > 64 ? .bool(fields.bool(66)) : nil),
      ("batchingLocation", data.count > 64 ? .bool(fields.bool(64)) : nil),
      ("showsBackgroundLocationIndicator", .bool(fields.bool(62))),
      ("updatingLocation", .bool(fields.bool(16))),
      ("requestingRanging", .bool(fields.bool(18))),
      ("updatingHeading", .bool(fields.bool(20))),
      (
        "previousAuthorizationStatus",
        .integer(Int64(Int32(bitPattern: UInt32(fields.unsigned(36, 4)))))
      ),
      ("allowsMapCorrection", .bool(fields.bool(63))),
      ("matchInfoEnabled", data.count > 64 ? .bool(fields.bool(67)) : nil),
      ("allowsAlteredAccessoryLoctions", .bool(fields.bool(33))),
      ("updatingRanging", .bool(fields.bool(19))),
      ("limitsPrecision", .bool(fields.bool(40))),
      ("courtesyPromptNeeded", data.count > 64 ? .bool(fields.bool(70)) : nil),
      ("headingFilter", .real(fields.real(24))),
    ]
    values.removeAll { $0.1 == nil }
    return object(values.map { ($0.0, $0.1!) })
  }

  /// 8 bytes: the enabled status (32 bits), then whether location is restricted (32 bits).
  private static func clientManagerState(_ data: ArraySlice<UInt8>) -> String? {
    guard data.count == 8 else { return nil }
    let fields = Fields(data)
    return object([
      ("locationRestricted", .bool(fields.unsigned(4, 4) != 0)),
      (
        "locationServicesEnabledStatus",
        .integer(Int64(Int32(bitPattern: UInt32(fields.unsigned(0, 4)))))
      ),
    ])
  }

  private enum JSONNumberOrBool: Equatable {
    case bool(Bool)
    case integer(Int64)
    case real(Double)
  }

  private static func object(_ values: [(String, JSONNumberOrBool)]) -> String {
    var output: [UInt8] = [UInt8(ascii: "{")]
    for (index, (key, value)) in values.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      JSONEscaping.appendQuoted(key, to: &output)
      output.append(UInt8(ascii: ":"))
      switch value {
      case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
      case .integer(let number): output += Array(String(number).utf8)
      case .real(let number): output += Array(realText(number).utf8)
      }
    }
    output.append(UInt8(ascii: "}"))
    return String(decoding: output, as: UTF8.self)
  }

  /// Little-endian fields at fixed offsets of a state's bytes (the caller checked the size).
  private struct Fields {
    let bytes: [UInt8]
    init(_ data: ArraySlice<UInt8>) { bytes = Array(data) }

    func unsigned(_ offset: Int, _ size: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * index) }
      return value
    }
    func bool(_ offset: Int) -> Bool { bytes[offset] != 0 }
    func real(_ offset: Int) -> Double { Double(bitPattern: unsigned(offset, 8)) }
  }

  // MARK: - A property list as JSON

  /// A number as JSON writes it: a whole number without a fraction (`100`, `-1`), any other
  /// in its shortest form; a value JSON has no number for as a string.
  static func realText(_ number: Double) -> String {
    guard number.isFinite else {
      return number.isNaN ? "\"nan\"" : (number < 0 ? "\"-inf\"" : "\"inf\"")
    }
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }

  /// A binary property list written as JSON as it is walked, as ``appendJSON(_:to:)`` writes
  /// the decoded value (a string alone as it is).
  struct JSONWriter: BinaryPropertyListVisitor {
    var output: [UInt8] = []

    mutating func beginArray() { output.append(UInt8(ascii: "[")) }
    mutating func endArray() { output.append(UInt8(ascii: "]")) }
    mutating func beginDictionary() { output.append(UInt8(ascii: "{")) }
    mutating func endDictionary() { output.append(UInt8(ascii: "}")) }
    mutating func nextItem() { output.append(UInt8(ascii: ",")) }

    mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) {
      JSONEscaping.appendQuoted(utf8: utf8, to: &output)
      output.append(UInt8(ascii: ":"))
    }

    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
      JSONEscaping.appendQuoted(utf8: utf8, to: &output)
    }

    /// A string alone is printed as it is, not as a JSON literal.
    mutating func topString(_ utf8: UnsafeBufferPointer<UInt8>) {
      output.append(contentsOf: utf8)
    }

    mutating func integer(_ value: Int64) { appendJSON(.integer(value), to: &output) }
    mutating func real(_ value: Double) { appendJSON(.real(value), to: &output) }
    mutating func bool(_ value: Bool) { appendJSON(.bool(value), to: &output) }
    mutating func uid(_ value: UInt32) { appendJSON(.uid(value), to: &output) }

    mutating func date(sinceReferenceDate seconds: Double) {
      appendJSON(.date(Date(timeIntervalSinceReferenceDate: seconds)), to: &output)
    }

    mutating func data(_ bytes: ArraySlice<UInt8>) {
      appendJSON(.data(Array(bytes)), to: &output)
    }
  }

  static func appendJSON(_ value: PropertyListValue, to output: inout [UInt8]) {
    switch value {
    case .string(let text): JSONEscaping.appendQuoted(text, to: &output)
    case .integer(let number):
      if number < 0 { output.append(UInt8(ascii: "-")) }
      JSONBytes.appendDecimal(number.magnitude, minimumDigits: 1, to: &output)
    case .unsignedInteger(let number):
      JSONBytes.appendDecimal(number, minimumDigits: 1, to: &output)
    case .real(let number): output += Array(realText(number).utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .date(let date): JSONEscaping.appendQuoted(dateText(date), to: &output)
    case .data(let bytes):
      let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
      JSONEscaping.appendQuoted("<" + hex.joined() + ">", to: &output)
    case .uid(let index): output += Array("{\"CF$UID\":\(index)}".utf8)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendJSON(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .dictionary(let entries):
      output.append(UInt8(ascii: "{"))
      for (index, entry) in entries.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        JSONEscaping.appendQuoted(entry.key, to: &output)
        output.append(UInt8(ascii: ":"))
        appendJSON(entry.value, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// `yyyy-MM-dd HH:mm:ss +0000`, to the second (rounded down).
  static func dateText(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970.rounded(.down)
    // Past year 9999 either way (or not a number): the seconds themselves.
    guard interval.isFinite, abs(interval) < 253_402_300_800 else {
      return "\(date.timeIntervalSinceReferenceDate) s after 2001-01-01"
    }
    let seconds = Int64(interval)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let (year, month, day) = CivilDate.date(fromDays: days)
    let inDay = seconds - days * 86_400
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(abs(year))
    let padded =
      (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
    return
      "\(padded)-\(two(month))-\(two(day)) \(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) +0000"
  }
}
