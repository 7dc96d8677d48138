// SQLITE DATABASE HEADER (https://www.sqlite.org/fileformat2.html#the_database_header)
//
// The first 100 bytes of page 1. Salvage reads only the fields below; all are big-endian.
//
//   OFFSET  SIZE  DESCRIPTION
//      0     16   "SQLite format 3\0"
//     16      2   page size in bytes: a power of two from 512 to 32768, or 1 meaning 65536
//     18      1   file format write version: 1 = rollback journal, 2 = WAL
//     20      1   bytes of unused "reserved" space at the end of each page (usually 0)
//     28      4   size of the database in pages ("in-header database size")
//     32      4   page number of the first freelist trunk page (0 when the freelist is empty)
//     36      4   total number of freelist pages
//     52      4   largest root b-tree page when in auto-vacuum or incremental-vacuum mode, else 0
//     56      4   text encoding: 1 = UTF-8, 2 = UTF-16le, 3 = UTF-16be
//     64      4   true (non-zero) for incremental-vacuum mode, false otherwise
//
// The header is used only if (1) the magic string matches, (2) the page size is a power of two
// from 512 to 65536, and (3) the reserved space leaves at least 480 usable bytes per page.
// Otherwise it counts as lost (a zeroed or overwritten page 1): the page size then comes from the
// WAL header or is inferred from the pages themselves, the encoding is taken as UTF-8, the
// freelist head is unknown, and pointer-map pages are detected by their contents.

/// The fields of a database header that salvage uses; nil when the 100 bytes are not a valid header.
struct DatabaseHeader: Sendable, Equatable {
  /// Page size in bytes (512...65536, a power of two).
  var pageSize: Int
  /// Reserved bytes at the end of each page.
  var reservedBytes: Int
  /// The in-header database size in pages (may be stale in old files; used only as a hint).
  var databasePages: Int
  /// First freelist trunk page, 0 when there is none.
  var firstFreelistTrunk: Int
  /// Number of freelist pages the header claims.
  var freelistPages: Int
  /// True when the file has pointer-map pages (auto-vacuum or incremental vacuum).
  var hasPointerMap: Bool
  /// How text values are encoded.
  var encoding: TextEncoding
  /// True when byte 18 says the file was last written in WAL mode.
  var isWAL: Bool

  /// The usable size of a page: page size less the reserved bytes.
  var usableSize: Int { pageSize - reservedBytes }

  /// Parses the first 100 bytes of a database file.
  init?(_ bytes: [UInt8]) {
    guard bytes.count >= 100, Array(bytes.prefix(16)) == Self.magic else { return nil }
    guard let rawSize = bytes.uint16(at: 16), let size = Self.pageSize(fromField: rawSize) else {
      return nil
    }
    let reserved = Int(bytes[20])
    guard size - reserved >= 480 else { return nil }
    pageSize = size
    reservedBytes = reserved
    databasePages = Int(bytes.uint32(at: 28) ?? 0)
    firstFreelistTrunk = Int(bytes.uint32(at: 32) ?? 0)
    freelistPages = Int(bytes.uint32(at: 36) ?? 0)
    hasPointerMap = (bytes.uint32(at: 52) ?? 0) != 0
    encoding = TextEncoding(rawValue: Int(bytes.uint32(at: 56) ?? 1)) ?? .utf8
    isWAL = bytes[18] == 2
  }

  /// The 16-byte magic string at the start of every database file.
  static let magic: [UInt8] = Array("SQLite format 3\0".utf8)

  /// The page size a header or WAL field encodes, nil when it is not a valid size.
  static func pageSize(fromField field: Int) -> Int? {
    if field == 1 { return 65536 }
    guard field >= 512, field <= 32768, field & (field - 1) == 0 else { return nil }
    return field
  }

  /// True when `size` is a valid SQLite page size.
  static func isValidPageSize(_ size: Int) -> Bool {
    size >= 512 && size <= 65536 && size & (size - 1) == 0
  }
}
