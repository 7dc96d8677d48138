#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A property list's dictionary: its entries in the order they were read or added, each key told
/// apart from the others by its UTF-16 code units, as Core Foundation tells them apart.
///
/// Swift's `String` equality is canonical equivalence, so `[String: PropertyListValue]` would merge
/// `café` written precomposed (U+00E9) with `café` written as `e` and a combining accent, and
/// `Å` (U+00C5) with `Å` (U+212B ANGSTROM SIGN). For Core Foundation, and so for the app and for
/// iOS, those are distinct keys; this type keeps each of them with its own value, so a defaults
/// file rewritten through the package keeps every key as written.
///
/// Looking a key up matches its UTF-16 code units exactly. Setting a key that is present replaces
/// its value in place; setting a new one appends it; nothing reorders the entries. Two
/// dictionaries are equal when they hold the same keys (by code units) with equal values, in any
/// order.
public struct PropertyListDictionary: Sendable, Hashable {
  /// One entry: a key as written and its value.
  public typealias Element = (key: String, value: PropertyListValue)

  /// The entries, in order; no two keys have the same code units.
  private var entries: [Element] = []
  /// Where each key's entry is, by the key's code units: made once the dictionary holds more than
  /// ``indexedFrom`` entries (a few keys are found faster by comparing them in turn).
  private var positions: [KeyUnits: Int]?
  /// The entry count from which keys are found through ``positions``.
  private static let indexedFrom = 12

  /// Where the entry with `key`'s code units is.
  private func position(of key: KeyUnits) -> Int? {
    if let positions { return positions[key] }
    return entries.firstIndex { KeyUnits($0.key) == key }
  }

  /// Appends an entry whose key is not there.
  private mutating func append(_ key: String, _ value: PropertyListValue, units: KeyUnits) {
    entries.append((key, value))
    if positions != nil {
      positions?[units] = entries.count - 1
    } else if entries.count > Self.indexedFrom {
      reindex()
    }
  }

  /// Makes ``positions`` anew from the entries (or drops it when they are few).
  private mutating func reindex() {
    guard entries.count > Self.indexedFrom else {
      positions = nil
      return
    }
    var index: [KeyUnits: Int] = [:]
    index.reserveCapacity(entries.count)
    for (position, entry) in entries.enumerated() { index[KeyUnits(entry.key)] = position }
    positions = index
  }

  /// An empty dictionary.
  public init() {}

  /// The entries of `dictionary`, in a stable order (sorted by key, keys that compare equal as
  /// Swift strings by their code units), so the same dictionary always writes the same bytes.
  public init(_ dictionary: [String: PropertyListValue]) {
    self.init(sorting: dictionary.map { ($0.key, $0.value) })
  }

  /// The entries of `pairs` in a stable order (as ``init(_:)`` orders them); a key given twice
  /// (by code units) keeps its last value.
  package init(sorting pairs: [(String, PropertyListValue)]) {
    // The sort is stable: of a key given twice, the last is set last.
    for (key, value) in pairs.sorted(by: { Self.ordered($0.0, $1.0) }) {
      self[key] = value
    }
  }

  /// The number of entries.
  public var count: Int { entries.count }

  /// True when there is no entry.
  public var isEmpty: Bool { entries.isEmpty }

  /// The keys, in order.
  public var keys: [String] { entries.map(\.key) }

  /// The value whose key has the code units of `key`; setting nil removes the entry.
  public subscript(key: String) -> PropertyListValue? {
    get { position(of: KeyUnits(key)).map { entries[$0].value } }
    set {
      let units = KeyUnits(key)
      switch (position(of: units), newValue) {
      case (let position?, let value?):
        entries[position].value = value
      case (nil, let value?):
        append(key, value, units: units)
      case (let position?, nil):
        entries.remove(at: position)
        reindex()
      case (nil, nil):
        break
      }
    }
  }

  /// Appends `key` with `value` unless a key with its code units is there (which keeps its
  /// value): one look-up, as a reader adding what a file holds needs.
  package mutating func addIfAbsent(_ key: String, _ value: PropertyListValue) {
    let units = KeyUnits(key)
    guard position(of: units) == nil else { return }
    append(key, value, units: units)
  }

  /// The entries as a Swift dictionary, for code that looks up known keys: keys that Swift
  /// takes for equal keep the value of the first of them.
  package var merged: [String: PropertyListValue] {
    Dictionary(entries.map { ($0.key, $0.value) }) { first, _ in first }
  }

  /// `key` before `other`: by Swift's string order, and keys that order takes for equal by their
  /// UTF-16 code units, so any set of distinct keys has one order.
  static func ordered(_ key: String, _ other: String) -> Bool {
    if key < other { return true }
    if other < key { return false }
    return key.utf16.lexicographicallyPrecedes(other.utf16)
  }

  public static func == (left: Self, right: Self) -> Bool {
    guard left.count == right.count else { return false }
    return left.entries.allSatisfy { entry in right[entry.key] == entry.value }
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent, as equality is: the sum of each entry's own hash.
    var sum = 0
    for entry in entries {
      var entryHasher = Hasher()
      entryHasher.combine(KeyUnits(entry.key))
      entryHasher.combine(entry.value)
      sum &+= entryHasher.finalize()
    }
    hasher.combine(entries.count)
    hasher.combine(sum)
  }
}

extension PropertyListDictionary: Sequence {
  public func makeIterator() -> IndexingIterator<[Element]> {
    entries.makeIterator()
  }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
  /// The entries of the literal, in a stable order (as ``init(_:)`` orders them); a key given
  /// twice keeps its last value.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self.init(sorting: elements)
  }
}

/// A key told apart by its code units: two keys are the same key when their UTF-16 code units
/// are, which for a Swift string (always valid Unicode) is when its UTF-8 bytes are: compared and
/// hashed by those, with no copy.
private struct KeyUnits: Hashable {
  let key: String

  init(_ key: String) {
    self.key = key
  }

  static func == (left: Self, right: Self) -> Bool {
    guard left.key.utf8.count == right.key.utf8.count else { return false }
    var (first, second) = (left.key, right.key)
    return first.withUTF8 { one in
      second.withUTF8 { other in
        one.count == 0 || memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0
      }
    }
  }

  func hash(into hasher: inout Hasher) {
    var key = key
    key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
