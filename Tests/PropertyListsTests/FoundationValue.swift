import Foundation
import PropertyLists

/// What Foundation's own parser returned, as a ``PropertyListValue`` (test code only: it tells
/// values apart the way swift-corelibs-foundation hands them over on Linux, where the differential
/// test runs).
enum FoundationValue {
  static func convert(_ value: Any) -> PropertyListValue? {
    switch value {
    case let value as String: return .string(value)
    case let typed as Bool where type(of: value) == Bool.self: return .bool(typed)
    case let typed as Int where type(of: value) == Int.self: return .integer(Int64(typed))
    case let typed as Int64 where type(of: value) == Int64.self: return .integer(typed)
    case let typed as UInt64 where type(of: value) == UInt64.self:
      return typed <= UInt64(Int64.max) ? .integer(Int64(typed)) : .unsignedInteger(typed)
    case let typed as Double where type(of: value) == Double.self: return .real(typed)
    case let typed as Float where type(of: value) == Float.self: return .real(Double(typed))
    case let value as Date: return .date(value)
    case let value as Data: return .data(Array(value))
    case let values as [Any]:
      var converted: [PropertyListValue] = []
      for element in values {
        guard let element = convert(element) else { return nil }
        converted.append(element)
      }
      return .array(converted)
    case let values as [AnyHashable: Any]:
      var converted: [(String, PropertyListValue)] = []
      for (key, element) in values {
        guard let key = key.base as? String, let element = convert(element) else { return nil }
        converted.append((key, element))
      }
      return .dictionary(PropertyListDictionary(sorting: converted))
    case let number as NSNumber:
      // Test code, on Linux only: Foundation's kind of number, as it says it.
      switch String(cString: number.objCType) {
      case "d", "f": return .real(number.doubleValue)
      case "c", "B": return .bool(number.boolValue)
      default: return .integer(number.int64Value)
      }
    default:
      return uid(value).map { .uid($0) }
    }
  }

  /// A keyed-archive UID as Foundation hands it over: on Linux an object with a stored `value`
  /// (swift-corelibs-foundation); on Darwin a `CFKeyedArchiverUID`, whose description is
  /// `<CFKeyedArchiverUID 0x…>{value = N}` (it has no public API and no reflected members).
  static func uid(_ value: Any) -> UInt32? {
    for child in Mirror(reflecting: value).children where child.label == "value" {
      if let index = child.value as? UInt32 { return index }
      if let index = child.value as? UInt64 { return UInt32(exactly: index) }
    }
    let description = String(describing: value)
    guard description.contains("KeyedArchiverUID"), let start = description.range(of: "value = ")
    else { return nil }
    return UInt32(description[start.upperBound...].prefix { $0.isNumber })
  }
}
