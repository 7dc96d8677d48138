import SafeFiles

// THE FULL PAGE SCAN: LIVE ROWS FROM EVERY DECODABLE PAGE
//
// Salvage does not trust any single structure of the file. It reads every page once, in order,
// and keeps what decodes:
//
//   STEP  WHAT                                            WHY
//   1     pointer maps and freelist (PageMap)             their pages hold no live rows
//   2     sqlite_master from page 1 (SchemaCatalog)       root pages and column order
//   3     Z_PRIMARYKEY rows                               entity numbers for the Z_ENT check
//   4     every other page: interior pages give their     one read per page; leaves whose cells
//         children, table leaves their records            decode into records of a Ditto shape
//   5     walk each table from its root over step 4's     leaves a table's own b-tree reaches
//         interior pages                                  belong to it (loose match)
//   6     leaves no b-tree reaches and not free           orphans: a damaged root or interior page
//                                                         lost their parent; they go to the table
//                                                         most of their records match (strictly)
//
// A key seen twice keeps its first reading, reached leaves before orphans. A row whose overflow
// chain is broken, or whose text is not valid text, is dropped and counted, never returned cut or
// repaired. Free pages are left for the deleted-row carver.

/// What the full page scan found.
struct PageScan {
  /// Live rows decoded from pages.
  var rows = DittoRows()
  /// Pages read per source (pointer maps excluded).
  var pagesRead: [PageSource.Origin: Int] = [:]
  /// Ditto rows decoded per source.
  var dittoRowsFound: [PageSource.Origin: Int] = [:]
  /// Pages that parsed as b-tree pages.
  var btreePages = 0
  /// Leaves that no recovered b-tree reached and that were assigned by their records' shape.
  var orphanLeaves = 0
  /// Rows dropped: text not valid, or an overflow chain broken.
  var droppedRows = 0
  /// The schema used.
  var schema: DittoSchema
  /// The recovered catalog.
  var catalog: SchemaCatalog
  /// Pointer maps and free pages.
  var map: PageMap
  /// True when some table of the catalog is a Ditto table.
  var catalogHasDittoTables: Bool {
    DittoTable.allCases.contains { catalog.tables[$0.rawValue] != nil }
  }

  /// Scans every page of `source`.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  /// - Parameter progress: told the pages scanned and the pages held, every 64 pages.
  init(source: PageSource, progress: ((Int, Int) -> Void)? = nil) throws(FileAccessError) {
    map = try PageMap(source: source)
    catalog = try SchemaCatalog.read(source: source, map: map)
    schema = DittoSchema(catalog: catalog)
    schema.entityNumbers = try Self.entityNumbers(source: source, map: map, catalog: catalog)

    // Step 4: one pass over every page.
    var children: [Int: [Int]] = [:]
    var leaves = Set<Int>()
    var records: [Int: [(rowid: Int64, values: [RecordValue])]] = [:]
    let map = self.map
    for (index, number) in source.presentPages.enumerated() where !map.isStructural(number) {
      if index % 64 == 0 { progress?(index, source.presentPages.count) }
      guard let origin = source.origin(of: number), let bytes = try source.page(number) else {
        continue
      }
      pagesRead[origin, default: 0] += 1
      guard !map.freePages.contains(number),
        let page = BTreePage(bytes: bytes, number: number, usableSize: source.usableSize)
      else { continue }
      btreePages += 1
      switch page.kind {
      case .tableInterior: children[number] = page.tableChildren
      case .tableLeaf:
        leaves.insert(number)
        var found: [(rowid: Int64, values: [RecordValue])] = []
        for offset in page.cellOffsets {
          guard let cell = page.tableLeafCell(at: offset) else { continue }
          guard
            let payload = try source.payload(
              of: cell, accept: { !map.isStructural($0) && !map.freePages.contains($0) }),
            let values = Record.decode(payload)
          else {
            if cell.overflowPage != nil { droppedRows += 1 }
            continue
          }
          if DittoTable.allCases.contains(where: {
            schema.matches(values, table: $0, strict: false)
          }) {
            found.append((cell.rowid, values))
          }
        }
        if !found.isEmpty { records[number] = found }
      case .indexLeaf, .indexInterior: continue
      }
    }

    // Step 5: leaves each table's b-tree reaches.
    var owner: [Int: String] = [:]
    for (name, table) in catalog.tables.sorted(by: { $0.key < $1.key }) {
      guard let root = table.rootPage else { continue }
      let walk = TreeWalk.reachable(from: root, pageCount: source.pageCount, map: map) { number in
        if let list = children[number] { return .interior(list) }
        return leaves.contains(number) ? .leaf : nil
      }
      for leaf in walk.leaves where owner[leaf] == nil { owner[leaf] = name }
    }
    for table in DittoTable.allCases {
      for (page, list) in records.sorted(by: { $0.key < $1.key })
      where owner[page] == table.rawValue {
        let origin = source.origin(of: page) ?? .main
        for record in list where schema.matches(record.values, table: table, strict: false) {
          add(record, to: table, origin: origin, page: page, encoding: source.encoding)
        }
      }
    }

    // Step 6: orphan leaves, by the shape of their records.
    for (page, list) in records.sorted(by: { $0.key < $1.key }) where owner[page] == nil {
      var votes: [DittoTable: Int] = [:]
      for record in list {
        if let table = schema.classify(record.values) { votes[table, default: 0] += 1 }
      }
      guard
        let winner = votes.max(by: {
          $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue)
        })?.key
      else { continue }
      orphanLeaves += 1
      let origin = source.origin(of: page) ?? .main
      for record in list where schema.classify(record.values) == winner {
        add(record, to: winner, origin: origin, page: page, encoding: source.encoding)
      }
    }
  }

  private mutating func add(
    _ record: (rowid: Int64, values: [RecordValue]), to table: DittoTable,
    origin: PageSource.Origin, page: Int, encoding: TextEncoding
  ) {
    let key = record.rowid
    switch table {
    case .profile:
      if rows.profiles[key] == nil {
        rows.profiles[key] = schema.profileRow(key: key, values: record.values)
      }
    case .category:
      if rows.categories[key] == nil {
        rows.categories[key] = schema.categoryRow(
          key: key, values: record.values, encoding: encoding)
      }
    case .ditto:
      guard rows.dittos[key] == nil else { return }
      guard let row = schema.dittoRow(key: key, values: record.values, encoding: encoding) else {
        droppedRows += 1
        return
      }
      rows.dittos[key] = row
      dittoRowsFound[origin, default: 0] += 1
    }
  }

  /// Entity numbers by Ditto table, from the Z_PRIMARYKEY rows (Z_ENT is their rowid, Z_NAME the name).
  private static func entityNumbers(source: PageSource, map: PageMap, catalog: SchemaCatalog)
    throws(FileAccessError) -> [DittoTable: Int64]
  {
    guard let table = catalog.tables["Z_PRIMARYKEY"], let root = table.rootPage,
      let nameIndex = table.index(of: "Z_NAME")
    else { return [:] }
    var numbers: [DittoTable: Int64] = [:]
    for leaf in try TreeWalk.leafPages(root: root, source: source, map: map) {
      guard let bytes = try source.page(leaf),
        let page = BTreePage(bytes: bytes, number: leaf, usableSize: source.usableSize)
      else { continue }
      for offset in page.cellOffsets {
        guard let cell = page.tableLeafCell(at: offset), cell.overflowPage == nil,
          let values = Record.decode(cell.local), nameIndex < values.count,
          case .text(let bytes) = values[nameIndex],
          let name = decodeText(bytes, encoding: source.encoding),
          let entity = DittoTable.allCases.first(where: { $0.entityName == name })
        else { continue }
        numbers[entity] = cell.rowid
      }
    }
    return numbers
  }
}
