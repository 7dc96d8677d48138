// GZIP AND DEFLATE, READ BY THIS PACKAGE'S OWN CODE (RFC 1952 around RFC 1951)
//
//   PART        WHAT IS CHECKED
//   header      magic 1F 8B, method 8 (deflate), reserved flag bits clear; FEXTRA, FNAME,
//               FCOMMENT and FHCRC skipped
//   blocks      stored (LEN and NLEN agree), fixed and dynamic Huffman codes (complete or, for a
//               single distance code, one code; never over-subscribed), distances within the
//               window and the output so far
//   trailer     CRC-32 and ISIZE of the member's output
//   members     several members one after the other are one stream (as `gzip -c a b` writes);
//               zeros after the last member are padding
//
// Input arrives in chunks of any size: decoding goes on as far as the bytes allow and resumes
// at the last finished symbol when more arrive, so only the unread input (a few bytes, or one
// block header) and the 32 KiB window are kept. Output is handed over in pieces of at most 64 KiB.

/// Why a gzip stream could not be decoded to its end.
package struct GzipError: Error, Equatable, Sendable {
  /// What was wrong, in words (`bad CRC-32`, `distance beyond the window`).
  package let reason: String
}

/// A streaming gzip decoder.
package struct GzipDecoder {
  private enum State {
    case header
    case blockStart
    case stored(remaining: Int)
    case huffman(literals: HuffmanCode, distances: HuffmanCode)
    case trailer
    case afterMember
    /// A raw deflate stream (zip) after its final block: anything after it is not ours.
    case rawDone
    case failed(GzipError)
  }

  private var state = State.header
  private var isFinalBlock = false
  /// Unread input; `position` bytes of it are consumed.
  private var input: [UInt8] = []
  private var position = 0
  private var bitBuffer: UInt64 = 0
  private var bitCount = 0
  /// The output not yet handed over, after up to 32 KiB of what was (for back-references):
  /// `out[..<handedOver]` was emitted, `out[handedOver..<outEnd]` is pending. Sized once: a
  /// symbol adds at most 258 bytes, and output is handed over every 64 KiB.
  private var out = [UInt8](repeating: 0, count: 2 * historySize + 2 * flushSize + 512)
  private var outEnd = 0
  private var handedOver = 0
  private var crc = CRC32()
  private var memberBytes: UInt32 = 0
  /// Bytes of output so far, all members.
  package private(set) var outputBytes = 0
  /// Members decoded to their trailer.
  package private(set) var members = 0

  /// Whether the stream is raw deflate (RFC 1951 alone, as a zip entry holds it): no header, no
  /// trailer, one stream; ``checksum`` is its output's CRC-32 for the caller to check.
  private let isRaw: Bool

  package init() { isRaw = false }

  /// A decoder of raw deflate (a zip entry's data).
  package init(rawDeflate: Bool) {
    isRaw = rawDeflate
    if rawDeflate { state = .blockStart }
  }

  /// The CRC-32 of the output so far (of a raw stream: of all of it, once finished).
  package var checksum: UInt32 { crc.value }

  /// True once a raw stream's final block is decoded.
  package var isFinished: Bool {
    if case .rawDone = state { return true }
    return false
  }

  /// Decodes what `chunk` allows, handing output to `emit`.
  ///
  /// - Throws: ``GzipError`` when the stream is not valid gzip; decoding stops there.
  package mutating func feed(_ chunk: some Collection<UInt8>, emit: ([UInt8]) -> Void)
    throws(GzipError)
  {
    if case .failed(let error) = state { throw error }
    if position > 65_536 {
      input.removeFirst(position)
      position = 0
    }
    input.append(contentsOf: chunk)
    do throws(Stop) {
      try run(emit: emit)
    } catch {
      flush(emit)
      if case .invalid(let reason) = error {
        state = .failed(GzipError(reason: reason))
        throw GzipError(reason: reason)
      }
    }
  }

  /// Ends the stream, handing over the output still held.
  ///
  /// - Throws: ``GzipError`` when the stream stops inside a member.
  package mutating func finish(emit: ([UInt8]) -> Void) throws(GzipError) {
    flush(emit)
    switch state {
    case .failed(let error): throw error
    case .afterMember, .rawDone: return
    case .header where members > 0 && position == input.count: return
    default:
      let error = GzipError(reason: "the stream ends inside a member (cut short)")
      state = .failed(error)
      throw error
    }
  }

  // MARK: - The decoding loop

  private enum Stop: Error {
    case needMore
    case invalid(String)
  }

  /// Where to come back to when the input runs out in the middle of a symbol.
  private struct Checkpoint {
    let position: Int
    let bitBuffer: UInt64
    let bitCount: Int
  }

  private var checkpoint: Checkpoint {
    Checkpoint(position: position, bitBuffer: bitBuffer, bitCount: bitCount)
  }

  private mutating func restore(_ saved: Checkpoint) {
    position = saved.position
    bitBuffer = saved.bitBuffer
    bitCount = saved.bitCount
  }

  private mutating func run(emit: ([UInt8]) -> Void) throws(Stop) {
    while true {
      switch state {
      case .failed, .rawDone: return
      case .header:
        guard position < input.count else { throw .needMore }
        try readHeader()
        state = .blockStart
      case .afterMember:
        // Another member, or padding (zeros) to the end.
        while position < input.count, input[position] == 0 { position += 1 }
        guard position < input.count else { throw .needMore }
        state = .header
      case .blockStart:
        if isFinalBlock {
          state = .trailer
          continue
        }
        let saved = checkpoint
        do throws(Stop) {
          isFinalBlock = try readBlockHeader()
        } catch {
          if case .needMore = error { restore(saved) }
          throw error
        }
      case .stored(let remaining):
        if remaining == 0 {
          state = .blockStart
          continue
        }
        guard position < input.count else { throw .needMore }
        if outEnd - handedOver >= Self.flushSize { flush(emit) }
        let count = min(
          remaining, input.count - position, Self.flushSize - (outEnd - handedOver))
        out.replaceSubrange(outEnd..<(outEnd + count), with: input[position..<(position + count)])
        outEnd += count
        position += count
        state = .stored(remaining: remaining - count)
      case .huffman(let literals, let distances):
        try inflateBlock(literals: literals, distances: distances, emit: emit)
        state = .blockStart
      case .trailer:
        flush(emit)
        // The rest of the last byte is padding; a member's back-references end with it.
        alignToByte()
        outEnd = 0
        handedOver = 0
        if isRaw {
          members += 1
          state = .rawDone
          return
        }
        guard input.count - position >= 8 else { throw .needMore }
        let storedCRC = littleEndian32(at: position)
        let storedSize = littleEndian32(at: position + 4)
        position += 8
        guard storedCRC == crc.value else { throw .invalid("bad CRC-32: the data is damaged") }
        guard storedSize == memberBytes else {
          throw .invalid("the length in the trailer does not match the data")
        }
        members += 1
        crc = CRC32()
        memberBytes = 0
        isFinalBlock = false
        state = .afterMember
      }
    }
  }

  private func littleEndian32(at index: Int) -> UInt32 {
    UInt32(input[index]) | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2]) << 16
      | UInt32(input[index + 3]) << 24
  }

  /// Reads a member's header; needs it whole in the input (it is retried from its start).
  private mutating func readHeader() throws(Stop) {
    var index = position
    func byte() throws(Stop) -> UInt8 {
      guard index < input.count else { throw .needMore }
      defer { index += 1 }
      return input[index]
    }
    guard try byte() == 0x1F, try byte() == 0x8B else { throw .invalid("not a gzip stream") }
    guard try byte() == 8 else { throw .invalid("compression method is not deflate") }
    let flags = try byte()
    guard flags & 0xE0 == 0 else { throw .invalid("reserved header flags are set") }
    for _ in 0..<6 { _ = try byte() }  // time, extra flags, operating system
    if flags & 0x04 != 0 {
      let length = Int(try byte()) | Int(try byte()) << 8
      guard input.count - index >= length else { throw .needMore }
      index += length
    }
    for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {
      while try byte() != 0 {}  // a name or a comment, zero-terminated
    }
    if flags & 0x02 != 0 { index += 2 }
    guard index <= input.count else { throw .needMore }
    position = index
  }

  // MARK: - Bits

  private mutating func bits(_ count: Int) throws(Stop) -> Int {
    while bitCount < count {
      guard position < input.count else { throw .needMore }
      bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
    let value = Int(bitBuffer & ((1 << UInt64(count)) - 1))
    bitBuffer >>= UInt64(count)
    bitCount -= count
    return value
  }

  /// Fills the bit buffer with whole bytes while they fit and the input has them.
  @inline(__always)
  private mutating func refill() {
    while bitCount <= 56, position < input.count {
      bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
  }

  /// Drops the bits left of the current byte and gives the whole bytes the bit buffer holds
  /// back to the input (they were read ahead).
  private mutating func alignToByte() {
    position -= bitCount / 8
    bitBuffer = 0
    bitCount = 0
  }

  /// The next symbol of `code`: by its table when the code is short and its bits are here, else
  /// bit by bit (a long code, or the input running out).
  @inline(__always)
  private mutating func decode(_ code: HuffmanCode) throws(Stop) -> Int {
    if bitCount < HuffmanCode.tableBits { refill() }
    let entry = code.table[Int(bitBuffer & UInt64(HuffmanCode.tableSize - 1))]
    let length = Int(entry & 15)
    if length != 0, length <= bitCount {
      bitBuffer >>= UInt64(length)
      bitCount -= length
      return Int(entry >> 4)
    }
    return try decodeBitByBit(code)
  }

  private mutating func decodeBitByBit(_ code: HuffmanCode) throws(Stop) -> Int {
    var value = 0
    var first = 0
    var index = 0
    for length in 1...15 {
      value |= try bits(1)
      let count = code.counts[length]
      if value - count < first { return code.symbols[index + value - first] }
      index += count
      first += count
      first <<= 1
      value <<= 1
    }
    throw .invalid("a code that is not in the block's table")
  }

  // MARK: - Blocks

  /// Reads a block's header and sets the state it starts; returns whether it is the last block.
  /// Nothing else changes until the header is read whole (it is read again from its start when
  /// the input runs out in it).
  private mutating func readBlockHeader() throws(Stop) -> Bool {
    let isFinal = try bits(1) == 1
    switch try bits(2) {
    case 0:
      alignToByte()
      guard input.count - position >= 4 else { throw .needMore }
      let length = Int(input[position]) | Int(input[position + 1]) << 8
      let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
      guard length == ~complement & 0xFFFF else {
        throw .invalid("a stored block's length does not match its complement")
      }
      position += 4
      state = .stored(remaining: length)
    case 1:
      state = .huffman(literals: Self.fixedLiterals, distances: Self.fixedDistances)
    case 2:
      let (literals, distances) = try readDynamicTables()
      state = .huffman(literals: literals, distances: distances)
    default:
      throw .invalid("a block of the reserved type 3")
    }
    return isFinal
  }

  private static let codeLengthOrder = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
  ]

  private mutating func readDynamicTables() throws(Stop) -> (HuffmanCode, HuffmanCode) {
    let literalCount = try bits(5) + 257
    let distanceCount = try bits(5) + 1
    let lengthCount = try bits(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw .invalid("too many codes in a dynamic block")
    }
    var lengthLengths = [Int](repeating: 0, count: 19)
    for index in 0..<lengthCount { lengthLengths[Self.codeLengthOrder[index]] = try bits(3) }
    guard let lengthCode = HuffmanCode(lengths: lengthLengths), lengthCode.isComplete else {
      throw .invalid("an invalid code-length code")
    }
    var lengths: [Int] = []
    while lengths.count < literalCount + distanceCount {
      let symbol = try decode(lengthCode)
      switch symbol {
      case 0...15: lengths.append(symbol)
      case 16:
        guard let last = lengths.last else { throw .invalid("a repeat with nothing before it") }
        lengths += Array(repeating: last, count: 3 + (try bits(2)))
      case 17: lengths += Array(repeating: 0, count: 3 + (try bits(3)))
      default: lengths += Array(repeating: 0, count: 11 + (try bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount else {
      throw .invalid("code lengths run past the table")
    }
    guard lengths[256] > 0 else { throw .invalid("no end-of-block code") }
    guard let literals = HuffmanCode(lengths: Array(lengths[0..<literalCount])),
      literals.isComplete || literals.codeCount == 1
    else { throw .invalid("an invalid literal/length code") }
    guard let distances = HuffmanCode(lengths: Array(lengths[literalCount...])),
      distances.isComplete || distances.codeCount <= 1
    else { throw .invalid("an invalid distance code") }
    return (literals, distances)
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  private mutating func inflateBlock(
    literals: HuffmanCode, distances: HuffmanCode, emit: ([UInt8]) -> Void
  ) throws(Stop) {
    while true {
      let saved = checkpoint
      do throws(Stop) {
        let symbol = try decode(literals)
        if symbol < 256 {
          put(UInt8(symbol))
        } else if symbol == 256 {
          return
        } else {
          let index = symbol - 257
          guard index < 29 else { throw Stop.invalid("a length code beyond 285") }
          let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
          let distanceSymbol = try decode(distances)
          guard distanceSymbol < 30 else { throw Stop.invalid("a distance code beyond 29") }
          let distance =
            Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
          guard distance <= outEnd else {
            throw Stop.invalid("a distance beyond the data decoded so far")
          }
          copyMatch(distance: distance, length: length)
        }
      } catch {
        if case .needMore = error { restore(saved) }
        throw error
      }
      if outEnd - handedOver >= Self.flushSize { flush(emit) }
    }
  }

  /// Output is handed over in pieces of about this size.
  private static let flushSize = 1 << 16
  /// What a back-reference may reach.
  private static let historySize = 1 << 15

  @inline(__always)
  private mutating func put(_ byte: UInt8) {
    out[outEnd] = byte
    outEnd += 1
  }

  /// Appends `length` bytes copied from `distance` back (overlapping: a run repeats, byte by
  /// byte, as deflate means it).
  @inline(__always)
  private mutating func copyMatch(distance: Int, length: Int) {
    let end = outEnd
    out.withUnsafeMutableBufferPointer { buffer in
      var from = end - distance
      var to = end
      if distance >= length {
        (buffer.baseAddress! + to).update(from: buffer.baseAddress! + from, count: length)
        return
      }
      for _ in 0..<length {
        buffer[to] = buffer[from]
        to += 1
        from += 1
      }
    }
    outEnd += length
  }

  private mutating func flush(_ emit: ([UInt8]) -> Void) {
    guard outEnd > handedOver else { return }
    let piece = Array(out[handedOver..<outEnd])
    crc.update(piece)
    memberBytes &+= UInt32(truncatingIfNeeded: piece.count)
    outputBytes += piece.count
    emit(piece)
    // Keep what a back-reference may reach, moved to the start once the buffer is half used
    // (not at every small piece: the input may come a byte at a time).
    guard outEnd > Self.historySize + Self.flushSize / 2 else {
      handedOver = outEnd
      return
    }
    let kept = Self.historySize
    let start = outEnd - kept  // past `kept`: the two ranges do not overlap
    out.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress!.update(from: buffer.baseAddress! + start, count: kept)
    }
    outEnd = kept
    handedOver = kept
  }

  private static let fixedLiterals = HuffmanCode(
    lengths: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
      + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8))!
  private static let fixedDistances = HuffmanCode(lengths: Array(repeating: 5, count: 30))!
}

/// A canonical Huffman code as RFC 1951 builds it from code lengths: how many codes of each
/// length, and the symbols in code order.
struct HuffmanCode {
  /// `counts[n]`: the codes of length `n` (1…15).
  let counts: [Int]
  /// Symbols ordered by code.
  let symbols: [Int]
  /// How many symbols have a code.
  let codeCount: Int
  /// True when the lengths use every code (no code left over).
  let isComplete: Bool
  /// Codes of at most ``tableBits`` bits by their next ``tableBits`` input bits (deflate sends a
  /// code's bits first bit first, so the index is the code reversed, padded with every value of
  /// the bits after it): `symbol << 4 | length`, 0 where the code is longer.
  let table: [UInt16]
  static let tableBits = 9
  static let tableSize = 1 << tableBits

  /// Nil when the lengths are over-subscribed (more codes than the lengths allow).
  init?(lengths: [Int]) {
    var counts = [Int](repeating: 0, count: 16)
    for length in lengths { counts[length] += 1 }
    counts[0] = 0
    var left = 1
    for length in 1...15 {
      left <<= 1
      left -= counts[length]
      if left < 0 { return nil }
    }
    var offsets = [Int](repeating: 0, count: 16)
    for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
    var symbols = [Int](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length != 0 {
      symbols[offsets[length]] = symbol
      offsets[length] += 1
    }
    var table = [UInt16](repeating: 0, count: Self.tableSize)
    var code = 0
    var index = 0
    for length in 1...15 {
      for _ in 0..<counts[length] {
        if length <= Self.tableBits {
          var reversed = 0
          for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
          let entry = UInt16(symbols[index] << 4 | length)
          var fill = reversed
          while fill < Self.tableSize {
            table[fill] = entry
            fill += 1 << length
          }
        }
        code += 1
        index += 1
      }
      code <<= 1
    }
    self.table = table
    self.counts = counts
    self.symbols = symbols
    self.codeCount = lengths.filter { $0 != 0 }.count
    self.isComplete = left == 0
  }
}

/// CRC-32 (IEEE 802.3, reflected), as gzip's trailer holds it.
package struct CRC32 {
  package private(set) var value: UInt32 = 0

  private static let table: [UInt32] = (0..<256).map { index in
    var entry = UInt32(index)
    for _ in 0..<8 { entry = entry & 1 == 1 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1 }
    return entry
  }

  package init() {}

  package mutating func update(_ bytes: [UInt8]) {
    var current = ~value
    Self.table.withUnsafeBufferPointer { table in
      for byte in bytes { current = table[Int((current ^ UInt32(byte)) & 0xFF)] ^ (current >> 8) }
    }
    value = ~current
  }
}
