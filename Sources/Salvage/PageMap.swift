import SafeFiles

// PAGES THAT HOLD NO LIVE ROWS: POINTER MAPS AND THE FREELIST
//
// POINTER-MAP PAGES (https://www.sqlite.org/fileformat2.html#pointer_map_or_ptrmap_pages) exist in
// auto-vacuum and incremental-vacuum databases; Core Data creates its stores with auto_vacuum = 2,
// so Ditto stores have them. With U the usable size and J = U / 5 entries per map page, map pages
// are pages 2, 2 + (J + 1), 2 + 2 (J + 1), …, each describing the J pages that follow it (a map
// page that would fall on the lock-byte page moves one page on). Each entry is 5 bytes:
//
//   OFFSET  SIZE  DESCRIPTION
//      0      1   type: 1 b-tree root, 2 freelist page, 3 first overflow page, 4 later overflow
//                 page, 5 non-root b-tree page
//      1      4   parent page number (0 for types 1 and 2)
//
// A map page's first byte may be 0x05, the type byte of a table interior page, so map pages are
// never decoded as b-tree pages. They are known to exist when (1) the newest valid header has a
// non-zero "largest root page" (offset 52), or, when no header is valid, (2) page 2 reads as a map:
// at least 95% of its first entries (for pages that exist) have a type from 1 to 5 and a parent
// page in range.
//
// FREELIST (https://www.sqlite.org/fileformat2.html#the_freelist): header offset 32 names the first
// trunk page. A trunk page holds a 4-byte next-trunk page number, a 4-byte count N, then N 4-byte
// leaf page numbers. Freelist leaf pages keep their old contents (unless secure_delete zeroed
// them); trunk pages keep theirs past the numbers. The walk stops at a page out of range, a page
// seen before (a cycle), a count that does not fit the page, or after as many pages as the file
// has. Pages whose map entry says "freelist page" are free too, which finds the free pages even
// when the header is lost. Rows on free pages are deleted rows, never live ones.

/// Which pages are pointer maps, which are free, and what the pointer map says about the rest.
struct PageMap {
  /// Pages per pointer-map group (a map page and the J pages it describes); 0 without maps.
  private let mapGroupSize: Int
  /// Map entry type per page, when the file has pointer maps and the entry was readable.
  private(set) var mapTypes: [Int: UInt8] = [:]
  /// Freelist trunk and leaf pages, from the freelist walk and the pointer map.
  private(set) var freePages = Set<Int>()
  /// The page holding the lock byte at offset 2^30: never a database page.
  let lockBytePage: Int

  /// Reads the pointer maps and the freelist of `source`.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  init(source: PageSource) throws(SafeFiles.FileAccessError) {
    let usable = source.usableSize
    lockBytePage = (1 << 30) / source.pageSize + 1
    let entriesPerMap = usable / 5
    let count = source.pageCount
    let hasMaps: Bool
    if let header = source.header {
      hasMaps = header.hasPointerMap
    } else {
      hasMaps = try Self.looksLikePointerMap(source, entriesPerMap: entriesPerMap)
    }
    mapGroupSize = hasMaps && entriesPerMap > 0 ? entriesPerMap + 1 : 0
    // Only map pages the files hold are read: a page count claimed by a header or a frame never
    // sets the work.
    for mapPage in source.presentPages where isPointerMapPage(mapPage) {
      guard let bytes = try source.page(mapPage) else { continue }
      for index in 0..<entriesPerMap {
        let described = mapPage + 1 + index
        guard described <= count, let type = bytes.byte(at: 5 * index) else { break }
        if (1...5).contains(type) { mapTypes[described] = type }
        if type == 2 { freePages.insert(described) }
      }
    }
    if let header = source.header {
      try walkFreelist(source, from: header.firstFreelistTrunk)
    }
  }

  /// True for pages that are never b-tree pages (pointer maps, the lock-byte page).
  func isStructural(_ page: Int) -> Bool {
    isPointerMapPage(page) || page == lockBytePage
  }

  /// True when `page` is a pointer-map page, by SQLite's own rule (`ptrmapPageno`): the first page
  /// of its group, moved one page on when that is the lock-byte page.
  private func isPointerMapPage(_ page: Int) -> Bool {
    guard mapGroupSize > 0, page >= 2 else { return false }
    var first = (page - 2) / mapGroupSize * mapGroupSize + 2
    if first == lockBytePage { first += 1 }
    return page == first
  }

  // MARK: - Freelist

  private mutating func walkFreelist(_ source: PageSource, from first: Int)
    throws(SafeFiles.FileAccessError)
  {
    let count = source.pageCount
    let maxLeaves = source.usableSize / 4 - 2
    var trunk = first
    var seen = Set<Int>()
    while trunk >= 2, trunk <= count, seen.insert(trunk).inserted, seen.count <= count {
      freePages.insert(trunk)
      guard let bytes = try source.page(trunk), let next = bytes.uint32(at: 0),
        let leaves = bytes.uint32(at: 4), Int(leaves) <= maxLeaves
      else { return }
      for index in 0..<Int(leaves) {
        guard let leaf = bytes.uint32(at: 8 + 4 * index) else { break }
        if leaf >= 2, Int(leaf) <= count { freePages.insert(Int(leaf)) }
      }
      trunk = Int(next)
    }
  }

  // MARK: - Detecting a pointer map without a header

  private static func looksLikePointerMap(_ source: PageSource, entriesPerMap: Int)
    throws(SafeFiles.FileAccessError) -> Bool
  {
    let described = min(entriesPerMap, source.pageCount - 2)
    guard described > 0, let bytes = try source.page(2) else { return false }
    var valid = 0
    for index in 0..<described {
      guard let type = bytes.byte(at: 5 * index), let parent = bytes.uint32(at: 5 * index + 1)
      else { break }
      let parentOK = (type == 1 || type == 2) ? parent == 0 : Int(parent) <= source.pageCount
      if (1...5).contains(type), parentOK { valid += 1 }
    }
    return valid * 100 >= described * 95
  }
}
