/// Property lists that crashed a reader once, byte for byte (written by hand: no encoder we use
/// writes sets). Found by the fuzzers in `Fuzz/`.
package enum HostilePropertyLists {
  /// A binary plist `{"k": set(["v"])}`. Foundation on Linux crashes bridging any set.
  package static let dictionaryWithSet: [UInt8] =
    Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x51, 0x6B, 0xC1, 0x03, 0x51, 0x76]
    + [0x08, 0x0B, 0x0D, 0x0F] + trailer(objects: 4, table: 0x11)

  /// A binary plist whose top object is `set(["a", "b"])`.
  package static let topLevelSet: [UInt8] =
    Array("bplist00".utf8) + [0xC2, 0x01, 0x02, 0x51, 0x61, 0x51, 0x62]
    + [0x08, 0x0B, 0x0D] + trailer(objects: 3, table: 0x0F)

  /// The 32-byte trailer: 1-byte offsets and references, object 0 at the top.
  static func trailer(objects: UInt8, table: UInt8) -> [UInt8] {
    [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, objects] + [UInt8](repeating: 0, count: 8)
      + [0, 0, 0, 0, 0, 0, 0, table]
  }
}
