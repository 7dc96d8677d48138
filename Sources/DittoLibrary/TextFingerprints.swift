/// A 128-bit keyed fingerprint of a (category, text) pair: SipHash-1-3 with a 128-bit output, under a
/// key drawn at random for each import.
///
/// Used only to prove that *every* ditto of a source is already in the library without one random
/// index probe per ditto. Distinct pairs share a fingerprint with probability about 2⁻¹²⁸ each, and
/// because the key is secret and fresh, a store cannot be crafted to collide with the library.
struct TextFingerprint: Hashable {
  var high: UInt64
  var low: UInt64
}

/// Computes ``TextFingerprint``s under one random key.
struct TextFingerprinter {
  private let key0: UInt64
  private let key1: UInt64

  init() {
    var generator = SystemRandomNumberGenerator()
    key0 = generator.next()
    key1 = generator.next()
  }

  /// The fingerprint of `text` (its exact bytes) in `category`.
  func fingerprint(category: Int64, text: UnsafeBufferPointer<UInt8>) -> TextFingerprint {
    var state = SipState(key0: key0, key1: key1)
    state.compress(UInt64(bitPattern: category))
    let count = text.count
    var last: UInt64 = UInt64(truncatingIfNeeded: count + 8) << 56
    if let base = text.baseAddress {
      let raw = UnsafeRawPointer(base)
      var offset = 0
      while offset + 8 <= count {
        state.compress(
          UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        offset += 8
      }
      var shift: UInt64 = 0
      while offset < count {
        last |= UInt64(base[offset]) << shift
        shift += 8
        offset += 1
      }
    }
    state.compress(last)
    return state.finish()
  }
}

/// SipHash's state (Aumasson and Bernstein), one compression round and three finalization rounds per
/// output word, 128-bit output variant.
private struct SipState {
  private var v0: UInt64
  private var v1: UInt64
  private var v2: UInt64
  private var v3: UInt64

  init(key0: UInt64, key1: UInt64) {
    v0 = key0 ^ 0x736f_6d65_7073_6575
    v1 = key1 ^ 0x646f_7261_6e64_6f6d ^ 0xee
    v2 = key0 ^ 0x6c79_6765_6e65_7261
    v3 = key1 ^ 0x7465_6462_7974_6573
  }

  @inline(__always) private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always) private mutating func round() {
    v0 &+= v1
    v1 = Self.rotate(v1, 13)
    v1 ^= v0
    v0 = Self.rotate(v0, 32)
    v2 &+= v3
    v3 = Self.rotate(v3, 16)
    v3 ^= v2
    v0 &+= v3
    v3 = Self.rotate(v3, 21)
    v3 ^= v0
    v2 &+= v1
    v1 = Self.rotate(v1, 17)
    v1 ^= v2
    v2 = Self.rotate(v2, 32)
  }

  @inline(__always) mutating func compress(_ word: UInt64) {
    v3 ^= word
    round()
    v0 ^= word
  }

  mutating func finish() -> TextFingerprint {
    v2 ^= 0xee
    round()
    round()
    round()
    let high = v0 ^ v1 ^ v2 ^ v3
    v1 ^= 0xdd
    round()
    round()
    round()
    return TextFingerprint(high: high, low: v0 ^ v1 ^ v2 ^ v3)
  }
}

/// A fixed-capacity set of fingerprints in one flat array (open addressing, linear probing): 16 bytes
/// per slot, no allocation per element, so a million dittos take about 21 MB.
struct FingerprintSet {
  private var slots: [UInt64]
  private let capacity: Int
  private(set) var count = 0

  /// Room for `expectedCount` fingerprints at a load of at most 3/4.
  init(expectedCount: Int) {
    capacity = max(16, expectedCount + expectedCount / 3 + 1)
    slots = Array(repeating: 0, count: capacity * 2)
  }

  /// Adds `fingerprint`; false when the set is full (more elements than it was made for), in which
  /// case nothing was added and the caller gives up on the set.
  mutating func insert(_ fingerprint: TextFingerprint) -> Bool {
    guard count * 4 < capacity * 3 else { return false }
    let key = Self.stored(fingerprint)
    let capacity = capacity
    var index = Self.slot(of: key, capacity: capacity)
    let isNew = slots.withUnsafeMutableBufferPointer { slots -> Bool in
      while true {
        let high = slots[2 * index]
        let low = slots[2 * index + 1]
        if high == 0 && low == 0 {
          slots[2 * index] = key.high
          slots[2 * index + 1] = key.low
          return true
        }
        if high == key.high && low == key.low { return false }
        index += 1
        if index == capacity { index = 0 }
      }
    }
    if isNew { count += 1 }
    return true
  }

  func contains(_ fingerprint: TextFingerprint) -> Bool {
    let key = Self.stored(fingerprint)
    let capacity = capacity
    var index = Self.slot(of: key, capacity: capacity)
    return slots.withUnsafeBufferPointer { slots in
      while true {
        let high = slots[2 * index]
        let low = slots[2 * index + 1]
        if high == key.high && low == key.low { return true }
        if high == 0 && low == 0 { return false }
        index += 1
        if index == capacity { index = 0 }
      }
    }
  }

  /// All-zero marks an empty slot, so a stored fingerprint never is (one bit of 128 given up).
  private static func stored(_ fingerprint: TextFingerprint) -> TextFingerprint {
    TextFingerprint(high: fingerprint.high, low: fingerprint.low | 1)
  }

  private static func slot(of key: TextFingerprint, capacity: Int) -> Int {
    Int(truncatingIfNeeded: key.high.multipliedFullWidth(by: UInt64(capacity)).high)
  }
}
