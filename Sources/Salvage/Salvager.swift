import LegacyStore
import SafeFiles

// SALVAGE: WHAT RUNS, IN ORDER
//
//   1. Paths: PATH ending in "-wal" names the WAL and the main file is PATH without the suffix;
//      any other PATH is the main file and PATH + "-wal" the WAL.
//   2. Copy what exists into a private folder (SalvageSnapshot). Originals are never opened again.
//   3. Scan the copied WAL (WALFile): frames valid by salt and cumulative checksum, up to the last
//      commit frame.
//   4. Decode every page of the main copy overlaid with the WAL's newest committed frames
//      (PageSource, PageScan).
//   5. When the main copy starts with an SQLite header, let SQLite read the Ditto tables too
//      (SQLiteReading). A table SQLite read to its end is taken as SQLite read it; a table it could
//      not finish is SQLite's rows plus the decoded rows whose keys it did not reach.
//   6. Order the rows as the reader does (LibraryAssembler).
//   7. With includeDeleted, carve free space (FreeSpaceCarver); found rows are listed apart.
//
// Nothing decodable is an error, never an empty library:
//   - no main bytes and no committed WAL frame            → .notADatabase (.notFound when no file)
//   - no page parses as a b-tree page and SQLite cannot    → .notADatabase
//     open the store
//   - pages decode but neither the schema nor any record   → .notADittoStore
//     shows a Ditto table, and SQLite finds none
// A Ditto store whose tables were found but hold no dittos is returned with an empty library.

/// Recovers dittos from stores SQLite can no longer open, orphaned `-wal` files and free space.
package enum Salvager {
  /// Salvages the store at `path`.
  ///
  /// `path` is a store file (its `-wal` and `-shm` beside it are used) or a lone `-wal` file;
  /// a missing or zero-length main file with a `-wal` beside it works too. The originals are
  /// copied first and never written.
  ///
  /// - Throws: ``LegacyStoreError`` only when nothing at all could be decoded (see above).
  package static func salvage(path: String, options: SalvageOptions) throws(LegacyStoreError)
    -> SalvageResult
  {
    let (mainPath, walPath) = paths(for: path)
    let snapshot = try SalvageSnapshot(mainPath: mainPath, walPath: walPath)
    defer { snapshot.remove() }
    do {
      return try salvage(snapshot: snapshot, displayPath: path, options: options)
    } catch let error as LegacyStoreError {
      throw error
    } catch let error as FileAccessError {
      throw .ioError(file: path, reason: "\(error.operation): \(error.reason)")
    } catch let error as SafeFileError {
      throw LegacyStoreError.from(error, file: path)
    } catch {
      throw .unreadable(file: path, reason: "\(error)")
    }
  }

  /// True when `walPath` is a regular file holding at least one valid committed frame.
  ///
  /// Cheap: reads the header and validates frames up to the first commit frame.
  package static func hasValidFrames(walPath: String) -> Bool {
    do {
      let file = try ReadOnlyFile(path: walPath)
      guard let wal = try WALFile(file: file, stopAtFirstCommit: true) else { return false }
      return wal.databasePages > 0
    } catch {
      return false
    }
  }

  /// Dittos of the store at `path` (a store or its `-wal`) that only `-wal` frames no commit covers
  /// hold: what SQLite never shows. 0 when the `-wal` has no such frame (cheap then: its frames'
  /// headers are read), or when nothing in them decodes.
  package static func neverCommittedDittos(path: String) -> Int {
    guard hasFramesNeverCommitted(path: path) else { return 0 }
    do {
      return try salvage(path: path, options: SalvageOptions()).neverCommitted
    } catch {
      return 0
    }
  }

  /// True when the `-wal` of the store at `path` (a store or its `-wal`) holds valid frames no
  /// commit covers (after its last commit, or past a broken checksum chain). Reads the frames'
  /// headers only.
  package static func hasFramesNeverCommitted(path: String) -> Bool {
    do {
      let file = try ReadOnlyFile(path: paths(for: path).wal)
      guard let wal = try WALFile(file: file) else { return false }
      return !wal.neverCommitted.isEmpty
    } catch {
      return false
    }
  }

  /// The main file and WAL paths for `path`.
  static func paths(for path: String) -> (main: String, wal: String) {
    if path.hasSuffix("-wal"), path.count > 4 {
      return (String(path.dropLast(4)), path)
    }
    return (path, path + "-wal")
  }

  // MARK: - The run

  private static func salvage(
    snapshot: SalvageSnapshot, displayPath: String, options: SalvageOptions
  )
    throws -> SalvageResult
  {
    var notes: [String] = []
    let main = try snapshot.mainCopy.map { path throws(SafeFileError) in
      try ReadOnlyFile(path: path)
    }
    var wal: WALFile?
    if let walCopy = snapshot.walCopy {
      let file = try ReadOnlyFile(path: walCopy)
      if file.size == 0 { notes.append("the -wal is empty") }
      wal = try WALFile(file: file)
      if file.size > 0 { notes.append(contentsOf: walNotes(wal, size: file.size)) }
    }
    let neverCommitted = try NeverCommittedPass(main: main, wal: wal)
    /// When the committed content holds no Ditto store: what frames never committed hold, if any
    /// ditto, else `error`.
    func onlyNeverCommitted(else error: LegacyStoreError) throws -> SalvageResult {
      guard let neverCommitted, let found = try neverCommitted.read(committed: LegacyLibrary()),
        found.library.dittoCount > 0
      else { throw error }
      notes.append(
        "\(found.library.dittoCount) dittos rebuilt from -wal frames never committed (the committed content holds none)"
      )
      return SalvageResult(
        library: found.library, sources: [found.source], deleted: [], usedSQLite: false,
        notes: notes, neverCommitted: found.library.dittoCount, committedLibrary: LegacyLibrary())
    }
    guard let source = try PageSource(main: main, wal: wal) else {
      let what = main == nil ? "no main file" : "an empty main file"
      return try onlyNeverCommitted(
        else: .notADatabase(file: displayPath, reason: "\(what) and no committed frame in the -wal")
      )
    }
    notes.append(contentsOf: source.notes)
    let scan = try PageScan(source: source, progress: options.onPages)

    var reading = SQLiteReading()
    if let mainCopy = snapshot.mainCopy, source.mainHeaderIsValid {
      reading = SQLiteReading.read(path: mainCopy)
      notes.append(contentsOf: reading.problems)
    }
    let usedSQLite = reading.isOpened && !reading.foundTables.isEmpty
    guard scan.btreePages > 0 || reading.isOpened else {
      return try onlyNeverCommitted(
        else: .notADatabase(file: displayPath, reason: "no page decodes as a b-tree page"))
    }
    let decodedAny =
      !scan.rows.dittos.isEmpty || !scan.rows.categories.isEmpty || !scan.rows.profiles.isEmpty
    guard scan.catalogHasDittoTables || decodedAny || !reading.foundTables.isEmpty else {
      return try onlyNeverCommitted(
        else: .notADittoStore(file: displayPath, missing: ["table ZDITTO"]))
    }

    let rows = merge(reading: reading, decoded: scan.rows, usedSQLite: usedSQLite, notes: &notes)
    var library = LibraryAssembler.assemble(rows)
    let committedLibrary = library
    notes.append(contentsOf: scanNotes(scan, source: source))
    var neverCommittedSource: SalvageSource?
    var neverCommittedDittos = 0
    if let neverCommitted, let found = try neverCommitted.read(committed: library) {
      neverCommittedSource = found.source
      neverCommittedDittos = found.library.dittoCount
      library = NeverCommittedPass.appending(found.library, to: library)
      if neverCommittedDittos > 0 {
        notes.append(
          "\(neverCommittedDittos) dittos found only in -wal frames never committed (added after the committed ones)"
        )
      }
    }

    var sources: [SalvageSource] = []
    if let main, main.size > 0 {
      sources.append(
        SalvageSource(
          kind: .main, pages: scan.pagesRead[.main] ?? 0, rows: scan.dittoRowsFound[.main] ?? 0))
    }
    if source.wal != nil {
      sources.append(
        SalvageSource(
          kind: .wal, pages: scan.pagesRead[.wal] ?? 0, rows: scan.dittoRowsFound[.wal] ?? 0))
    }
    if let neverCommittedSource { sources.append(neverCommittedSource) }
    var deleted: [LegacyDitto] = []
    if options.includeDeleted {
      deleted = try deletedDittos(source: source, scan: scan, live: rows)
      sources.append(
        SalvageSource(kind: .freelist, pages: scan.map.freePages.count, rows: deleted.count))
    }
    return SalvageResult(
      library: library, sources: sources, deleted: deleted, usedSQLite: usedSQLite, notes: notes,
      neverCommitted: neverCommittedDittos, committedLibrary: committedLibrary)
  }

  /// SQLite's rows per table; the decoded rows SQLite did not reach for tables it could not finish.
  private static func merge(
    reading: SQLiteReading, decoded: DittoRows, usedSQLite: Bool, notes: inout [String]
  ) -> DittoRows {
    guard usedSQLite else { return decoded }
    var rows = reading.rows
    let before = rows.dittos.count
    if !reading.completeTables.contains(.profile) {
      rows.profiles.merge(decoded.profiles) { mine, _ in mine }
    }
    if !reading.completeTables.contains(.category) {
      rows.categories.merge(decoded.categories) { mine, _ in mine }
    }
    if !reading.completeTables.contains(.ditto) {
      rows.dittos.merge(decoded.dittos) { mine, _ in mine }
    }
    for key in reading.damagedDittoKeys { rows.dittos[key] = decoded.dittos[key] }
    for key in reading.damagedCategoryKeys {
      if let row = decoded.categories[key] { rows.categories[key] = row }
    }
    let damaged = reading.damagedDittoKeys.count + reading.damagedCategoryKeys.count
    if damaged > 0 {
      notes.append(
        "\(damaged) rows SQLite read had text that is not valid UTF-8: the decoder's reading used")
    }
    notes.append(
      "SQLite read \(before) ditto rows; salvage added \(rows.dittos.count - before) it could not reach"
    )
    return rows
  }

  private static func deletedDittos(source: PageSource, scan: PageScan, live: DittoRows) throws
    -> [LegacyDitto]
  {
    let liveTexts = Set(live.dittos.values.compactMap(\.text))
    var seen = Set<String>()
    var deleted: [LegacyDitto] = []
    for found in try FreeSpaceCarver(source: source, scan: scan).carve() {
      if let key = found.key, live.dittos[key] != nil { continue }
      guard let text = found.row.text, !text.isEmpty, !liveTexts.contains(text),
        seen.insert(text).inserted
      else { continue }
      deleted.append(LegacyDitto(text: text, useCount: found.row.useCount ?? 0))
    }
    return deleted
  }

  private static func walNotes(_ wal: WALFile?, size: Int64) -> [String] {
    guard let wal else { return ["the -wal (\(size) bytes) has no valid header: ignored"] }
    var notes = [
      "-wal: \(wal.committedFrames.count) committed frames, \(wal.newestFrame.count) pages, database of \(wal.databasePages) pages"
    ]
    if wal.uncommittedFrames > 0 {
      notes.append("-wal: \(wal.uncommittedFrames) valid frames after the last commit dropped")
    }
    if wal.stoppedAtInvalidFrame {
      notes.append("-wal: stopped at an invalid frame (torn or stale tail)")
    }
    return notes
  }

  private static func scanNotes(_ scan: PageScan, source: PageSource) -> [String] {
    var notes = [
      "decoded \(scan.btreePages) b-tree pages of \(source.pageCount); schema from \(scan.schema.isFromCatalog ? "sqlite_master" : "the known Ditto layout")"
    ]
    if scan.orphanLeaves > 0 {
      notes.append(
        "\(scan.orphanLeaves) leaf pages no b-tree reached were assigned by record shape")
    }
    if scan.droppedRows > 0 {
      notes.append("\(scan.droppedRows) rows dropped (broken overflow chain or invalid text)")
    }
    return notes
  }
}

// MARK: - Options and results

/// What a salvage run should look for beyond the live rows.
package struct SalvageOptions: Sendable {
  /// Also carve deleted rows out of free pages, freeblocks and superseded page images.
  /// They are listed in ``SalvageResult/deleted`` and never put in the library.
  package var includeDeleted: Bool
  /// Told the pages scanned and the pages held, every 64 pages of the full page scan (for a
  /// progress line); nil by default.
  package var onPages: (@Sendable (_ done: Int, _ total: Int) -> Void)?

  package init(includeDeleted: Bool = false) {
    self.includeDeleted = includeDeleted
  }
}

/// Where salvaged rows came from.
package enum SalvageSourceKind: String, Sendable {
  /// Pages read from the main database file.
  case main
  /// Pages taken from the newest committed frames of the `-wal`.
  case wal
  /// Pages from `-wal` frames no commit covers (a copy cut short, a broken checksum chain):
  /// SQLite never reads them; their dittos are reported apart.
  case walNeverCommitted = "wal-never-committed"
  /// Free space: freelist pages, freeblocks, superseded page images (deleted rows).
  case freelist
}

/// One source's counts: pages read from it and ditto rows decoded from them.
package struct SalvageSource: Sendable, Equatable {
  package var kind: SalvageSourceKind
  /// Pages read from this source (pointer-map pages excluded; for `freelist`, the free pages).
  package var pages: Int
  /// Ditto rows decoded from those pages (for `freelist`, deleted dittos found).
  package var rows: Int

  package init(kind: SalvageSourceKind, pages: Int, rows: Int) {
    self.kind = kind
    self.pages = pages
    self.rows = rows
  }
}

/// What salvage recovered from a store SQLite may no longer open.
///
/// An empty ``library`` means a Ditto store was decoded and holds no dittos; when nothing at all
/// could be decoded, ``Salvager/salvage(path:options:)`` throws instead.
package struct SalvageResult: Sendable {
  /// Live rows in reader order: SQLite's reading, plus the decoded rows it missed, then the rows
  /// found only in frames never committed (``neverCommitted`` of them; ``committedLibrary`` is
  /// the same without them).
  package var library: LegacyLibrary
  /// Per-source counts: `main` when a non-empty main file exists, `wal` when the `-wal` holds
  /// committed frames, `freelist` with ``SalvageOptions/includeDeleted``.
  package var sources: [SalvageSource]
  /// Deleted dittos found in free space (only with ``SalvageOptions/includeDeleted``).
  package var deleted: [LegacyDitto]
  /// True when SQLite itself opened the store and read its Ditto tables (salvage then only
  /// adds rows SQLite could not reach).
  package var usedSQLite: Bool
  /// What was assumed or skipped, for logs: counts and codes, never user text.
  package var notes: [String]
  /// Dittos of ``library`` found only in `-wal` frames never committed (a copy cut short, a
  /// broken checksum chain): SQLite would never show them. They come after the committed ones.
  package var neverCommitted: Int
  /// ``library`` without the dittos found only in frames never committed: what the store held
  /// as SQLite last committed it. Imports take this unless told to include the others.
  package var committedLibrary: LegacyLibrary
  /// The dittos found only in frames never committed, each in its category (``library`` minus
  /// ``committedLibrary``).
  package var neverCommittedLibrary: LegacyLibrary {
    var held: [String: Set<String>] = [:]
    for category in committedLibrary.categories {
      held[category.title, default: []].formUnion(category.dittos.map(\.text))
    }
    return LegacyLibrary(
      categories: library.categories.compactMap { category in
        let extra = category.dittos.filter { held[category.title]?.contains($0.text) != true }
        return extra.isEmpty
          ? nil : LegacyCategory(title: category.title, dittos: extra, origin: category.origin)
      })
  }

  /// The title a category of rows never committed takes wherever they are written (a CSV, a
  /// recovery file, a library): `Work (never committed)`, so they are never mixed in unseen.
  package static func neverCommittedTitle(_ title: String) -> String {
    title + " (never committed)"
  }

  /// ``committedLibrary``, then the rows never committed in categories of their own
  /// (``neverCommittedTitle(_:)``): what an import asked to include them takes.
  package var markedLibrary: LegacyLibrary {
    var marked = committedLibrary
    for category in neverCommittedLibrary.categories {
      marked.categories.append(
        LegacyCategory(
          title: Self.neverCommittedTitle(category.title), dittos: category.dittos,
          origin: category.origin))
    }
    return marked
  }

  /// A result; `committedLibrary` defaults to `library` (no frame outside a commit).
  package init(
    library: LegacyLibrary, sources: [SalvageSource], deleted: [LegacyDitto], usedSQLite: Bool,
    notes: [String], neverCommitted: Int = 0, committedLibrary: LegacyLibrary? = nil
  ) {
    self.committedLibrary = committedLibrary ?? library
    self.library = library
    self.sources = sources
    self.deleted = deleted
    self.usedSQLite = usedSQLite
    self.notes = notes
    self.neverCommitted = neverCommitted
  }
}

/// The second pass over a `-wal`: its frames no commit covers laid over the committed content,
/// decoded, and what only they hold kept apart from what a committed reading gives.
struct NeverCommittedPass {
  let source: PageSource
  let frames: Int

  /// Nil when the `-wal` has no frame outside a commit.
  init?(main: ReadOnlyFile?, wal: WALFile?) throws(FileAccessError) {
    guard let wal, !wal.neverCommitted.isEmpty,
      let source = try PageSource(main: main, wal: wal, includingNeverCommitted: true)
    else { return nil }
    self.source = source
    frames = wal.neverCommitted.count
  }

  /// The dittos the pass finds that `committed` lacks (by category title and text), and its
  /// source counts; nil when nothing decodes.
  func read(committed: LegacyLibrary) throws -> (library: LegacyLibrary, source: SalvageSource)? {
    let scan = try PageScan(source: source)
    let everything = LibraryAssembler.assemble(scan.rows)
    var held: [String: Set<String>] = [:]
    for category in committed.categories {
      held[category.title, default: []].formUnion(category.dittos.map(\.text))
    }
    var found: [LegacyCategory] = []
    for category in everything.categories {
      let dittos = category.dittos.filter { held[category.title]?.contains($0.text) != true }
      guard !dittos.isEmpty else { continue }
      found.append(LegacyCategory(title: category.title, dittos: dittos, origin: category.origin))
    }
    let library = LegacyLibrary(categories: found)
    return (
      library, SalvageSource(kind: .walNeverCommitted, pages: frames, rows: library.dittoCount)
    )
  }

  /// `extra`'s dittos after `library`'s: into the first category of the same title, else as new
  /// categories at the end.
  static func appending(_ extra: LegacyLibrary, to library: LegacyLibrary) -> LegacyLibrary {
    var merged = library
    for category in extra.categories {
      if let index = merged.categories.firstIndex(where: { $0.title == category.title }) {
        merged.categories[index].dittos += category.dittos
      } else {
        merged.categories.append(category)
      }
    }
    return merged
  }
}
