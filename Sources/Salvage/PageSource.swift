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
  /// The newest valid database header (page 1 from the WAL if it holds one, else the main file's).
  let header: DatabaseHeader?
  /// True when the main file's own first 100 bytes are a valid header.
  let mainHeaderIsValid: Bool
  let encoding: TextEncoding
  /// Remarks on what was assumed (no user data).
  private(set) var notes: [String] = []

  /// Combines `main` and `wal`; nil when neither holds a byte to decode.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  init?(main: ReadOnlyFile?, wal walFile: WALFile?) throws(FileAccessError) {
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
    if wal?.databasePages == 0 { wal = nil }
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
    self.pageSize = size
    self.mainHeaderIsValid = mainHeader != nil
    if let wal, wal.databasePages > 0 {
      pageCount = wal.databasePages
    } else {
      pageCount = Int((mainSize + Int64(size) - 1) / Int64(size))
    }
    var newest = mainHeader
    if let offset = wal?.newestFrame[1], let page1 = try wal?.frameData(at: offset),
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
    if wal?.newestFrame[number] != nil { return .wal }
    guard let main, Int64(number - 1) * Int64(pageSize) < main.size else { return nil }
    return .main
  }

  /// The current bytes of page `number` (short for a truncated last page), nil when absent.
  func page(_ number: Int) throws(FileAccessError) -> [UInt8]? {
    guard number >= 1, number <= pageCount else { return nil }
    if let wal, let offset = wal.newestFrame[number] {
      return try wal.frameData(at: offset)
    }
    guard let main else { return nil }
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
    guard perPage > 0, cell.payloadSize - cell.local.count <= pageCount * perPage else {
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
