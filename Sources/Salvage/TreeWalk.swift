import SafeFiles

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
