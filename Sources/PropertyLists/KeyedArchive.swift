// NSKEYEDARCHIVER, READ AS PLAIN VALUES (what a backup's MBFile records are)
//
//   KEY          VALUE
//   $archiver    "NSKeyedArchiver"
//   $version     100000
//   $top         { root: UID(n) }        n indexes $objects; the archived root object
//   $objects     [ "$null", {…}, … ]     the object table; UID(0) is "$null", i.e. nil
//
// An object is a dictionary whose values are plain values or UIDs of other objects, and whose
// `$class` is a UID of a { $classname, $classes } dictionary. A binary archive holds UIDs as their
// own case (``PropertyListValue/uid(_:)``); an XML one as the dictionary { CF$UID: n }. Both read
// the same here. Nothing is instantiated: values are only looked up.

/// Why a keyed archive could not be read.
package struct KeyedArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
  package let reason: String
  package init(_ reason: String) { self.reason = reason }
  package var description: String { reason }
}

/// An `NSKeyedArchiver` archive, decoded by ``PropertyListReader`` and read by key.
package struct KeyedArchive: Sendable {
  /// The object table.
  package let objects: [PropertyListValue]
  /// The root object (`$top.root`), resolved: a dictionary of the archived object's keys.
  package let root: PropertyListDictionary

  /// Reads the archive `value` holds.
  ///
  /// - Throws: ``KeyedArchiveError`` when it is not a keyed archive: the top level is not a
  ///   dictionary, there is no `$objects` array, `$top.root` is not a UID, or it does not index a
  ///   dictionary in `$objects`.
  package init(_ value: PropertyListValue) throws(KeyedArchiveError) {
    guard case .dictionary(let archive) = value else {
      throw KeyedArchiveError("not a keyed archive (the top level is not a dictionary)")
    }
    guard case .array(let objects) = archive["$objects"] else {
      throw KeyedArchiveError("not a keyed archive (no $objects array)")
    }
    guard case .dictionary(let top) = archive["$top"], let rootValue = top["root"] else {
      throw KeyedArchiveError("not a keyed archive (no $top.root)")
    }
    guard let rootIndex = Self.uid(rootValue) else {
      throw KeyedArchiveError("$top.root is not a UID")
    }
    guard Int(rootIndex) < objects.count, case .dictionary(let root) = objects[Int(rootIndex)]
    else {
      throw KeyedArchiveError("$top.root (\(rootIndex)) is not a dictionary in $objects")
    }
    self.objects = objects
    self.root = root
  }

  /// The UID `value` is: the binary case, or XML's { CF$UID: n }; nil for anything else.
  package static func uid(_ value: PropertyListValue) -> UInt32? {
    switch value {
    case .uid(let index): return index
    case .dictionary(let entries):
      guard entries.count == 1, case .integer(let index) = entries["CF$UID"] else {
        return nil
      }
      return UInt32(exactly: index)
    default: return nil
    }
  }

  /// `value` with a UID replaced by the object it indexes; nil for `$null` (UID 0) or a UID out
  /// of range.
  package func resolve(_ value: PropertyListValue) -> PropertyListValue? {
    guard let index = Self.uid(value) else { return value }
    guard index != 0, Int(index) < objects.count else { return nil }
    return objects[Int(index)]
  }

  /// The root object's value at `key`, resolved (nil when absent or `$null`).
  package subscript(key: String) -> PropertyListValue? {
    root[key].flatMap(resolve)
  }
}
