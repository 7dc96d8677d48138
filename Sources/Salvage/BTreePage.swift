import SafeFiles

// B-TREE PAGE (https://www.sqlite.org/fileformat2.html#b_tree_pages)
//
// Every b-tree page starts with a page header; on page 1 it follows the 100-byte database header.
// The cell pointer array follows the page header; cell contents fill the page from the end
// backwards; unused space lies between the two, and freed cells inside the content area form a
// chain of freeblocks.
//
//   OFFSET  SIZE  DESCRIPTION
//      0      1   page type: 0x02 index interior, 0x05 table interior, 0x0A index leaf, 0x0D table leaf
//      1      2   offset of the first freeblock, 0 when there is none
//      3      2   number of cells on the page
//      5      2   start of the cell content area; 0 means 65536
//      7      1   number of fragmented free bytes in the content area
//      8      4   right-most child page number (interior pages only)
//
//   The page header is 8 bytes on leaf pages and 12 on interior pages. The cell pointer array has
//   one 2-byte big-endian offset per cell, in key order, each from the start of the page.
//
// FREEBLOCK: 2 bytes offset of the next freeblock (0 at the end of the chain, always ascending),
//   2 bytes size of this freeblock including these 4 bytes; the rest is the freed cell's old bytes.
//
// TABLE CELLS
//
//   Table leaf (0x0D):     varint payload size P, varint rowid, the first L bytes of the payload,
//                          then a 4-byte first-overflow page number when L < P.
//   Table interior (0x05): 4-byte left child page number, varint integer key.
//
//   With U the usable page size and X = U - 35: when P <= X the whole payload is on the page (L = P).
//   Otherwise, with M = ((U - 12) * 32 / 255) - 23 and K = M + ((P - M) % (U - 4)),
//   L = K when K <= X, else L = M.
//
// A page is taken as a b-tree page if and only if (1) its type byte is one of the four values,
// (2) its page header and cell pointer array fit inside the usable size, and (3) its cell content
// area starts at or after the end of the cell pointer array and no further than the usable size.
// Each cell is then checked on its own: a pointer outside the content area, a varint that runs
// past the page or a payload that does not fit makes that one cell undecodable; its neighbours are
// still read. A page may be shorter than the page size (the last page of a truncated file): bytes
// past its end count as missing, never as zeros.

/// The page header and cell pointers of one b-tree page, over the page's bytes.
struct BTreePage {
  /// The kinds of b-tree page.
  enum Kind: UInt8 {
    case indexInterior = 0x02
    case tableInterior = 0x05
    case indexLeaf = 0x0A
    case tableLeaf = 0x0D

    var isInterior: Bool { self == .indexInterior || self == .tableInterior }
  }

  /// The page's bytes (may be shorter than the page size).
  let bytes: [UInt8]
  /// The page's number.
  let number: Int
  /// Where the page header starts: 100 on page 1, else 0.
  let headerOffset: Int
  /// Usable bytes per page.
  let usableSize: Int
  let kind: Kind
  /// Offset of the first freeblock, 0 when none.
  let firstFreeblock: Int
  /// Number of cells the header claims.
  let cellCount: Int
  /// Start of the cell content area.
  let contentStart: Int
  /// Right-most child (interior pages).
  let rightChild: Int?

  /// Parses the page header; nil when the bytes are not a b-tree page (validity conditions above).
  init?(bytes: [UInt8], number: Int, usableSize: Int) {
    let headerOffset = number == 1 ? 100 : 0
    guard let typeByte = bytes.byte(at: headerOffset), let kind = Kind(rawValue: typeByte),
      let freeblock = bytes.uint16(at: headerOffset + 1),
      let cells = bytes.uint16(at: headerOffset + 3),
      let rawStart = bytes.uint16(at: headerOffset + 5)
    else { return nil }
    let headerSize = kind.isInterior ? 12 : 8
    let pointerEnd = headerOffset + headerSize + 2 * cells
    let start = rawStart == 0 ? 65536 : rawStart
    guard pointerEnd <= usableSize, start >= pointerEnd, start <= usableSize else { return nil }
    if kind.isInterior {
      guard let right = bytes.uint32(at: headerOffset + 8) else { return nil }
      rightChild = Int(right)
    } else {
      rightChild = nil
    }
    self.bytes = bytes
    self.number = number
    self.headerOffset = headerOffset
    self.usableSize = usableSize
    self.kind = kind
    self.firstFreeblock = freeblock
    self.cellCount = cells
    self.contentStart = start
  }

  /// End of the cell pointer array (first byte after it).
  var cellPointerEnd: Int { headerOffset + (kind.isInterior ? 12 : 8) + 2 * cellCount }

  /// Offsets of the cells whose pointers lie inside the content area, in key order.
  var cellOffsets: [Int] {
    var offsets: [Int] = []
    offsets.reserveCapacity(cellCount)
    let base = headerOffset + (kind.isInterior ? 12 : 8)
    for index in 0..<cellCount {
      guard let offset = bytes.uint16(at: base + 2 * index) else { break }
      if offset >= contentStart, offset < usableSize, offset < bytes.count {
        offsets.append(offset)
      }
    }
    return offsets
  }

  /// Child page numbers of a table interior page: each cell's left child, then the right-most.
  var tableChildren: [Int] {
    guard kind == .tableInterior else { return [] }
    var children = cellOffsets.compactMap { offset in bytes.uint32(at: offset).map { Int($0) } }
    if let rightChild { children.append(rightChild) }
    return children
  }

  /// The freeblocks of the content area, in chain order; a chain that loops, descends or leaves
  /// the page ends where it goes wrong.
  var freeblocks: [(offset: Int, size: Int)] {
    var blocks: [(offset: Int, size: Int)] = []
    var offset = firstFreeblock
    var previousEnd = contentStart
    while offset != 0, offset >= previousEnd, offset + 4 <= min(usableSize, bytes.count) {
      guard let next = bytes.uint16(at: offset), let size = bytes.uint16(at: offset + 2),
        size >= 4, offset + size <= usableSize
      else { break }
      blocks.append((offset, size))
      previousEnd = offset + size
      offset = next
      if blocks.count > usableSize / 4 { break }
    }
    return blocks
  }

  /// Decodes the table-leaf cell at `offset`; nil when it does not fit the page.
  func tableLeafCell(at offset: Int) -> TableLeafCell? {
    TableLeafCell(
      in: bytes, at: offset, limit: min(usableSize, bytes.count), usableSize: usableSize)
  }
}

/// One table-leaf cell: its rowid, payload size and the part of the payload stored on the page.
struct TableLeafCell {
  /// The rowid (for a table whose primary key is an INTEGER PRIMARY KEY: that key).
  let rowid: Int64
  /// Total payload size P in bytes.
  let payloadSize: Int
  /// The first L bytes of the payload.
  let local: [UInt8]
  /// First overflow page when the payload spills, else nil.
  let overflowPage: Int?
  /// Offset just past the cell.
  let end: Int

  /// The largest payload salvage accepts for one row (a ditto is a few KB; SQLite's own limit on
  /// our connections is 64 MiB).
  static let maximumPayload = 64 << 20

  /// A cell from its parts (a carved cell whose first bytes were restored).
  init(rowid: Int64, payloadSize: Int, local: [UInt8], overflowPage: Int?, end: Int) {
    self.rowid = rowid
    self.payloadSize = payloadSize
    self.local = local
    self.overflowPage = overflowPage
    self.end = end
  }

  /// Decodes the cell at `offset`, using bytes before `limit` only.
  init?(in bytes: [UInt8], at offset: Int, limit: Int, usableSize: Int) {
    guard let size = bytes.varint(at: offset), size.value >= 0,
      size.value <= Int64(Self.maximumPayload),
      let key = bytes.varint(at: offset + size.length)
    else { return nil }
    let payload = Int(size.value)
    let start = offset + size.length + key.length
    let localSize = Self.localPayloadSize(payload, usableSize: usableSize)
    let spills = localSize < payload
    let end = start + localSize + (spills ? 4 : 0)
    guard end <= limit, let local = bytes.bytes(at: start, count: localSize) else { return nil }
    if spills {
      guard let page = bytes.uint32(at: start + localSize), page != 0 else { return nil }
      overflowPage = Int(page)
    } else {
      overflowPage = nil
    }
    self.rowid = key.value
    self.payloadSize = payload
    self.local = local
    self.end = end
  }

  /// The number of payload bytes a table leaf keeps on the page (L above).
  static func localPayloadSize(_ payload: Int, usableSize: Int) -> Int {
    let maxLocal = usableSize - 35
    guard payload > maxLocal else { return payload }
    let minLocal = ((usableSize - 12) * 32 / 255) - 23
    let surplus = minLocal + ((payload - minLocal) % (usableSize - 4))
    return surplus <= maxLocal ? surplus : minLocal
  }
}

// WALKING A TABLE B-TREE
//
// From a root page, interior pages (0x05) lead to their children: each cell's left child, then
// the right-most child. Leaves (0x0D) hold the rows. The walk is breadth-first and defensive:
//   1. a page is queued at most once (a damaged child pointer cannot make a cycle, and the
//      queue never holds more pages than the database has),
//   2. pointer-map pages, the lock-byte page and page numbers outside 1...page count are skipped,
//   3. a page that is not a table b-tree page ends that branch (its rows may still be found by
//      the full page scan, as orphans),

/// Finds the leaves of a table b-tree.
enum TreeWalk {
  /// The table-leaf pages reachable from `root`, reading interior pages from `source`.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  static func leafPages(root: Int, source: PageSource, map: PageMap) throws(FileAccessError)
    -> [Int]
  {
    try reachable(from: root, pageCount: source.pageCount, map: map) {
      number throws(FileAccessError) in
      guard let bytes = try source.page(number),
        let page = BTreePage(bytes: bytes, number: number, usableSize: source.usableSize)
      else { return nil }
      switch page.kind {
      case .tableLeaf: return .leaf
      case .tableInterior: return .interior(page.tableChildren)
      case .indexLeaf, .indexInterior: return nil
      }
    }.leaves
  }

  /// What a visited page turned out to be.
  enum Node {
    case leaf
    case interior([Int])
  }

  /// Walks from `root` with `node` telling what each page is (nil: not a table b-tree page).
  static func reachable<Failure: Error>(
    from root: Int, pageCount: Int, map: PageMap, node: (Int) throws(Failure) -> Node?
  ) throws(Failure) -> (leaves: [Int], interiors: [Int]) {
    var leaves: [Int] = []
    var interiors: [Int] = []
    // Each page enters the queue at most once, so the queue never outgrows the page count.
    var queued: Set<Int> = [root]
    var queue = [root]
    var head = 0
    while head < queue.count {
      let number = queue[head]
      head += 1
      guard number >= 1, number <= pageCount, !map.isStructural(number) else { continue }
      switch try node(number) {
      case .leaf: leaves.append(number)
      case .interior(let children):
        interiors.append(number)
        for child in children
        where child >= 1 && child <= pageCount && queued.insert(child).inserted {
          queue.append(child)
        }
      case nil: continue
      }
    }
    return (leaves, interiors)
  }
}
