import LegacyStore
import Telemetry

/// What is recoverable here, read for real and changed nowhere: every place the probe looked, what
/// each file holds (or why it could not be read), what salvage could rebuild where SQLite cannot
/// read, the App Group defaults' legacy keys, and which source a migration would import.
///
/// ``LegacyDataMigrator/survey(_:)`` makes it. It writes nothing: no flag, no counter, no library,
/// no log line at notice level, no telemetry tag. Stores are read on private snapshots, to their
/// end, and counted; nothing of their content is kept.
package struct LegacySurvey: Sendable {
  /// What the container of `layout` holds, read at `depth`: a survey with no migrator (no
  /// destination, no flag store), for a tool that only looks (copies found nearby, a backup's
  /// rebuilt files). Its inventory goes to `logger` (nowhere by default).
  package static func of(
    _ layout: ContainerLayout, defaults: (any LegacyDefaultsSource)?,
    depth: Depth = .contentsAndSalvage, logger: EngineLogger = .disabled
  ) -> LegacySurvey {
    LegacySourceGathering(logger: logger).survey(
      layout, defaults: defaults, depth: depth, keeping: .none
    ).survey
  }

  /// How far a survey reads.
  package enum Depth: Sendable, Equatable {
    /// Only what is there: the probe, lone `-wal` files with valid frames, the defaults' keys
    /// (what `hasRecoverableLegacyData` needs; nothing is copied or read).
    case presence
    /// Every store read to its end and counted.
    case contents
    /// As ``contents``, and what salvage rebuilds from each store SQLite cannot read and from
    /// each lone `-wal` (counted, not imported).
    case contentsAndSalvage
  }

  /// One file that may be the 2.x store, and what it holds.
  package struct Store: Sendable, Equatable {
    /// The file.
    package var candidate: LegacyCandidate
    /// What reading it gave; nil at ``Depth/presence``.
    package var content: Content?
    /// What salvage rebuilds from it when SQLite could not read it (``Depth/contentsAndSalvage``).
    package var salvage: SalvageCount?
    /// For a store that holds dittos and is not the chosen one: how many of its dittos the chosen
    /// store lacks (by category title and text, as the merge compares them); nil for the chosen
    /// store, a store without dittos, or when they could not be compared.
    package var missingFromChosen: Int?
    /// For a store SQLite read: the dittos its `-wal` holds only in frames no commit covers (SQLite
    /// never shows them; counted at ``Depth/contentsAndSalvage``), and their categories.
    package var neverCommitted = 0
    package var neverCommittedCategories = 0
    /// When its `-wal` is another store's (the Core Data store UUID differs with it applied):
    /// what the two together hold, counted and named, never imported; the store is read as its
    /// main file alone. Nil when the `-wal` is its own (or there is none).
    package var foreignWAL: Content?

    /// The file at `candidate`, with what reading it gave (nil: not read).
    package init(candidate: LegacyCandidate, content: Content? = nil) {
      self.candidate = candidate
      self.content = content
    }

    /// Categories read from it; nil when it was not read or could not be.
    package var categories: Int? {
      if case .read(let categories, _) = content { return categories }
      return nil
    }

    /// Dittos read from it; nil when it was not read or could not be.
    package var dittos: Int? {
      if case .read(_, let dittos) = content { return dittos }
      return nil
    }
  }

  /// What reading a store gave.
  package enum Content: Sendable, Equatable {
    /// Read to its end: these many categories and dittos (zero dittos: an empty store).
    case read(categories: Int, dittos: Int)
    /// Could not be read.
    case failed(LegacyStoreError)
  }

  /// What salvage rebuilds (counted, never imported by a survey).
  package enum SalvageCount: Sendable, Equatable {
    /// Salvage rebuilt these many categories and dittos from committed content, and
    /// `neverCommitted` more dittos found only in `-wal` frames no commit covers (never imported
    /// unless asked for: SQLite would never have shown them).
    case rebuilt(categories: Int, dittos: Int, neverCommitted: Int)
    /// Salvage found nothing it could decode.
    case failed(LegacyStoreError)

    /// Committed dittos rebuilt (0 when salvage failed).
    package var dittos: Int {
      if case .rebuilt(_, let dittos, _) = self { return dittos }
      return 0
    }

    /// Dittos found only in frames never committed (0 when salvage failed).
    package var neverCommitted: Int {
      if case .rebuilt(_, _, let extra) = self { return extra }
      return 0
    }
  }

  /// A `-wal` whose store is gone.
  package struct LoneWAL: Sendable, Equatable {
    /// The `-wal` file.
    package var candidate: LegacyCandidate
    /// True when it holds at least one valid committed frame.
    package var hasValidFrames: Bool
    /// What salvage rebuilds from it (``Depth/contentsAndSalvage``; every non-empty one is
    /// salvaged, committed frames or not).
    package var salvage: SalvageCount?

    /// True when the file holds bytes: legacy data that may hold dittos (a `-wal` cut before its
    /// only commit frame has no valid committed frame, and its frames still hold rows).
    package var mayHoldData: Bool { candidate.bytes > 0 }
  }

  /// The App Group defaults' legacy keys (the keyboard's queue, the 1.x list).
  package enum Defaults: Sendable, Equatable {
    /// No defaults, or none of the legacy keys.
    case none
    /// Read: their categories and dittos.
    case read(DefaultsLegacyContent)
    /// Could not be read.
    case failed(DefaultsError)
  }

  /// The folders looked at, or nil for a file the user picked.
  package var layout: ContainerLayout?
  /// The store files, in probe order (the seed's places and spellings).
  package var stores: [Store] = []
  /// Paths with a store's name that are not regular files (never opened).
  package var skipped: [SkippedCandidate] = []
  /// `-wal` files whose store is gone.
  package var loneWALs: [LoneWAL] = []
  /// The defaults' legacy keys.
  package var defaults: Defaults = .none
  /// When more than one source reads (several stores, or a store and the defaults' legacy keys):
  /// their categories and dittos counted once, as the merge counts them (categories by title,
  /// dittos by title and text), so a ditto read from two sources counts once. Nil otherwise (the
  /// sources' own counts are then distinct).
  package var distinct: (categories: Int, dittos: Int)?
  /// How far this survey read.
  package var depth: Depth
  /// What the defaults source calls itself in reports (the preferences file's path); "" without
  /// one.
  package var defaultsName = ""

  /// A survey of `layout` (nil for a file the user picked) that reads as far as `depth`, nothing
  /// found yet.
  package init(layout: ContainerLayout?, depth: Depth) {
    self.layout = layout
    self.depth = depth
  }

  /// The store files, best first: what decides is **the dittos a store holds** (its `-wal`
  /// applied), not a file's size (the seed prefers "the largest file" to find the copy that holds
  /// the data after 3.0.0 zero-truncated another; a store that was never checkpointed is a 4 KB main
  /// file and a large `-wal`, and a stale copy can be bloated by free pages).
  ///
  /// 1. Stores that read and hold dittos: more dittos first.
  /// 2. Stores that could not be read and are not empty files (main file and `-wal` together): they
  ///    may hold data, where a store that reads empty holds none.
  /// 3. Stores that read and hold no ditto.
  /// 4. Zero-length files that could not be read.
  ///
  /// Ties go to more bytes (main file + `-wal`), then to the seed's probe order. At
  /// ``Depth/presence`` nothing is read: by bytes, then probe order.
  package var preferenceOrder: [Store] {
    func rank(_ store: Store) -> Int {
      switch store.content {
      case .read(_, let dittos): dittos > 0 ? 0 : 2
      case .failed: store.candidate.totalBytes > 0 ? 1 : 3
      case nil: 1
      }
    }
    return stores.enumerated()
      .sorted { lhs, rhs in
        let (left, right) = (lhs.element, rhs.element)
        if rank(left) != rank(right) { return rank(left) < rank(right) }
        if (left.dittos ?? 0) != (right.dittos ?? 0) {
          return (left.dittos ?? 0) > (right.dittos ?? 0)
        }
        if left.candidate.totalBytes != right.candidate.totalBytes {
          return left.candidate.totalBytes > right.candidate.totalBytes
        }
        return lhs.offset < rhs.offset
      }
      .map(\.element)
  }

  /// The seed's `legacyStoreURL`: the store a migration is about (the best of
  /// ``preferenceOrder``), nil when there is none.
  package var chosen: LegacyCandidate? { preferenceOrder.first?.candidate }

  /// The chosen store, when it was read (nil when there is none, when it could not be read, or at
  /// presence depth): what a migration imports.
  package var storeToImport: Store? {
    guard let first = preferenceOrder.first, case .read = first.content else { return nil }
    return first
  }

  /// The other stores that were read and hold dittos, best first (the automatic path imports only
  /// the chosen store; "Recover Old Dittos" imports these after it). Each carries
  /// ``Store/missingFromChosen``.
  package var otherReadableStores: [Store] {
    guard let chosen = storeToImport else { return [] }
    return preferenceOrder.filter { $0.candidate != chosen.candidate && ($0.dittos ?? 0) > 0 }
  }

  /// The error an attempt reports when no store reads (nil when one does): the first transient
  /// failure, in preference order and then among the skipped paths (it is why the attempt counts
  /// for nothing, and what to fix first), else the first store's error.
  package var decidingReadError: LegacyStoreError? {
    guard storeToImport == nil else { return nil }
    let failures = storeFailures + skipped.map(\.error)
    return failures.first(where: \.isTransient) ?? failures.first
  }

  /// The first failure met that says nothing about the data — a store that could not be read for
  /// now, a path with a store's name that was not opened, the defaults not readable now — or nil
  /// when every failure (if any) was permanent. While there is one, the automatic path writes no
  /// flag and no counter.
  package var transientReason: TransientReason? {
    if let reason = transientFailure?.kind.transientReason { return reason }
    if case .failed(let error) = defaults { return error.kind.transientReason }
    return nil
  }

  /// The first store error or path not opened that is transient, in preference order.
  package var transientFailure: LegacyStoreError? {
    (storeFailures + skipped.map(\.error)).first(where: \.isTransient)
  }

  /// The stores' read errors, in preference order.
  private var storeFailures: [LegacyStoreError] {
    preferenceOrder.compactMap {
      if case .failed(let error) = $0.content { return error }
      return nil
    }
  }

  /// The seed's `hasRecoverableLegacyData`: any store file (even a zero-byte or unreadable one), a
  /// path with a store's name that was not opened (a link, a folder it may not search), a lone
  /// `-wal` that is not empty (valid frames or not: salvage reads what a commit never covered), or
  /// defaults holding legacy dittos (or unreadable).
  package var hasRecoverableLegacyData: Bool {
    if !stores.isEmpty || !skipped.isEmpty || loneWALs.contains(where: \.mayHoldData) {
      return true
    }
    switch defaults {
    case .none: return false
    case .read(let content): return !content.isEmpty
    case .failed: return true
    }
  }

  /// One source an attempt would import, and how much it holds.
  package struct Source: Sendable, Equatable {
    /// Where a source's dittos come from.
    package enum Origin: Sendable, Equatable {
      /// A store read as it is.
      case store(LegacyCandidate)
      /// Rows salvage rebuilds from a store SQLite cannot read, or from a lone `-wal`.
      case salvage(LegacyCandidate)
      /// The App Group defaults.
      case defaults
      /// Rows only in `-wal` frames no commit covers, of a store SQLite read (imported only when
      /// asked for, in categories titled `… (never committed)`).
      case neverCommitted(LegacyCandidate)
    }

    /// Which kind of source (the store, the keyboard's queue, the 1.x list).
    package var kind: LegacySourceReport.Kind
    /// Where its dittos come from.
    package var origin: Origin
    /// Categories it offers.
    package var categories: Int
    /// Dittos it offers.
    package var dittos: Int
  }

  /// What an attempt on `path` imports, in order: the chosen store when it reads; on the manual
  /// path, then every other store that reads and holds dittos (duplicates are skipped by the merge),
  /// or, when no store reads (or the chosen one holds no ditto), the first store or lone `-wal`
  /// salvage rebuilds dittos from; then the keyboard's queue and the 1.x list.
  /// (Salvage needs ``Depth/contentsAndSalvage``; a survey that did not run it offers none.)
  package func sources(for trigger: MigrationSource) -> [Source] {
    sources(salvaging: trigger == .manual, everyStore: trigger == .manual)
  }

  /// Dittos salvage found only in `-wal` frames no commit covers, in the stores and lone `-wal`
  /// files salvaged (never imported unless asked for).
  package var neverCommittedDittos: Int {
    stores.reduce(0) { $0 + ($1.salvage?.neverCommitted ?? 0) + $1.neverCommitted }
      + loneWALs.reduce(0) { $0 + ($1.salvage?.neverCommitted ?? 0) }
  }

  /// Dittos salvage found only in frames never committed in `candidate`'s bytes (a store or a lone
  /// `-wal`).
  package func neverCommitted(in candidate: LegacyCandidate) -> Int {
    let stores = stores.filter { $0.candidate == candidate }.map(\.salvage)
    let wals = loneWALs.filter { $0.candidate == candidate }.map(\.salvage)
    return (stores + wals).reduce(0) { $0 + ($1?.neverCommitted ?? 0) }
  }

  /// The sources an import takes: the chosen store when it reads; with `everyStore`, every other
  /// store that reads and holds dittos after it; with `salvaging`, what salvage rebuilds when no
  /// store reads (or the chosen one holds no ditto); then the keyboard's queue and the 1.x list.
  package func sources(salvaging: Bool, everyStore: Bool, includingNeverCommitted: Bool = false)
    -> [Source]
  {
    var sources: [Source] = []
    let read = storeToImport
    var storeSource: Source?
    if let read, case .read(let categories, let dittos) = read.content {
      storeSource = Source(
        kind: .coreData, origin: .store(read.candidate), categories: categories, dittos: dittos)
    }
    if salvaging, (storeSource?.dittos ?? 0) == 0 {
      let tried =
        (read == nil ? preferenceOrder.map { ($0.candidate, $0.salvage) } : [])
        + loneWALs.map { ($0.candidate, $0.salvage) }
      for (candidate, salvage) in tried {
        guard case .rebuilt(let categories, let dittos, let extra) = salvage else { continue }
        let offered = dittos + (includingNeverCommitted ? extra : 0)
        if offered > 0 {
          storeSource = Source(
            kind: .coreData, origin: .salvage(candidate), categories: categories, dittos: offered)
          break
        }
      }
    }
    if let storeSource { sources.append(storeSource) }
    if everyStore, case .store = storeSource?.origin {
      for other in otherReadableStores {
        guard case .read(let categories, let dittos) = other.content else { continue }
        sources.append(
          Source(
            kind: .coreData, origin: .store(other.candidate), categories: categories,
            dittos: dittos))
      }
    }
    if includingNeverCommitted {
      let read = sources.compactMap { source -> LegacyCandidate? in
        if case .store(let candidate) = source.origin { return candidate }
        return nil
      }
      for store in stores where store.neverCommitted > 0 && read.contains(store.candidate) {
        sources.append(
          Source(
            kind: .coreData, origin: .neverCommitted(store.candidate),
            categories: store.neverCommittedCategories, dittos: store.neverCommitted))
      }
    }
    if case .read(let content) = defaults {
      if !content.pending.isEmpty {
        sources.append(
          Source(
            kind: .pending, origin: .defaults, categories: content.pending.count,
            dittos: content.pending.reduce(0) { $0 + $1.dittos.count }))
      }
      if !content.version1.isEmpty {
        sources.append(
          Source(
            kind: .v1, origin: .defaults, categories: content.version1.count,
            dittos: content.version1.reduce(0) { $0 + $1.dittos.count }))
      }
    }
    return sources
  }

  /// Why an attempt that imports no legacy ditto did not read what is there, when a lone `-wal`
  /// (or a damaged store's frames never committed) may hold dittos: the attempt is then
  /// `found_unreadable`, never `empty_store` or `nothing_on_disk`. Nil when a source with dittos
  /// is imported, or when no such file is left.
  package func leftBehindError(importing selected: [Source]) -> LegacyStoreError? {
    guard selected.allSatisfy({ $0.dittos == 0 }) else { return nil }
    if let wal = loneWALs.first(where: \.mayHoldData) {
      switch wal.salvage {
      case .failed(let error)?: return error
      case .rebuilt(_, _, let extra)? where extra > 0:
        return .damaged(
          file: wal.candidate.path,
          reason:
            "a -wal without its store whose \(extra) dittos are only in frames never committed (no commit covers them; SQLite would never have shown them): they are imported only when asked for"
        )
      case .rebuilt?:
        return nil
      case nil:
        return .notADatabase(
          file: wal.candidate.path,
          reason:
            "a -wal without its store (Ditto.sqlite is gone): SQLite cannot open it alone; the automatic migration does not rebuild it, Recover Old Dittos does"
        )
      }
    }
    if let store = stores.first(where: { $0.salvage?.neverCommitted ?? 0 > 0 }),
      case .failed(let error) = store.content
    {
      return error
    }
    return nil
  }
}
