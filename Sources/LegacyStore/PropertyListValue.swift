import Foundation

#if canImport(CoreFoundation) && canImport(Darwin)
  import CoreFoundation
#endif

/// A property-list value, written with `PropertyListEncoder` (Codable, pure Swift), never through
/// `PropertyListSerialization`'s bridging of `Any`.
///
/// Why: in a build that links Foundation statically (`--static-swift-stdlib`, what the release ships)
/// the runtime cannot bridge a Swift `Array` inside an `Any` to a Foundation object, and
/// `PropertyListSerialization.data(fromPropertyList:)` fails ("property lists cannot contain objects
/// of type 'Not A Type'"). Built from these cases, a property list encodes the same in every build.
public enum PropertyListValue: Sendable, Equatable, Encodable {
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case data(Data)
  case date(Date)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  /// `value` as a property-list value: what `PropertyListSerialization` decoded (Swift `Bool`,
  /// `NSNumber`, `String`, `Data`, `Date`, arrays, dictionaries with string keys) or Swift values of
  /// those kinds; nil for anything else.
  public init?(_ value: Any) {
    switch value {
    case let bool as Bool where type(of: value) == Bool.self: self = .bool(bool)
    case let number as Int where type(of: value) == Int.self: self = .integer(Int64(number))
    case let number as Int64 where type(of: value) == Int64.self: self = .integer(number)
    case let number as Int32 where type(of: value) == Int32.self: self = .integer(Int64(number))
    case let number as Double where type(of: value) == Double.self: self = .real(number)
    case let string as String: self = .string(string)
    case let data as Data: self = .data(data)
    case let date as Date: self = .date(date)
    case let number as NSNumber: self = Self.number(number)
    case let array as [Any]:
      var values: [PropertyListValue] = []
      for element in array {
        guard let converted = PropertyListValue(element) else { return nil }
        values.append(converted)
      }
      self = .array(values)
    case let dictionary as [String: Any]:
      var values: [String: PropertyListValue] = [:]
      for (key, element) in dictionary {
        guard let converted = PropertyListValue(element) else { return nil }
        values[key] = converted
      }
      self = .dictionary(values)
    default:
      return nil
    }
  }

  /// A decoded number: a boolean, a real or an integer, as the file had it.
  private static func number(_ number: NSNumber) -> PropertyListValue {
    #if canImport(CoreFoundation) && canImport(Darwin)
      if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
    #endif
    switch String(cString: number.objCType) {
    case "d", "f": return .real(number.doubleValue)
    default: return .integer(number.int64Value)
    }
  }

  /// The property list in `format` (`.binary` or `.xml`).
  ///
  /// - Throws: `EncodingError` when it cannot be encoded.
  public func encoded(format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format == .xml ? .xml : .binary
    return try encoder.encode(self)
  }

  /// Converts `value` (see ``init(_:)``) and encodes it in `format`.
  ///
  /// - Throws: ``PropertyListDecodingError`` naming what cannot be a property list, or the
  ///   encoder's error.
  public static func encode(_ value: Any, format: PropertyListSerialization.PropertyListFormat)
    throws -> Data
  {
    guard let converted = PropertyListValue(value) else {
      throw PropertyListDecodingError("a value of type \(type(of: value)) is not a property list")
    }
    return try converted.encoded(format: format)
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .integer(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .real(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .data(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .date(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .dictionary(let values):
      var container = encoder.container(keyedBy: Key.self)
      for key in values.keys.sorted() {
        if let value = values[key] { try container.encode(value, forKey: Key(stringValue: key)) }
      }
    }
  }
}
