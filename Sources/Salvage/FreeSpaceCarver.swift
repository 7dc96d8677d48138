import LegacyStore
import SafeFiles

// DELETED ROWS: CARVING FREE SPACE
//
// A deleted row's bytes stay in the file until something overwrites them (unless the database
// runs with secure_delete, which zeroes them). Salvage looks in four places:
//
//   PLACE                                 WHAT SURVIVES
//   free pages (freelist trunk + leaves)  whole old cells (a trunk page loses its first bytes to
//                                         the page list; its cells sit at the end of the page)
//   freeblocks of live ZDITTO leaves      the freed cell, except its first 4 bytes, which now
//                                         hold the freeblock's next-pointer and size
//   unallocated space of those leaves     whole old cells
//   superseded page images                older WAL frames, and main-file pages the WAL replaces
//
// INTACT CELL: at offset o, a payload-size varint P, a rowid varint, then a record header. The
// cell is accepted if and only if (1) the record header's serial types give exactly a ZDITTO
// shape (DittoSchema, strict), (2) header plus body is exactly P, (3) the local part (and the
// overflow page number) fits the region, (4) an overflow chain, if any, runs through free pages
// only and ends exactly, (5) the record decodes and matches ZDITTO strictly (Z_ENT included),
// and (6) its text is valid and not empty. The scan then resumes after the cell.
//
// FREEBLOCK HEAD: the first 4 bytes are lost. With the ZDITTO key in column 0 the lost bytes can
// only be the payload-size varint, the rowid varint, the header-size byte and column 0's serial
// type (0: the INTEGER PRIMARY KEY is stored as NULL). For each prefix length p from 2 to 6
// (payload-size plus rowid varints), the header is assumed to start at p, the lost header bytes
// are restored (size = computed header length, column 0 = 0), and the record is checked as above.
// A hypothesis is kept only if exactly one survives, or if its end meets the freeblock's end or
// an intact cell; ambiguous heads are dropped (a wrong text is worse than none). The rowid of such
// a row is lost.
//
// A found row is reported only if its key (when known) is not a live ditto's and its text is not
// a live ditto's text; each text is reported once.

/// Finds deleted ZDITTO rows in free space.
struct FreeSpaceCarver {
  let source: PageSource
  let scan: PageScan
  private let spec: TableSpec?
  private let encoding: TextEncoding

  init(source: PageSource, scan: PageScan) {
    self.source = source
    self.scan = scan
    self.spec = scan.schema.specs[.ditto]
    self.encoding = source.encoding
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
    let usable = source.usableSize
    for number in scan.map.freePages.sorted() {
      guard let bytes = try source.page(number) else { continue }
      try scanIntact(bytes, from: 0, to: min(usable, bytes.count), into: &found)
    }
    for number in scan.dittoLeafPages {
      guard let bytes = try source.page(number),
        let page = BTreePage(bytes: bytes, number: number, usableSize: usable)
      else { continue }
      try scanIntact(
        bytes, from: page.cellPointerEnd, to: min(page.contentStart, bytes.count), into: &found)
      for block in page.freeblocks {
        try carveFreeblock(bytes, offset: block.offset, size: block.size, into: &found)
      }
    }
    try carveSupersededImages(into: &found)
    return found
  }

  // MARK: - Regions

  private func scanIntact(_ bytes: [UInt8], from start: Int, to end: Int, into found: inout [Found])
    throws(FileAccessError)
  {
    var offset = max(start, 0)
    while offset < end - 3 {
      if let size = bytes.varint(at: offset), let key = bytes.varint(at: offset + size.length),
        size.value > 0, size.value <= Int64(TableLeafCell.maximumPayload),
        let hit = try candidate(
          bytes, headerStart: offset + size.length + key.length, end: end, lostBefore: offset,
          payloadSize: Int(size.value))
      {
        found.append(Found(key: key.value, row: hit.row))
        offset = hit.end
        continue
      }
      offset += 1
    }
  }

  private func carveFreeblock(_ bytes: [UInt8], offset: Int, size: Int, into found: inout [Found])
    throws(FileAccessError)
  {
    let end = min(offset + size, bytes.count)
    var hits: [(row: DittoRow, end: Int)] = []
    for prefix in 2...6 {
      if let hit = try candidate(
        bytes, headerStart: offset + prefix, end: end, lostBefore: offset + 4, payloadSize: nil,
        prefix: prefix)
      {
        hits.append(hit)
      }
    }
    var resume = offset + 4
    let distinct = Set(hits.map { $0.row.text ?? "" })
    var chosen: (row: DittoRow, end: Int)?
    if distinct.count == 1 {
      chosen = hits.first
    } else {
      let aligned = hits.filter { $0.end == end }
      if Set(aligned.map { $0.row.text ?? "" }).count == 1 { chosen = aligned.first }
    }
    if let chosen {
      found.append(Found(key: nil, row: chosen.row))
      resume = chosen.end
    }
    try scanIntact(bytes, from: resume, to: end, into: &found)
  }

  private func carveSupersededImages(into found: inout [Found]) throws(FileAccessError) {
    var images: [(page: Int, bytes: [UInt8])] = []
    if let wal = source.wal {
      for frame in wal.committedFrames where wal.newestFrame[frame.page] != frame.offset {
        if let bytes = try wal.frameData(at: frame.offset) { images.append((frame.page, bytes)) }
      }
      if let main = source.main {
        for page in wal.newestFrame.keys.sorted() {
          let bytes = try main.read(
            count: source.pageSize, at: Int64(page - 1) * Int64(source.pageSize))
          if !bytes.isEmpty { images.append((page, bytes)) }
        }
      }
    }
    for image in images {
      guard !scan.map.isStructural(image.page),
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
    }
  }

  // MARK: - One candidate record

  /// Tries a ZDITTO record whose header starts at `headerStart`; bytes before `lostBefore` are
  /// unknown (restored as described above). `payloadSize` is the cell's P when it was read.
  private func candidate(
    _ bytes: [UInt8], headerStart: Int, end: Int, lostBefore: Int, payloadSize: Int?,
    prefix: Int? = nil
  ) throws(FileAccessError) -> (row: DittoRow, end: Int)? {
    guard let spec, headerStart < end else { return nil }
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
    guard cellEnd <= end, var payload = bytes.bytes(at: headerStart, count: local) else {
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
