import Foundation

/// What "reads back the same" means for a value written in a format: the round-trip rule the
/// reader's tests and its fuzz target hold it to.
package enum PropertyListRoundTrip {
  /// True when `read` is `original` as `format` can hold it: equal, NaN equal to NaN; in XML, a
  /// date to the whole second (XML writes no fraction) and `{CF$UID: n}` as the UID it spells.
  package static func same(
    _ read: PropertyListValue, _ original: PropertyListValue, as format: PropertyListFormat
  ) -> Bool {
    switch (read, original) {
    case (.real(let left), .real(let right)): return left == right || (left.isNaN && right.isNaN)
    case (.date(let left), .date(let right)) where format == .xml:
      return left.timeIntervalSince1970.rounded(.down) == right.timeIntervalSince1970.rounded(.down)
    case (.uid(let left), .dictionary) where format == .xml:
      return KeyedArchive.uid(original) == left
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { same($0, $1, as: format) }
    case (.dictionary(let left), .dictionary(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in
          right[key].map { same(value, $0, as: format) } ?? false
        }
    default: return read == original
    }
  }
}
