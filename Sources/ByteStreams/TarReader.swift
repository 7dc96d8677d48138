// TAR, READ BY THIS PACKAGE'S OWN CODE (POSIX ustar, GNU and pax extensions)
//
//   BLOCK     WHAT IS READ
//   header    512 bytes: name (100), size (12, octal or base-256), type (1), ustar prefix (155);
//             the checksum must agree (sum of the header with the checksum field as spaces)
//   'L'       GNU long name: the next entry's name
//   'x' 'g'   pax: a `path=` record names the next entry
//   data      the entry's bytes, padded to 512; handed over in pieces as they arrive
//   end       two zero blocks (or the end of the input)
//
// Nothing is written to disk: entries are handed to the caller as they stream by.

/// Why a tar stream could not be read further.
package struct TarError: Error, Equatable, Sendable {
  package let reason: String
}

/// What a tar stream holds, handed over as it arrives.
package enum TarEvent {
  /// A regular file begins: its path and size.
  case begin(path: String, size: Int)
  /// Some bytes of the current file.
  case data(ArraySlice<UInt8>)
  /// The current file is complete.
  case end
}

/// A streaming tar reader: feed it bytes, it reports entries.
package struct TarReader {
  private enum State {
    case header
    case data(remaining: Int, padding: Int, regular: Bool, meta: MetaKind?)
    case finished
  }

  private enum MetaKind { case longName, pax }

  private var state = State.header
  private var pending: [UInt8] = []
  private var meta: [UInt8] = []
  private var nextName: String?
  package private(set) var entries = 0

  package init() {}

  /// The largest entry size read (2⁵⁰ bytes, a pebibyte): beyond it a header is damaged.
  package static let maximumEntrySize = 1 << 50

  /// Whether `bytes` (the first 512 or more of a stream) begin with a tar header.
  package static func looksLikeTar(_ bytes: some Collection<UInt8>) -> Bool {
    let header = Array(bytes.prefix(512))
    guard header.count == 512 else { return false }
    if Array(header[257..<262]) == Array("ustar".utf8) { return true }
    return checksumMatches(header)
  }

  static func checksumMatches(_ header: [UInt8]) -> Bool {
    guard let stored = octal(header[148..<156]) else { return false }
    var sum = 0
    for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
    return sum == stored
  }

  static func octal(_ field: ArraySlice<UInt8>) -> Int? {
    if let first = field.first, first & 0x80 != 0 {
      // Base-256 (GNU): big-endian, high bit set.
      var value = Int(first & 0x7F)
      for byte in field.dropFirst() {
        guard value < Int.max >> 8 else { return nil }
        value = value << 8 | Int(byte)
      }
      return value
    }
    var value = 0
    var seen = false
    for byte in field {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        guard value < Int.max >> 3 else { return nil }
        value = value * 8 + Int(byte - UInt8(ascii: "0"))
        seen = true
      case 0, UInt8(ascii: " "):
        if seen { return value }
      default:
        return nil
      }
    }
    return seen ? value : 0
  }

  /// Reads what `chunk` allows; events go to `emit`.
  package mutating func feed(_ chunk: some Collection<UInt8>, emit: (TarEvent) -> Void)
    throws(TarError)
  {
    pending.append(contentsOf: chunk)
    var position = 0
    defer { pending.removeFirst(position) }
    while true {
      switch state {
      case .finished:
        position = pending.count
        return
      case .header:
        guard pending.count - position >= 512 else { return }
        let header = Array(pending[position..<position + 512])
        position += 512
        if header.allSatisfy({ $0 == 0 }) {
          state = .finished
          continue
        }
        guard Self.checksumMatches(header) else {
          throw TarError(reason: "a tar header's checksum does not match (entry \(entries + 1))")
        }
        guard let size = Self.octal(header[124..<136]) else {
          throw TarError(reason: "a tar header's size is not a number (entry \(entries + 1))")
        }
        // No archive holds an entry of a petabyte: a larger size is a damaged header, refused
        // here so that no reader adds to it or rounds it up past `Int.max`.
        guard size <= Self.maximumEntrySize else {
          throw TarError(
            reason:
              "a tar header's size (\(size) bytes) is beyond any real entry (entry \(entries + 1))")
        }
        let type = header[156]
        var name = Self.string(header[0..<100])
        if Array(header[257..<262]) == Array("ustar".utf8) {
          let prefix = Self.string(header[345..<500])
          if !prefix.isEmpty { name = prefix + "/" + name }
        }
        if let long = nextName {
          name = long
          nextName = nil
        }
        let padding = (512 - size % 512) % 512
        switch type {
        case UInt8(ascii: "L"):
          meta = []
          state = .data(remaining: size, padding: padding, regular: false, meta: .longName)
        case UInt8(ascii: "x"):
          meta = []
          state = .data(remaining: size, padding: padding, regular: false, meta: .pax)
        case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
          entries += 1
          emit(.begin(path: name, size: size))
          state = .data(remaining: size, padding: padding, regular: true, meta: nil)
        default:
          state = .data(remaining: size, padding: padding, regular: false, meta: nil)
        }
      case .data(let remaining, let padding, let regular, let metaKind):
        let available = pending.count - position
        if remaining > 0 {
          guard available > 0 else { return }
          let count = min(remaining, available)
          let piece = pending[position..<position + count]
          if regular { emit(.data(piece)) }
          if metaKind != nil, meta.count < 1 << 20 { meta += piece }
          position += count
          state = .data(
            remaining: remaining - count, padding: padding, regular: regular, meta: metaKind)
          continue
        }
        guard available >= padding else { return }
        position += padding
        if regular { emit(.end) }
        if let metaKind { nextName = Self.name(from: meta, kind: metaKind) }
        state = .header
      }
    }
  }

  /// Ends the stream: an entry cut short is an error.
  package mutating func finish() throws(TarError) {
    switch state {
    case .header, .finished: return
    case .data(let remaining, _, _, _):
      throw TarError(reason: "the archive ends inside an entry (\(remaining) bytes missing)")
    }
  }

  private static func string(_ field: ArraySlice<UInt8>) -> String {
    let end = field.firstIndex(of: 0) ?? field.endIndex
    return String(decoding: field[field.startIndex..<end], as: UTF8.self)
  }

  private static func name(from meta: [UInt8], kind: MetaKind) -> String? {
    switch kind {
    case .longName:
      return string(meta[...])
    case .pax:
      // Records: "<length> <key>=<value>\n".
      var index = 0
      while index < meta.count {
        // A record's length counts its digits, the space, the record and its newline: one that
        // cannot hold them (or runs past the data) ends the reading of the records.
        guard let space = meta[index...].firstIndex(of: UInt8(ascii: " ")),
          let length = Int(String(decoding: meta[index..<space], as: UTF8.self)),
          length > space - index + 1, length <= meta.count - index
        else { return nil }
        let record = meta[(space + 1)..<(index + length - 1)]
        if let equals = record.firstIndex(of: UInt8(ascii: "=")),
          String(decoding: record[record.startIndex..<equals], as: UTF8.self) == "path"
        {
          return String(decoding: record[(equals + 1)...], as: UTF8.self)
        }
        index += length
      }
      return nil
    }
  }
}
