#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small deterministic random generator (SplitMix64): the same seed gives the same fixtures everywhere.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The seed of a generated test family: the fixed one a test names, in `swift test`; a fresh one
/// when `scripts/fuzz --families` sets `DITTO_FAMILY_SEED` (printed by the script, so that a
/// failing member can be replayed with the same value).
package enum FamilySeed {
  /// `fixed`, or `DITTO_FAMILY_SEED` when it is set to a number.
  package static func base(_ fixed: UInt64) -> UInt64 {
    guard let text = getenv("DITTO_FAMILY_SEED").map({ String(cString: $0) }),
      let value = UInt64(text)
    else { return fixed }
    return value
  }
}
