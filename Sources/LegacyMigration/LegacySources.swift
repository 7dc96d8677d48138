import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

// TWO PASSES, ONE SNAPSHOT
//
// An attempt keeps two promises at once: every legacy source is known to be readable to its end (or
// its error is known) before the library is touched, so a library's error is never a legacy-read
// error and a read error is never half an import; and memory stays flat whatever the store holds.
//
//   PASS  WHERE                              WHAT
//   1     survey, on a private snapshot      every store read to its end in table order (no sort),
//                                            counted; salvage counted where SQLite cannot read;
//                                            nothing kept but counts and category titles
//   2     merge, inside the destination's    the store that read is walked again, in the user's
//         one transaction                    order, from the same snapshot (our private copy, which
//                                            nothing else writes), each row decided and inserted
//                                            as it comes
//
// A small store (the common one: up to `LegacyStoreReader.heldTextBudget` of text) is read from
// its snapshot once: pass 1 holds its rows, sorted into walk order in Swift, and pass 2 replays
// them (the snapshot cannot have changed); a larger one is read twice, memory flat.
//
// Why not stage on disk: the snapshot already is a private copy that cannot change between the
// passes, so a second read of it costs one scan of the table (a tenth of an import), where staging
// would copy every row once more. Why not hold the sources in memory (as before): at a million
// dittos that is 350 MB, for the keyboard extension's budget of tens of MB a disaster. A failure
// in pass 2 (an I/O error on our own copy) is the source's (`ImportFailure.source`), and the
// destination undoes the transaction.
//
// The App Group defaults' keys and rows rebuilt by salvage are held in memory: they are small, or
// (salvage of a damaged store) rebuilt from bytes that cannot be streamed twice.

/// Which legacy sources an import takes (the automatic path, "Recover Old Dittos", a recovery
/// file).
package struct SourceSelection: Sendable, Equatable {
  /// Take what salvage rebuilds when no store reads (the manual path's rule).
  package var salvaging: Bool
  /// Take every store that reads and holds dittos, after the chosen one (the manual path's rule);
  /// otherwise only the chosen store.
  package var everyStore: Bool
  /// Also take the rows salvage finds only in `-wal` frames no commit covers (asked for by name:
  /// SQLite would never have shown them; by default they are counted and named, not imported).
  package var includesNeverCommitted: Bool

  /// A selection that salvages or not, takes every readable store or only the chosen one, and
  /// (only when asked) the rows of frames never committed.
  package init(salvaging: Bool, everyStore: Bool, includesNeverCommitted: Bool = false) {
    self.salvaging = salvaging
    self.everyStore = everyStore
    self.includesNeverCommitted = includesNeverCommitted
  }

  /// What an attempt `trigger` started takes: an automatic one only the chosen store; a manual
  /// one every readable store, and salvage when nothing reads.
  package init(_ trigger: MigrationSource) {
    self.init(salvaging: trigger == .manual, everyStore: trigger == .manual)
  }
}

/// The legacy side of one attempt: the survey and what the attempt takes from it, and those sources
/// open on their private snapshots, ready to stream into a merge (the snapshots are removed with
/// this value).
package final class LegacySources {
  /// The survey, and what the attempt takes from it (every read-side fact is derived there).
  package let read: LegacyRead
  /// The sources to import, in order (the chosen store, or what salvage rebuilt; on the manual path
  /// the other readable stores; the keyboard's queue; the 1.x list).
  package let streams: [any MergeSourceStream]

  init(read: LegacyRead, streams: [any MergeSourceStream]) {
    self.read = read
    self.streams = streams
  }

  /// What was found and read.
  package var survey: LegacySurvey { read.survey }

  /// Surveys `layout` and opens the sources an attempt on `path` imports. Writes nothing.
  ///
  /// - Parameters:
  ///   - layout: the places to look.
  ///   - defaults: the App Group defaults' legacy keys; nil to ignore them.
  ///   - path: the path the attempt is on (only the manual one salvages and takes every store).
  ///   - logger: info-level lines only (the inventory, the match, what could not be read).
  package static func gather(
    _ layout: ContainerLayout, defaults: (any LegacyDefaultsSource)?, for trigger: MigrationSource,
    includingNeverCommitted: Bool = false, logger: EngineLogger
  ) -> LegacySources {
    var selection = SourceSelection(trigger)
    selection.includesNeverCommitted = includingNeverCommitted
    return gather(layout, defaults: defaults, selecting: selection, logger: logger)
  }

  /// Surveys `layout` and opens the sources `selection` takes. Writes nothing.
  package static func gather(
    _ layout: ContainerLayout, defaults: (any LegacyDefaultsSource)?,
    selecting selection: SourceSelection, logger: EngineLogger
  ) -> LegacySources {
    let gathering = LegacySourceGathering(logger: logger)
    let depth: LegacySurvey.Depth = selection.salvaging ? .contentsAndSalvage : .contents
    let gathered = gathering.survey(
      layout, defaults: defaults, depth: depth, keeping: selection.everyStore ? .every : .chosen,
      includingNeverCommitted: selection.includesNeverCommitted)
    return gathering.sources(gathered, selection: selection, isPickedFile: false)
  }

  /// True when a source offers at least one category (an attempt then merges).
  package var hasCategories: Bool { streams.contains { !$0.categoryTitles.isEmpty } }

  /// Categories and dittos the sources offer, as read (what the outcome line carries when no merge
  /// ran to its end).
  package var offered: (categories: Int, dittos: Int) { read.offered }

  /// Removes the private snapshots now.
  package func close() {
    for case let stream as StoreSourceStream in streams { stream.close() }
  }
}

/// Reads the legacy side of an attempt (pass 1 of the format comment above).
struct LegacySourceGathering {
  let logger: EngineLogger

  /// Which stores stay open on their snapshots once the survey is done.
  enum Keeping {
    /// None (a survey that only counts).
    case none
    /// The chosen store (the automatic path).
    case chosen
    /// Every store that reads and holds dittos (the manual path).
    case every
  }

  /// A store open on its snapshot.
  struct OpenStore {
    var store: CoreDataStore
    var reader: LegacyStoreReader
  }

  /// What was read, with the stores to import kept open.
  struct Gathered {
    var survey: LegacySurvey
    /// The stores kept open, by path.
    var openStores: [String: OpenStore] = [:]
    /// Rows salvage rebuilt, by the path they came from.
    var salvaged: [String: LegacyLibrary] = [:]
    /// Rows only in `-wal` frames never committed of stores SQLite read, in their marked
    /// categories, by path (kept only when they are to be imported).
    var neverCommittedRows: [String: LegacyLibrary] = [:]
  }

  // MARK: - Pass 1: the survey

  /// Surveys `layout` (see ``LegacySurvey``), keeping the stores `keeping` names open.
  func survey(
    _ layout: ContainerLayout, defaults source: (any LegacyDefaultsSource)?,
    depth: LegacySurvey.Depth, keeping: Keeping, logsInventory: Bool = true,
    logsProbe: Bool = true, includingNeverCommitted: Bool = false
  ) -> Gathered {
    var gathered = Gathered(survey: LegacySurvey(layout: layout, depth: depth))
    if logsInventory {
      Inventory.produce(for: layout, names: .hidingReceived) { line in
        logger.info("\(line, privacy: .public)")
      }
    }
    let findings = LegacyStoreProbe.probe(layout)
    if logsProbe { logProbe(findings) }
    gathered.survey.skipped = findings.skipped
    // Every candidate is read to its end and counted, in probe order; the ones that read stay open
    // until the best is known (the dittos decide, not a file's size).
    var opened: [String: OpenStore] = [:]
    for candidate in findings.candidates {
      var store = LegacySurvey.Store(candidate: candidate)
      if depth != .presence {
        let (content, open, foreign) = read(candidate)
        store.content = content
        store.foreignWAL = foreign
        if let open { opened[candidate.path] = open }
        if case .failed = content, depth == .contentsAndSalvage {
          store.salvage = salvage(
            candidate, into: &gathered, includingNeverCommitted: includingNeverCommitted)
        }
        if case .read = content, depth == .contentsAndSalvage,
          Salvager.hasFramesNeverCommitted(path: candidate.path)
        {
          countNeverCommitted(
            &store, into: &gathered, keeping: includingNeverCommitted)
        }
      }
      gathered.survey.stores.append(store)
    }
    var union = compareWithChosen(&gathered.survey, opened: opened)
    let kept: Set<String>
    switch keeping {
    case .none: kept = []
    case .chosen: kept = Set(gathered.survey.storeToImport.map { [$0.candidate.path] } ?? [])
    case .every:
      let stores =
        (gathered.survey.storeToImport.map { [$0] } ?? []) + gathered.survey.otherReadableStores
      kept = Set(stores.map(\.candidate.path))
    }
    // The stores not kept are released with `opened`: a snapshot removes its private folder when
    // it is released, never by hand.
    for (path, open) in opened where kept.contains(path) { gathered.openStores[path] = open }
    if depth != .presence { logMatch(gathered.survey, keeping: keeping) }
    for wal in findings.orphanWALs {
      var lone = LegacySurvey.LoneWAL(
        candidate: wal, hasValidFrames: Salvager.hasValidFrames(walPath: wal.path))
      if lone.mayHoldData, depth == .contentsAndSalvage {
        lone.salvage = salvage(
          wal, into: &gathered, includingNeverCommitted: includingNeverCommitted)
      }
      gathered.survey.loneWALs.append(lone)
    }
    gathered.survey.defaults = readDefaults(source, layout: layout)
    gathered.survey.defaultsName = source?.legacySourceName ?? ""
    // The defaults' legacy keys beside a store: counted with it, each ditto once.
    if case .read(let content) = gathered.survey.defaults,
      !(content.pending.isEmpty && content.version1.isEmpty)
    {
      if union == nil, let chosen = gathered.survey.storeToImport,
        let open = opened[chosen.candidate.path]
      {
        union = Self.union(of: open)
      }
      for category in content.version1 + content.pending {
        union?.titles.insert(category.title)
        for ditto in category.dittos where !ditto.text.isEmpty {
          union?.digests.insert(Self.digest(category.title, ditto.text))
        }
      }
    }
    if let union { gathered.survey.distinct = (union.titles.count, union.digests.count) }
    return gathered
  }

  /// Surveys one file the user picked (a `.dittorecovery` file or a 2.x store).
  func survey(file path: String, keepsStoreOpen: Bool) -> Gathered {
    var gathered = Gathered(survey: LegacySurvey(layout: nil, depth: .contents))
    let candidate = LegacyCandidate(pickedFile: path)
    var store = LegacySurvey.Store(candidate: candidate)
    let (content, open, foreign) = read(candidate)
    store.content = content
    store.foreignWAL = foreign
    if let open, keepsStoreOpen { gathered.openStores[candidate.path] = open }
    gathered.survey.stores = [store]
    return gathered
  }

  /// Reads `candidate` to its end and counts it; returns it open when it read, and what its
  /// `-wal` makes of it when that `-wal` is another store's.
  private func read(_ candidate: LegacyCandidate) -> (
    LegacySurvey.Content, OpenStore?, foreignWAL: LegacySurvey.Content?
  ) {
    do throws(LegacyStoreError) {
      let store = try CoreDataStore(path: candidate.path)
      // A store that cannot be read is released on the way out, its snapshot with it.
      let reader = try LegacyStoreReader(store: store)
      let summary = try reader.count()
      let foreign = store.foreignWAL.map { other in countForeignWAL(other, of: candidate) }
      return (
        .read(categories: summary.categories, dittos: summary.dittos),
        OpenStore(store: store, reader: reader), foreign
      )
    } catch {
      logger.info(
        "legacyStoreURL: cannot read \(candidate.publicName, privacy: .public) (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
      )
      return (.failed(error), nil, nil)
    }
  }

  /// Counts what another store's `-wal` makes of `candidate` (never imported) and says so.
  private func countForeignWAL(_ other: CoreDataStore, of candidate: LegacyCandidate)
    -> LegacySurvey.Content
  {
    let content: LegacySurvey.Content
    do throws(LegacyStoreError) {
      let summary = try LegacyStoreReader(store: other).count()
      content = .read(categories: summary.categories, dittos: summary.dittos)
    } catch {
      content = .failed(error)
    }
    let count: String
    if case .read(_, let dittos) = content { count = String(dittos) } else { count = "unknown" }
    logger.info(
      "legacyStoreURL: \(candidate.publicName, privacy: .public): its -wal belongs to another store (\(count, privacy: .public) dittos with it applied); the main file is read without it"
    )
    return content
  }

  /// Sets ``LegacySurvey/Store/missingFromChosen`` of every other store that reads and holds
  /// dittos: how many of its dittos (by category title and text) the chosen store lacks. Both are
  /// read once more on their snapshots; only digests of the chosen store's pairs are held.
  /// The categories and dittos of sources counted once: titles, and digests of title and text.
  struct Union {
    var titles = Set<String>()
    var digests = Set<Int>()
  }

  /// What `open` holds, as a ``Union``; nil when it stops reading.
  static func union(of open: OpenStore) -> Union? {
    var union = Union()
    do {
      var title = ""
      _ = try open.reader.walk { item in
        switch item {
        case .category(let name, _):
          title = name
          union.titles.insert(name)
        case .ditto(let ditto): union.digests.insert(digest(title, ditto.text))
        }
      }
    } catch {
      return nil
    }
    return union
  }

  /// Sets every other readable store's ``LegacySurvey/Store/missingFromChosen`` and returns what
  /// all the readable stores hold counted once (nil with a single store, or when one stops
  /// reading).
  private func compareWithChosen(_ survey: inout LegacySurvey, opened: [String: OpenStore])
    -> Union?
  {
    let others = survey.otherReadableStores
    guard let chosen = survey.storeToImport, let reference = opened[chosen.candidate.path],
      !others.isEmpty
    else { return nil }
    guard var union = Self.union(of: reference) else {
      logger.info(
        "legacyStoreURL: cannot compare the stores (read_error): \("the chosen store stopped reading", privacy: .private)"
      )
      return nil
    }
    let digests = union.digests
    var complete = true
    for other in others {
      guard let open = opened[other.candidate.path] else {
        complete = false
        continue
      }
      var missing = 0
      do {
        var title = ""
        _ = try open.reader.walk { item in
          switch item {
          case .category(let name, _):
            title = name
            union.titles.insert(name)
          case .ditto(let ditto):
            let key = Self.digest(title, ditto.text)
            if !digests.contains(key) { missing += 1 }
            union.digests.insert(key)
          }
        }
      } catch {
        logger.info(
          "legacyStoreURL: cannot compare the stores (\((error as? LegacyStoreError)?.code ?? "read_error", privacy: .public)): \(String(describing: error), privacy: .private)"
        )
        complete = false
        continue
      }
      if let index = survey.stores.firstIndex(where: { $0.candidate == other.candidate }) {
        survey.stores[index].missingFromChosen = missing
      }
    }
    return complete ? union : nil
  }

  /// A category title and a text, hashed as `String`s compare (canonical equivalence).
  private static func digest(_ title: String, _ text: String) -> Int {
    var hasher = Hasher()
    hasher.combine(title)
    hasher.combine(text)
    return hasher.finalize()
  }

  /// For a store SQLite read whose `-wal` holds frames no commit covers: what only those frames
  /// hold, counted on the store, and kept (in marked categories) when they are to be imported.
  private func countNeverCommitted(
    _ store: inout LegacySurvey.Store, into gathered: inout Gathered, keeping: Bool
  ) {
    do {
      let result = try Salvager.salvage(path: store.candidate.path, options: SalvageOptions())
      let extra = result.neverCommittedLibrary
      store.neverCommitted = extra.dittoCount
      store.neverCommittedCategories = extra.categories.count
      logger.info(
        "legacyStoreURL: [\(store.candidate.root.rawValue, privacy: .public)] \(store.candidate.relativePath, privacy: .public): \(extra.dittoCount) dittos only in -wal frames never committed (not read by SQLite)"
      )
      if keeping, extra.dittoCount > 0 {
        gathered.neverCommittedRows[store.candidate.path] = LegacyLibrary(
          categories: extra.categories.map {
            LegacyCategory(
              title: SalvageResult.neverCommittedTitle($0.title), dittos: $0.dittos,
              origin: $0.origin)
          })
      }
    } catch {
      logger.info(
        "salvage: \(store.candidate.publicName, privacy: .public) (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
      )
    }
  }

  /// What salvage rebuilds from the bytes of `candidate` (a store SQLite cannot read, a lone `-wal`).
  private func salvage(
    _ candidate: LegacyCandidate, into gathered: inout Gathered, includingNeverCommitted: Bool
  )
    -> LegacySurvey.SalvageCount
  {
    do {
      let result = try Salvager.salvage(path: candidate.path, options: SalvageOptions())
      let committed = result.committedLibrary
      logger.info(
        "salvage: [\(candidate.root.rawValue, privacy: .public)] \(candidate.relativePath, privacy: .public): \(committed.dittoCount) dittos rebuilt from \(result.sources.map { "\($0.kind.rawValue) \($0.pages) pages" }.joined(separator: ", "), privacy: .public); \(result.neverCommitted) more only in frames never committed"
      )
      // Rows never committed, when asked for, in categories of their own: never mixed in unseen.
      let kept = includingNeverCommitted ? result.markedLibrary : committed
      if kept.dittoCount > 0 { gathered.salvaged[candidate.path] = kept }
      return .rebuilt(
        categories: committed.categories.count, dittos: committed.dittoCount,
        neverCommitted: result.neverCommitted)
    } catch {
      logger.info(
        "salvage: \(candidate.publicName, privacy: .public): nothing rebuilt (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
      )
      return .failed(error)
    }
  }

  /// The App Group defaults' legacy keys; when the domain answers none, the preferences file on
  /// disk is asked whether that can be true (before the first unlock it is not).
  private func readDefaults(_ source: (any LegacyDefaultsSource)?, layout: ContainerLayout)
    -> LegacySurvey.Defaults
  {
    do {
      if let content = try DefaultsReader(logger: logger).readDefaults(source) {
        return .read(content)
      }
    } catch {
      logger.info(
        "defaults: cannot be read (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
      )
      return .failed(error)
    }
    guard source != nil,
      let contradiction = PreferencesFileEvidence.contradiction(at: layout.appGroupPreferencesPath)
    else { return .none }
    logger.info(
      "defaults: not available yet (\(contradiction.reason, privacy: .public)): \(contradiction.description, privacy: .private)"
    )
    return .failed(contradiction)
  }

  /// Logs what the probe found and did not open.
  private func logProbe(_ findings: LegacyStoreProbe.Findings) {
    for skipped in findings.skipped {
      logger.info(
        "legacyStoreURL: not opened: [\(skipped.root.rawValue, privacy: .public)] \(skipped.relativePath, privacy: .public) is a \(skipped.publicReason, privacy: .public) (\(skipped.error.code, privacy: .public)): \(skipped.error.description, privacy: .private)"
      )
    }
    for wal in findings.orphanWALs {
      logger.info(
        "legacyStoreURL: found a -wal without its store: \(wal.publicName, privacy: .public) (\(wal.bytes) bytes)"
      )
    }
    if findings.candidates.isEmpty {
      logger.info("legacyStoreURL: no legacy store in any probed place")
    }
  }

  /// The seed's match line, naming the store that is imported (`legacyStoreURL: matched <path>
  /// (<bytes> bytes) wal=<bytes> dittos=<N>`, the path as ``LegacyCandidate/seedPath``: relative to
  /// its probed place, never absolute), and one line for every other candidate.
  private func logMatch(_ survey: LegacySurvey, keeping: Keeping) {
    let order = survey.preferenceOrder
    guard let chosen = order.first else { return }
    let file = chosen.candidate
    let head =
      "legacyStoreURL: matched \(file.seedPath) (\(file.bytes) bytes) wal=\(file.walBytes)"
    switch chosen.content {
    case .read(_, let dittos):
      logger.info("\(head, privacy: .public) dittos=\(dittos)")
    case .failed(let error):
      logger.info(
        "\(head, privacy: .public) dittos=unknown (cannot read: \(error.code, privacy: .public))")
    case nil:
      logger.info("\(head, privacy: .public)")
    }
    for other in order.dropFirst() {
      let file = other.candidate
      let head =
        "legacyStoreURL: also found \(file.seedPath) (\(file.bytes) bytes) wal=\(file.walBytes)"
      switch other.content {
      case .read(_, let dittos) where dittos > 0:
        let missing = other.missingFromChosen.map { "\($0)" } ?? "unknown"
        let fate =
          keeping == .every
          ? "imported after the matched store"
          : "not imported (Recover Old Dittos imports it)"
        logger.info(
          "\(head, privacy: .public) dittos=\(dittos), \(missing, privacy: .public) of them not in the matched store; \(fate, privacy: .public)"
        )
      case .read:
        logger.info("\(head, privacy: .public) dittos=0; not imported: it holds no ditto")
      case .failed(let error):
        logger.info(
          "\(head, privacy: .public); not imported: cannot read (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
        )
      case nil:
        break
      }
    }
  }

  // MARK: - The sources an attempt imports

  /// The sources `selection` takes from what was gathered, open and ready to stream.
  func sources(_ gathered: Gathered, selection: SourceSelection, isPickedFile: Bool)
    -> LegacySources
  {
    var read = LegacyRead(survey: gathered.survey, selection: selection, isPickedFile: isPickedFile)
    guard read.foundLegacyData else { return LegacySources(read: read, streams: []) }
    var streams: [any MergeSourceStream] = []
    let content: DefaultsLegacyContent?
    if case .read(let read) = read.survey.defaults { content = read } else { content = nil }
    for source in read.selected {
      switch source.origin {
      case .store(let candidate):
        guard let open = gathered.openStores[candidate.path] else { continue }
        do {
          streams.append(
            try StoreSourceStream(
              kind: source.kind.rawValue, store: open.store, reader: open.reader,
              dittos: source.dittos))
        } catch {
          read.unopened = (candidate, error)
        }
      case .salvage(let candidate):
        guard let library = gathered.salvaged[candidate.path] else { continue }
        if read.survey.decidingReadError != nil {
          logger.info("runMigration: SQLite could not read the store; using salvaged rows")
        }
        streams.append(MergeSource(kind: .coreData, categories: library.categories))
      case .neverCommitted(let candidate):
        guard let library = gathered.neverCommittedRows[candidate.path] else { continue }
        streams.append(MergeSource(kind: .coreData, categories: library.categories))
      case .defaults:
        // The survey lists a defaults source only for defaults it read; unreadable defaults are
        // `read.defaultsError`, never an empty source.
        guard let content else { continue }
        let categories = source.kind == .pending ? content.pending : content.version1
        streams.append(MergeSource(kind: source.kind, categories: categories))
      }
    }
    // Snapshots opened for stores this selection does not stream are released with `gathered`.
    if !selection.salvaging, case .read(_, 0) = read.survey.storeToImport?.content,
      !read.orphanWALs.isEmpty
    {
      logger.info(
        "runMigration(auto): the store read empty; a -wal without its store holds frames (\(read.orphanWALs.map(\.publicName).joined(separator: ", "), privacy: .public)): use Recover Old Dittos"
      )
    }
    return LegacySources(read: read, streams: streams)
  }
}
