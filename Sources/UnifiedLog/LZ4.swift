// APPLE'S LZ4 FRAMING AROUND LZ4 BLOCKS, DECODED BY THIS PACKAGE'S OWN CODE
//
//   MARKER   LAYOUT                                          WHAT IS CHECKED
//   "bv41"   u32 decoded size, u32 encoded size, LZ4 block   the block decodes to exactly its size
//   "bv4-"   u32 size, the bytes as they are                 the bytes are there
//   "bv4$"   end of the stream                               it is there (a stream without it is cut)
//
// An LZ4 block is a run of sequences: a token (literal count in the high nibble, match length - 4
// in the low one, each extended by bytes of 255 while they last), the literals, a two-byte
// little-endian distance (never 0, never before the output's start) and the match, which may
// overlap its own output. The last sequence is literals only. Blocks of one stream share one
// output, so a match may reach back into an earlier block.

/// Decodes a ChunkSet's `bv41`/`bv4-` blocks up to `bv4$`.
enum LZ4Stream {
  /// Another compression than LZ4 (`bvxn` is LZFSE, `bvx-` stored LZFSE, `bvx2` LZFSE v2).
  static let otherMarkers: [String: String] = [
    "bvxn": "LZFSE", "bvx2": "LZFSE", "bvx1": "LZFSE", "bvx-": "LZFSE (stored)",
    "bvxz": "LZBITMAP",
  ]

  /// At most this many decoded bytes per ChunkSet (Apple's are 64 KiB to a few MiB).
  static let maximumDecodedSize = 64 << 20

  static func decode(_ bytes: ArraySlice<UInt8>) throws(FormatError) -> [UInt8] {
    var output: [UInt8] = []
    var cursor = ByteCursor(Array(bytes))
    while true {
      let marker = try cursor.take(4, "a compressed block's marker")
      let name = String(decoding: marker, as: UTF8.self)
      switch name {
      case "bv4$":
        return output
      case "bv41":
        let decoded = Int(try cursor.u32("a compressed block's size"))
        let encoded = Int(try cursor.u32("a compressed block's size"))
        guard output.count + decoded <= maximumDecodedSize else {
          throw FormatError(code: "too_large", reason: "a ChunkSet decodes to over 64 MiB")
        }
        let block = try cursor.take(encoded, "an LZ4 block")
        try decodeBlock(block, expecting: decoded, into: &output)
      case "bv4-":
        let size = Int(try cursor.u32("a stored block's size"))
        guard output.count + size <= maximumDecodedSize else {
          throw FormatError(code: "too_large", reason: "a ChunkSet decodes to over 64 MiB")
        }
        output += try cursor.take(size, "a stored block")
      default:
        if let other = otherMarkers[name] {
          throw FormatError(
            code: "unknown_compression",
            reason:
              "a ChunkSet compressed with \(other) (\(name)), which this reader does not decode")
        }
        throw FormatError(
          code: "unknown_compression",
          reason: "a ChunkSet block with an unknown marker \(Self.printable(marker))")
      }
    }
  }

  static func printable(_ marker: ArraySlice<UInt8>) -> String {
    marker.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + LogUUID.hex($0) }
      .joined()
  }

  /// Decodes one LZ4 block, appending exactly `expecting` bytes to `output`.
  ///
  /// Every length and distance is checked before it is used, as one by one; the bytes move with
  /// `memcpy` (literals, and matches that do not overlap their own output) on buffers sized once.
  static func decodeBlock(
    _ block: ArraySlice<UInt8>, expecting: Int, into output: inout [UInt8]
  ) throws(FormatError) {
    let start = output.count
    let limit = start + expecting
    output.append(contentsOf: repeatElement(0, count: expecting))
    let failure: String? = block.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        Self.decode(source, into: target, from: start, limit: limit)
      }
    }
    if let failure {
      output.removeLast(expecting)
      throw FormatError(code: "damaged_lz4", reason: "an LZ4 block is damaged (\(failure))")
    }
  }

  /// Copies 16 bytes (the regions apart) as two 8-byte words.
  @inline(__always)
  private static func copy16(
    to target: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>
  ) {
    let first = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
    let second = UnsafeRawPointer(source + 8).loadUnaligned(as: UInt64.self)
    UnsafeMutableRawPointer(target).storeBytes(of: first, as: UInt64.self)
    UnsafeMutableRawPointer(target + 8).storeBytes(of: second, as: UInt64.self)
  }

  /// The sequences of `source` written into `target[from..<limit]`; why not, when they do not
  /// fill it exactly.
  private static func decode(
    _ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>,
    from start: Int, limit: Int
  ) -> String? {
    guard let input = source.baseAddress, let output = target.baseAddress else {
      return start == limit && source.isEmpty ? nil : "an empty block"
    }
    let end = source.count
    var index = 0
    var written = start
    /// A length of 15 goes on in the bytes that follow, each adding up to 255.
    func extended(_ base: Int) -> Int? {
      var length = base
      guard base == 15 else { return length }
      while true {
        guard index < end else { return nil }
        let more = input[index]
        index += 1
        length += Int(more)
        if more != 255 { return length }
      }
    }
    while index < end {
      let token = input[index]
      index += 1
      guard let literals = extended(Int(token >> 4)) else {
        return "a literal length runs past the block"
      }
      guard literals <= end - index else { return "literals run past the block" }
      guard literals <= limit - written else { return "more output than announced" }
      if literals <= 16, end - index >= 16, limit - written >= 16 {
        // Short runs, the most common, in two word copies (the bytes past the run are written
        // over by what follows, inside the output).
        copy16(to: output + written, from: input + index)
      } else {
        (output + written).update(from: input + index, count: literals)
      }
      written += literals
      index += literals
      if index == end { break }  // the last sequence: literals only
      guard end - index >= 2 else { return "a match distance is cut short" }
      let distance = Int(input[index]) | Int(input[index + 1]) << 8
      index += 2
      guard distance > 0, distance <= written else { return "a match reaches before the start" }
      guard let extra = extended(Int(token & 15)) else {
        return "a match length runs past the block"
      }
      let length = extra + 4
      guard length <= limit - written else { return "more output than announced" }
      let from = written - distance
      if length <= 16, distance >= 16, limit - written >= 16 {
        copy16(to: output + written, from: output + from)
      } else if distance >= length {
        (output + written).update(from: output + from, count: length)
      } else {
        // The match overlaps what it writes: byte by byte, each from the one `distance` back.
        for offset in 0..<length { output[written + offset] = output[from + offset] }
      }
      written += length
    }
    return written == limit ? nil : "less output than announced"
  }
}
