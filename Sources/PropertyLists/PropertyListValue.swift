import Foundation

/// A property-list value, as the package's own reader decodes it and its writer encodes it: the
/// same cases on every platform, whatever Foundation would have bridged a value to.
///
/// Booleans, integers and reals are distinct cases (a file's `<true/>` is never the integer 1), and
/// a keyed-archive UID is a case of its own (binary property lists only).
///
/// Public as the value of the App Group defaults a `LegacyDefaultsSource` returns; the reader,
/// the writer and the keyed-archive layer are the package's own.
public enum PropertyListValue: Sendable, Hashable {
  /// A string.
  case string(String)
  /// A signed integer (64 bits).
  case integer(Int64)
  /// A floating-point number.
  case real(Double)
  /// A boolean.
  case bool(Bool)
  /// An absolute time (the file stores seconds since 2001-01-01 00:00 UTC).
  case date(Date)
  /// Bytes.
  case data([UInt8])
  /// An ordered list of values.
  case array([PropertyListValue])
  /// Values by string key, each key kept as written (see ``PropertyListDictionary``).
  case dictionary(PropertyListDictionary)
  /// A keyed-archive object reference (`NSKeyedArchiver`'s UID). 32 bits, as Core Foundation
  /// reads and writes them: a wider one cannot be built.
  case uid(UInt32)
  /// An integer above `Int64.max`: what Core Foundation reads from a 16-byte integer object whose
  /// low 8 bytes, taken unsigned, do not fit 64 signed bits (CF keeps only those bytes). Written
  /// back as a 16-byte integer, so Core Foundation reads the same value.
  case unsignedInteger(UInt64)

  /// The string, when this is one.
  package var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, when this is one (never a boolean or a real).
  package var integer: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The boolean, when this is one (never an integer).
  package var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The real, when this is one.
  package var real: Double? {
    if case .real(let value) = self { return value }
    return nil
  }

  /// The date, when this is one.
  package var date: Date? {
    if case .date(let value) = self { return value }
    return nil
  }

  /// The bytes, when this is data.
  package var data: [UInt8]? {
    if case .data(let value) = self { return value }
    return nil
  }

  /// The elements, when this is an array.
  package var array: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The entries, when this is a dictionary.
  package var dictionary: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }

  /// The object index, when this is a keyed-archive UID.
  package var uid: UInt32? {
    if case .uid(let value) = self { return value }
    return nil
  }

  /// The value at `key`, when this is a dictionary holding one.
  package subscript(key: String) -> PropertyListValue? {
    dictionary?[key]
  }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  /// A dictionary of the literal's entries, ordered as ``PropertyListDictionary`` orders a
  /// literal's; a key given twice keeps its last value.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(sorting: elements))
  }
}
