import Foundation

/// A property list's encoding.
package enum PropertyListFormat: String, Sendable, Equatable {
  /// `bplist00`.
  case binary
  /// Apple's XML property list.
  case xml
}

/// Decodes every property list the package reads from outside (the App Group defaults, a backup's
/// `Info.plist`, `Manifest.plist` and `Status.plist`, the `MBFile` archives in `Manifest.db`, Core
/// Data's store metadata) with the package's own code: the same code path on every platform, no
/// Foundation bridging, no guessing of a value's kind by its type's name.
///
/// Untrusted input: nesting, size and expansion are bounded, references are checked, cycles are
/// refused, and every failure is a ``PropertyListError`` naming what went wrong.
package enum PropertyListReader {
  /// The deepest nesting of containers read.
  package static let maximumDepth = 256
  /// The most values a property list may expand to (a shared object counted each time it is
  /// reached), so no input makes its reader or its consumer walk without end.
  package static let maximumValues = 1_000_000
  /// Dates further than this from 2001 (about 100,000 years) are refused: no source writes one,
  /// and every date read can be written again in XML.
  package static let maximumDateSeconds: Double = 100_000 * 365.25 * 86_400

  /// What a string holding an unpaired UTF-16 surrogate (a binary property list can hold one; a
  /// Swift `String` cannot) is read as.
  package enum UnpairedSurrogates: Sendable {
    /// Each unpaired surrogate is read as U+FFFD: for reading what a file says.
    case replaced
    /// The file is refused (``PropertyListError/Kind/unpairedSurrogate``): for a file that will
    /// be written back, which must keep every string as written or not be written at all.
    case refused
  }

  /// The value `bytes` hold, and their format.
  ///
  /// - Throws: ``PropertyListError``.
  package static func decode(
    _ bytes: [UInt8], unpairedSurrogates: UnpairedSurrogates = .replaced
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    if bytes.starts(with: Array("bplist".utf8)) {
      // Version 0 is "bplist0" and any eighth byte (Core Foundation checks no more).
      guard bytes.starts(with: Array("bplist0".utf8)) else {
        throw PropertyListError(
          .unsupportedVersion,
          "a binary property list of version \(String(decoding: bytes.dropFirst(6).prefix(2), as: UTF8.self)), not 0"
        )
      }
      var reader = try BinaryPropertyListReader(bytes, unpairedSurrogates: unpairedSurrogates)
      return (try reader.decode(), .binary)
    }
    guard !bytes.isEmpty else {
      throw PropertyListError(.notAPropertyList, "no content (0 bytes)")
    }
    let text = try utf8(bytes)
    guard text.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "<") else {
      // Text that is not XML is OpenStep's (where a bare word, or nothing, is a property list).
      guard String(bytes: text, encoding: .utf8) != nil else {
        throw PropertyListError(.notAPropertyList, "neither a binary nor an XML property list")
      }
      throw PropertyListError(
        .openStep,
        "not a property list: text that is neither XML nor binary (OpenStep text is not read)")
    }
    var reader = XMLPropertyListReader(text)
    return (try reader.decode(), .xml)
  }

  /// `bytes` as UTF-8: a UTF-8 BOM dropped, UTF-16 with a BOM converted.
  private static func utf8(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
    let bigEndian = bytes.starts(with: [0xFE, 0xFF])
    guard bigEndian || bytes.starts(with: [0xFF, 0xFE]) else { return bytes }
    guard bytes.count % 2 == 0 else {
      throw PropertyListError(.invalidText, "UTF-16 text of an odd number of bytes")
    }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2 - 1)
    var index = 2
    while index < bytes.count {
      let (high, low) =
        bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
      units.append(UInt16(high) << 8 | UInt16(low))
      index += 2
    }
    var text: [UInt8] = []
    // True when it stopped on an error.
    let failed = transcode(
      units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true
    ) { text.append($0) }
    guard !failed else {
      throw PropertyListError(.invalidText, "UTF-16 text with an unpaired surrogate")
    }
    return text
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
