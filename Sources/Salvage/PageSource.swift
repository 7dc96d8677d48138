import SafeFiles

// PAGES OF A DATABASE AS SALVAGE SEES THEM
//
// A page's content is the newest committed WAL frame for it when the WAL holds one, otherwise the
// main file's bytes at (page - 1) * page size. Pages are read on demand with pread: memory holds
// one page at a time, whatever the file size.
//
//   QUESTION          ANSWER, IN ORDER OF PREFERENCE
//   page size         valid main header; WAL header; else inferred (the size under which the most
//                     of the first 64 pages parse as b-tree pages; 4096 wins ties)
//   usable size       page size minus the reserved bytes of the newest valid header (0 when lost)
//   page count        the database size of the last WAL commit; else the main file's size in pages,
//                     a partial last page included (it is read short, never padded)
//   text encoding     newest valid header; else UTF-8
//
// A WAL whose page size differs from a valid main header belongs to another database: SQLite
// ignores it, and so do we (with a note).

/// Reads pages from a main file overlaid with the newest committed WAL frames.
final class PageSource {
  /// Where a page's current content came from.
  enum Origin: Sendable { case main, wal }

  let main: ReadOnlyFile?
  let wal: WALFile?
  let pageSize: Int
  let usableSize: Int
  let pageCount: Int
  /// Every page number, up to `pageCount`, whose bytes some file holds, ascending: what a scan
  /// reads. Bounded by the bytes on disk, whatever page count a header or a frame claims (a frame
  /// for page 4,294,967,295 adds one page, not four billion).
  let presentPages: [Int]
  /// The newest valid database header (page 1 from the WAL if it holds one, else the main file's).
  let header: DatabaseHeader?
  /// True when the main file's own first 100 bytes are a valid header.
  let mainHeaderIsValid: Bool
  let encoding: TextEncoding
  /// Remarks on what was assumed (no user data).
  private(set) var notes: [String] = []
  /// The WAL frame holding each page's content, by page number: the newest committed frames, and
  /// with `includingNeverCommitted` the frames no commit covers over them.
  private let frames: [Int: Int64]
  /// Where the main file holds data (start, end), in order: pages wholly inside a hole of a sparse
  /// file are zeros, which decode as nothing, so they are not read (a 2 GiB sparse file is
  /// scanned in milliseconds instead of half a million reads).
  private let mainData: [(start: Int64, end: Int64)]

  /// Combines `main` and `wal` (with `includingNeverCommitted`, also the WAL's frames no commit
  /// covers, newest last, over the committed ones); nil when neither holds a byte to decode.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  init?(main: ReadOnlyFile?, wal walFile: WALFile?, includingNeverCommitted: Bool = false)
    throws(FileAccessError)
  {
    let mainHeader = try main.flatMap { file throws(FileAccessError) in
      DatabaseHeader(try file.read(count: 100, at: 0))
    }
    var wal = walFile
    var notes: [String] = []
    if let mainHeader, let walPageSize = wal?.pageSize, walPageSize != mainHeader.pageSize {
      notes.append(
        "the -wal page size (\(walPageSize)) differs from the main file's (\(mainHeader.pageSize)): -wal ignored"
      )
      wal = nil
    }
    var frames = wal?.newestFrame ?? [:]
    if includingNeverCommitted, let wal {
      for frame in wal.neverCommitted { frames[frame.page] = frame.offset }
    }
    if frames.isEmpty { wal = nil }
    let mainSize = main?.size ?? 0
    guard mainSize > 0 || wal != nil else { return nil }
    let size: Int
    if let mainHeader {
      size = mainHeader.pageSize
    } else if let wal {
      size = wal.pageSize
    } else if let main {
      size = try Self.inferPageSize(main)
      notes.append("the database header is not valid: page size \(size) inferred")
    } else {
      return nil
    }
    self.main = main
    self.wal = wal
    mainData = try main?.dataRegions().map { ($0.0, $0.0 + $0.1) } ?? []
    self.pageSize = size
    self.mainHeaderIsValid = mainHeader != nil
    let mainPages = Int((mainSize + Int64(size) - 1) / Int64(size))
    if let wal, wal.databasePages > 0, !includingNeverCommitted {
      pageCount = wal.databasePages
    } else if let wal {
      // Frames no commit covers may reach past the last committed size (or there is none).
      pageCount = max(
        wal.databasePages, frames.keys.max() ?? 0, wal.databasePages > 0 ? 0 : mainPages)
    } else {
      pageCount = mainPages
    }
    self.frames = frames
    presentPages = Self.pagesHeld(
      mainData: mainData, mainPages: mainPages, framePages: frames.keys, pageSize: size,
      pageCount: pageCount)
    var newest = mainHeader
    if let offset = frames[1], let page1 = try wal?.frameData(at: offset),
      let walHeader = DatabaseHeader(page1), walHeader.pageSize == size
    {
      newest = walHeader
    }
    header = newest
    usableSize = newest?.usableSize ?? size
    encoding = newest?.encoding ?? .utf8
    self.notes = notes
  }

  /// Where page `number` currently comes from, nil when no source holds it.
  func origin(of number: Int) -> Origin? {
    guard number >= 1, number <= pageCount else { return nil }
    if frames[number] != nil { return .wal }
    guard let main, Int64(number - 1) * Int64(pageSize) < main.size, holdsData(number) else {
      return nil
    }
    return .main
  }

  /// True when some byte of page `number` of the main file is stored (not in a hole).
  private func holdsData(_ number: Int) -> Bool {
    let start = Int64(number - 1) * Int64(pageSize)
    let end = start + Int64(pageSize)
    // The first region ending after the page's start decides.
    var low = 0
    var high = mainData.count
    while low < high {
      let middle = (low + high) / 2
      if mainData[middle].end <= start { low = middle + 1 } else { high = middle }
    }
    return low < mainData.count && mainData[low].start < end
  }

  /// The current bytes of page `number` (short for a truncated last page), nil when absent.
  func page(_ number: Int) throws(FileAccessError) -> [UInt8]? {
    guard number >= 1, number <= pageCount else { return nil }
    if let wal, let offset = frames[number] {
      return try wal.frameData(at: offset)
    }
    guard let main, holdsData(number) else { return nil }
    let bytes = try main.read(count: pageSize, at: Int64(number - 1) * Int64(pageSize))
    return bytes.isEmpty ? nil : bytes
  }

  /// The whole payload of `cell`, following its overflow chain through pages `accept` allows.
  ///
  /// Nil when the chain is broken: a page missing or short, a page number out of range, a page
  /// visited twice (a cycle), a page refused, or a chain that ends before the payload does.
  func payload(of cell: TableLeafCell, accept: (Int) -> Bool) throws(FileAccessError) -> [UInt8]? {
    guard var next = cell.overflowPage else { return cell.local }
    let perPage = usableSize - 4
    // A chain visits each page at most once, so it cannot be longer than the pages held.
    guard perPage > 0, cell.payloadSize - cell.local.count <= presentPages.count * perPage else {
      return nil
    }
    var payload = cell.local
    payload.reserveCapacity(cell.payloadSize)
    var visited = Set<Int>()
    while payload.count < cell.payloadSize {
      guard next >= 2, next <= pageCount, visited.insert(next).inserted, accept(next),
        let page = try page(next), let following = page.uint32(at: 0)
      else { return nil }
      let take = min(cell.payloadSize - payload.count, perPage)
      guard let chunk = page.bytes(at: 4, count: take) else { return nil }
      payload.append(contentsOf: chunk)
      next = Int(following)
    }
    return payload
  }

  /// The page numbers held by the main file's data regions (pages wholly in a hole excluded) and
  /// by `framePages`, up to `pageCount`, ascending and once each.
  private static func pagesHeld(
    mainData: [(start: Int64, end: Int64)], mainPages: Int, framePages: Dictionary<Int, Int64>.Keys,
    pageSize: Int, pageCount: Int
  ) -> [Int] {
    let lastMain = min(mainPages, pageCount)
    var pages: [Int] = []
    for region in mainData {
      let first = Int(region.start / Int64(pageSize)) + 1
      let last = min(Int((region.end - 1) / Int64(pageSize)) + 1, lastMain)
      // Regions are ascending and disjoint, but two may share a page.
      let from = max(first, (pages.last ?? 0) + 1)
      if from <= last { pages.append(contentsOf: from...last) }
    }
    let extra = framePages.filter { $0 >= 1 && $0 <= pageCount }.sorted()
    guard !extra.isEmpty else { return pages }
    var merged: [Int] = []
    merged.reserveCapacity(pages.count + extra.count)
    var i = 0
    var j = 0
    while i < pages.count || j < extra.count {
      let next: Int
      if j == extra.count || (i < pages.count && pages[i] <= extra[j]) {
        next = pages[i]
        i += 1
      } else {
        next = extra[j]
        j += 1
      }
      if merged.last != next { merged.append(next) }
    }
    return merged
  }

  // MARK: - Page size inference

  private static let candidateSizes = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]

  /// The page size under which page starts look like b-tree pages.
  ///
  /// A candidate size s is probed at its odd multiples (s, 3s, 5s, … in the first MiB). For the
  /// true size S, those are page starts, and most parse as b-tree pages. For s < S an odd multiple
  /// of s is never a multiple of S, so only stray bytes parse; for s > S they are page starts again.
  /// The answer is the smallest candidate whose share of parsing probes is at least half the best
  /// share (taken over candidates with at least 4 probes). When no probe parses: 4096, the Ditto
  /// layout.
  private static func inferPageSize(_ main: ReadOnlyFile) throws(FileAccessError) -> Int {
    let window = min(main.size, 1 << 20)
    var shares: [(size: Int, share: Double, probes: Int)] = []
    for size in candidateSizes {
      var probes = 0
      var valid = 0
      var offset = Int64(size)
      while offset < window {
        let bytes = try main.read(count: min(size, 512), at: offset)
        let number = Int(offset / Int64(size)) + 1
        if BTreePage(bytes: bytes, number: number, usableSize: size) != nil { valid += 1 }
        probes += 1
        offset += 2 * Int64(size)
      }
      shares.append((size, probes > 0 ? Double(valid) / Double(probes) : 0, probes))
    }
    let sampled = shares.filter { $0.probes >= 4 }
    let best = (sampled.isEmpty ? shares : sampled).map(\.share).max() ?? 0
    guard best > 0 else { return 4096 }
    return shares.first { $0.share >= 0.5 * best }?.size ?? 4096
  }
}

@available(*, unavailable)
extension PageSource: Sendable {}

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
