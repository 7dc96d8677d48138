import LegacyStore
import SafeFiles

// DELETED ROWS: CARVING FREE SPACE
//
// A deleted row's bytes stay in the file until something overwrites them (unless the database
// runs with secure_delete, which zeroes them). Salvage looks in every region no live cell uses:
//
//   REGION                                WHAT SURVIVES
//   free pages (freelist trunk + leaves)  whole old cells (a trunk page loses its first bytes to
//                                         the page list; cells sit at the end of the page)
//   freeblocks of every b-tree page       freed cells; each lost its first 4 bytes to a freeblock
//                                         header when it was freed, unless it merged into the
//                                         freeblock before it
//   unallocated space of every b-tree     the same, once a freeblock at the start of the content
//   page (pointer array to content start) area is absorbed; also old cells of a leaf that became
//                                         an interior page when its table grew
//   superseded page images                older WAL frames, and main-file pages the WAL replaces
//
// Each region is scanned byte by byte, trying two readings at each offset:
//
// INTACT CELL: a payload-size varint P, a rowid varint, then a record header. The cell is accepted
// if and only if (1) the record header's serial types give exactly a ZDITTO shape (DittoSchema,
// strict), (2) header plus body is exactly P, (3) the local part (and the overflow page number)
// fits the region, (4) an overflow chain, if any, runs through free pages only and ends exactly,
// (5) the record decodes and matches ZDITTO strictly (Z_ENT included), and (6) its text is valid
// and not empty.
//
// FREED HEAD: the 4 bytes at the offset read as a freeblock header (next offset 0 or further on
// in the page, size >= 4 within the page). With the ZDITTO key in column 0 the lost bytes can only be the payload-size varint,
// the rowid varint, the header-size byte and column 0's serial type (0: the INTEGER PRIMARY KEY
// is stored as NULL). For each prefix length p from 2 to 6 (payload-size plus rowid varints), the
// header is assumed to start at p, the lost header bytes are restored (size = computed header
// length, column 0 = 0), and the record is checked as above. A reading is kept only if all
// surviving readings agree on the text, or if exactly one text ends where the header's size says
// the block ended; ambiguous heads are dropped (a wrong text is worse than none). The rowid of
// such a row is lost.
//
// Readings may overlap where freed space was reused: a cell written later takes the end of a
// freeblock, over the tail of an older cell. A reading that contains the start of another
// reading has lost its tail, and is dropped.
//
// A found row is reported only if its key (when known) is not a live ditto's and its text is not
// a live ditto's text; each text is reported once.

/// Finds deleted ZDITTO rows in free space.
struct FreeSpaceCarver {
  let source: PageSource
  let scan: PageScan
  private let spec: TableSpec?
  private let encoding: TextEncoding
  /// True when column 1 is Z_ENT (as Core Data lays out every table): its serial type is then a
  /// one-byte integer type, a cheap first test at each offset.
  private let columnOneIsEntity: Bool

  init(source: PageSource, scan: PageScan) {
    self.source = source
    self.scan = scan
    self.spec = scan.schema.specs[.ditto]
    self.encoding = source.encoding
    let columns = spec?.columns ?? []
    self.columnOneIsEntity = columns.count > 1 && columns[1].name == "Z_ENT"
  }

  /// One row found in free space; `key` is nil when the cell's rowid was overwritten.
  struct Found {
    var key: Int64?
    var row: DittoRow
  }

  /// Every ZDITTO row found in free space, in page order.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  func carve() throws(FileAccessError) -> [Found] {
    guard let spec, spec.columns.first?.isRowidAlias == true else { return [] }
    var found: [Found] = []
    for number in source.presentPages where !scan.map.isStructural(number) {
      guard let bytes = try source.page(number) else { continue }
      try carvePage(
        bytes, number: number, isFree: scan.map.freePages.contains(number), into: &found)
    }
    for image in try supersededImages() {
      guard
        let page = BTreePage(bytes: image.bytes, number: image.page, usableSize: source.usableSize),
        page.kind == .tableLeaf
      else { continue }
      for offset in page.cellOffsets {
        guard let cell = page.tableLeafCell(at: offset), cell.overflowPage == nil,
          let values = Record.decode(cell.local),
          scan.schema.matches(values, table: .ditto, strict: true),
          let row = scan.schema.dittoRow(key: cell.rowid, values: values, encoding: encoding),
          let text = row.text, !text.isEmpty
        else { continue }
        found.append(Found(key: cell.rowid, row: row))
      }
      try carvePage(image.bytes, number: image.page, isFree: false, into: &found)
    }
    return found
  }

  // MARK: - Regions

  /// Carves the free regions of one page: all of it when it is a free page, else the space
  /// between the cell pointers and the cell content, and the freeblocks.
  private func carvePage(_ bytes: [UInt8], number: Int, isFree: Bool, into found: inout [Found])
    throws(FileAccessError)
  {
    let limit = min(source.usableSize, bytes.count)
    if isFree {
      try carveRegion(bytes, from: 0, to: limit, into: &found)
      return
    }
    guard let page = BTreePage(bytes: bytes, number: number, usableSize: source.usableSize) else {
      return
    }
    try carveRegion(
      bytes, from: page.cellPointerEnd, to: min(page.contentStart, limit), into: &found)
    for block in page.freeblocks {
      try carveRegion(
        bytes, from: block.offset, to: min(block.offset + block.size, limit), into: &found)
    }
  }

  /// Scans `bytes[start..<end]` for intact cells and for cells whose head a freeblock header
  /// overwrote, then keeps the readings no later reading starts inside: a cell written later
  /// over freed space takes the end of that space, so an older cell that contains the start of
  /// another has lost its tail.
  private func carveRegion(
    _ bytes: [UInt8], from start: Int, to end: Int, into found: inout [Found]
  )
    throws(FileAccessError)
  {
    var hits: [(start: Int, end: Int, found: Found)] = []
    var offset = max(start, 0)
    while offset < end - 3 {
      if let size = bytes.varint(at: offset), let key = bytes.varint(at: offset + size.length),
        size.value > 0, size.value <= Int64(TableLeafCell.maximumPayload),
        startsRecordHeader(bytes, at: offset + size.length + key.length, lostBefore: offset),
        let hit = try candidate(
          bytes, headerStart: offset + size.length + key.length, end: end, lostBefore: offset,
          payloadSize: Int(size.value))
      {
        hits.append((offset, hit.end, Found(key: key.value, row: hit.row)))
      } else if let hit = try freedHead(bytes, at: offset, end: end) {
        hits.append((offset, hit.end, Found(key: nil, row: hit.row)))
      }
      offset += 1
    }
    let starts = hits.map(\.start)
    for hit in hits where !starts.contains(where: { $0 > hit.start && $0 < hit.end }) {
      found.append(hit.found)
    }
  }

  /// The cell whose first 4 bytes became the freeblock header at `offset`, when exactly one
  /// reading of it holds (or one ends where the header's size says the block ended).
  private func freedHead(_ bytes: [UInt8], at offset: Int, end: Int) throws(FileAccessError)
    -> (row: DittoRow, end: Int)?
  {
    // A freeblock header: the next freeblock is 0 or further on in the page, the size fits the page.
    guard let next = bytes.uint16(at: offset),
      next == 0 || (next >= offset + 4 && next < source.usableSize),
      let size = bytes.uint16(at: offset + 2), size >= 4, offset + size <= source.usableSize
    else { return nil }
    var hits: [(row: DittoRow, end: Int)] = []
    for prefix in 2...6 where startsRecordHeader(bytes, at: offset + prefix, lostBefore: offset + 4)
    {
      if let hit = try candidate(
        bytes, headerStart: offset + prefix, end: end, lostBefore: offset + 4, payloadSize: nil,
        prefix: prefix)
      {
        hits.append(hit)
      }
    }
    guard !hits.isEmpty else { return nil }
    if Set(hits.map { $0.row.text ?? "" }).count == 1 { return hits.first }
    let aligned = hits.filter { $0.end == offset + size }
    if Set(aligned.map { $0.row.text ?? "" }).count == 1 { return aligned.first }
    return nil
  }

  /// Older images of pages: WAL frames a later commit replaced, and main-file pages the WAL replaces.
  private func supersededImages() throws(FileAccessError) -> [(page: Int, bytes: [UInt8])] {
    var images: [(page: Int, bytes: [UInt8])] = []
    guard let wal = source.wal else { return images }
    for frame in wal.committedFrames where wal.newestFrame[frame.page] != frame.offset {
      if !scan.map.isStructural(frame.page), let bytes = try wal.frameData(at: frame.offset) {
        images.append((frame.page, bytes))
      }
    }
    if let main = source.main {
      for page in wal.newestFrame.keys.sorted() where !scan.map.isStructural(page) {
        let bytes = try main.read(
          count: source.pageSize, at: Int64(page - 1) * Int64(source.pageSize))
        if !bytes.isEmpty { images.append((page, bytes)) }
      }
    }
    return images
  }

  // MARK: - One candidate record

  /// Tries a ZDITTO record whose header starts at `headerStart`; bytes before `lostBefore` are
  /// unknown (restored as described above). `payloadSize` is the cell's P when it was read.
  private func candidate(
    _ bytes: [UInt8], headerStart: Int, end: Int, lostBefore: Int, payloadSize: Int?,
    prefix: Int? = nil
  ) throws(FileAccessError) -> (row: DittoRow, end: Int)? {
    guard let spec, headerStart < end else { return nil }
    if headerStart >= lostBefore {
      // The header-size byte, when it survives, covers at least one byte per column.
      guard let size = bytes.byte(at: headerStart), Int(size) > spec.columns.count, size < 128
      else {
        return nil
      }
    }
    var position = headerStart + 1
    var bodySize = 0
    for (index, column) in spec.columns.enumerated() {
      let type: Int64
      if position < lostBefore {
        guard index == 0 else { return nil }
        type = 0
        position += 1
      } else {
        guard let parsed = bytes.varint(at: position), position + parsed.length <= end else {
          return nil
        }
        type = parsed.value
        position += parsed.length
      }
      guard Self.fits(type, column), let size = Record.valueSize(ofSerialType: type) else {
        return nil
      }
      bodySize += size
    }
    let headerSize = position - headerStart
    guard headerSize < 128 else { return nil }
    if headerStart >= lostBefore {
      guard bytes.byte(at: headerStart) == UInt8(headerSize) else { return nil }
    }
    let total = headerSize + bodySize
    if let payloadSize {
      guard payloadSize == total else { return nil }
    } else if let prefix {
      // The lost prefix held the payload-size varint and a rowid varint of at least one byte.
      let sizeLength = total < 128 ? 1 : total < 16384 ? 2 : 3
      guard prefix - sizeLength >= 1, prefix - sizeLength <= 9 else { return nil }
    }
    let local = TableLeafCell.localPayloadSize(total, usableSize: source.usableSize)
    let spills = local < total
    let cellEnd = headerStart + local + (spills ? 4 : 0)
    guard cellEnd <= end, var payload = bytes.bytes(at: headerStart, count: local),
      payload.count >= 2
    else {
      return nil
    }
    if headerStart < lostBefore { payload[0] = UInt8(headerSize) }
    if headerStart + 1 < lostBefore, payload.count > 1 { payload[1] = 0 }
    if spills {
      guard let first = bytes.uint32(at: headerStart + local), first != 0 else { return nil }
      let cell = TableLeafCell(
        rowid: 0, payloadSize: total, local: payload, overflowPage: Int(first), end: cellEnd)
      let map = scan.map
      guard
        let whole = try source.payload(
          of: cell, accept: { map.freePages.contains($0) && !map.isStructural($0) })
      else { return nil }
      payload = whole
    }
    guard let values = Record.decode(payload),
      scan.schema.matches(values, table: .ditto, strict: true),
      let row = scan.schema.dittoRow(key: 0, values: values, encoding: encoding),
      let text = row.text, !text.isEmpty
    else { return nil }
    return (row, cellEnd)
  }

  /// A quick test before a full reading: where they survive, the header-size byte is plausible
  /// and column 0's serial type is 0; column 1 (Z_ENT, when it is) has a one-byte integer type.
  @inline(__always)
  private func startsRecordHeader(_ bytes: [UInt8], at start: Int, lostBefore: Int) -> Bool {
    if columnOneIsEntity {
      guard let entity = bytes.byte(at: start + 2),
        (1...6).contains(entity) || entity == 8 || entity == 9
      else { return false }
    }
    if start + 1 >= lostBefore, bytes.byte(at: start + 1) != 0 { return false }
    if start >= lostBefore {
      guard let size = bytes.byte(at: start), size > 2, size < 128 else { return false }
    }
    return true
  }

  /// True when serial type `type` can hold a value of `column`.
  private static func fits(_ type: Int64, _ column: ColumnSpec) -> Bool {
    if column.isRowidAlias { return type == 0 }
    if column.name == "Z_ENT" { return (1...6).contains(type) || type == 8 || type == 9 }
    switch column.affinity {
    case .integer: return type == 0 || (1...6).contains(type) || type == 8 || type == 9
    case .text: return type == 0 || (type >= 13 && type % 2 == 1)
    case .blob: return type == 0 || (type >= 12 && type % 2 == 0)
    case .real, .numeric: return type <= 9 && type != 10 && type != 11
    }
  }
}
