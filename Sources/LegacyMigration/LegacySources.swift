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
// Why not stage on disk: the snapshot already is a private copy that cannot change between the
// passes, so a second read of it costs one scan of the table (a tenth of an import), where staging
// would copy every row once more. Why not hold the sources in memory (as before): at a million
// dittos that is 350 MB, for the keyboard extension's budget of tens of MB a disaster. A failure
// in pass 2 (an I/O error on our own copy) is the source's (`ImportFailure.source`), and the
// destination undoes the transaction.
//
// The App Group defaults' keys and rows rebuilt by salvage are held in memory: they are small, or
// (salvage of a damaged store) rebuilt from bytes that cannot be streamed twice.

/// The legacy side of one attempt: the survey, and the sources it imports, open on their private
/// snapshots and ready to stream into a merge (the snapshots are removed with this value).
public final class LegacySources {
  /// What was found and read.
  public let survey: LegacySurvey
  /// The sources to import, in order (the store, or what salvage rebuilt; the keyboard's queue;
  /// the 1.x list).
  public let streams: [any MergeSourceStream]
  /// One report per legacy source (those imported, and an unreadable defaults file), counts read.
  public let reports: [LegacySourceReport]
  /// The read side of the attempt (what was found, read errors, salvage); the merge's counts are
  /// filled in later.
  public let readResult: AttemptResult

  init(
    survey: LegacySurvey, streams: [any MergeSourceStream], reports: [LegacySourceReport],
    readResult: AttemptResult
  ) {
    self.survey = survey
    self.streams = streams
    self.reports = reports
    self.readResult = readResult
  }

  /// Surveys `layout` and opens the sources an attempt on `path` imports (the store that reads, or
  /// on the manual path what salvage rebuilds when none does; the defaults' keys). Writes nothing.
  ///
  /// - Parameters:
  ///   - layout: the places to look.
  ///   - defaults: the App Group defaults' legacy keys; nil to ignore them.
  ///   - path: the path the attempt is on (only the manual one salvages).
  ///   - logger: info-level lines only (the inventory, the match, what could not be read).
  public static func gather(
    _ layout: ContainerLayout, defaults: (any LegacyDefaultsSource)?, for path: MigrationSource,
    logger: EngineLogger
  ) -> LegacySources {
    let gathering = LegacySourceGathering(logger: logger)
    let depth: LegacySurvey.Depth = path == .manual ? .contentsAndSalvage : .contents
    let gathered = gathering.survey(
      layout, defaults: defaults, depth: depth, keepsStoreOpen: true)
    return gathering.sources(
      gathered, path: path, defaultsName: defaults?.legacySourceName ?? "", isPickedFile: false)
  }

  /// True when a source offers at least one category (an attempt then merges).
  public var hasCategories: Bool { streams.contains { !$0.categoryTitles.isEmpty } }

  /// Removes the private snapshots now.
  public func close() {
    for case let stream as StoreSourceStream in streams { stream.close() }
  }
}

/// Reads the legacy side of an attempt (pass 1 of the format comment above).
struct LegacySourceGathering {
  let logger: EngineLogger

  /// What was read, with the store to import kept open.
  struct Gathered {
    var survey: LegacySurvey
    /// The store that read, open on its snapshot.
    var openStore: (candidate: LegacyCandidate, store: CoreDataStore, reader: LegacyStoreReader)?
    /// Rows salvage rebuilt, by the path they came from.
    var salvaged: [String: LegacyLibrary] = [:]
  }

  // MARK: - Pass 1: the survey

  /// Surveys `layout` (see ``LegacySurvey``), keeping the store a migration imports open when
  /// `keepsStoreOpen`.
  func survey(
    _ layout: ContainerLayout, defaults source: (any LegacyDefaultsSource)?,
    depth: LegacySurvey.Depth, keepsStoreOpen: Bool
  ) -> Gathered {
    var gathered = Gathered(survey: LegacySurvey(layout: layout, depth: depth))
    let findings = probeAndLog(layout)
    gathered.survey.skipped = findings.skipped
    // Read in the order a migration tries them (the first that reads stays open), listed in probe
    // order.
    var read: [String: LegacySurvey.Store] = [:]
    for candidate in findings.preferenceOrder {
      var store = LegacySurvey.Store(candidate: candidate)
      if depth != .presence {
        store.content = self.read(candidate, into: &gathered, keepsOpen: keepsStoreOpen)
        if case .failed = store.content, depth == .contentsAndSalvage {
          store.salvage = salvage(candidate, into: &gathered)
        }
      }
      read[candidate.path] = store
    }
    gathered.survey.stores = findings.candidates.compactMap { read[$0.path] }
    for wal in findings.orphanWALs {
      var lone = LegacySurvey.LoneWAL(
        candidate: wal, hasValidFrames: Salvager.hasValidFrames(walPath: wal.path))
      if lone.hasValidFrames, depth == .contentsAndSalvage {
        lone.salvage = salvage(wal, into: &gathered)
      }
      gathered.survey.loneWALs.append(lone)
    }
    do {
      if let content = try LegacySourceReader(logger: logger).readDefaults(source) {
        gathered.survey.defaults = .read(content)
      }
    } catch {
      gathered.survey.defaults = .failed(error)
      logger.info("defaults: \(error.description, privacy: .public)")
    }
    return gathered
  }

  /// Surveys one file the user picked (a `.dittorecovery` file or a 2.x store).
  func survey(file path: String, keepsStoreOpen: Bool) -> Gathered {
    var gathered = Gathered(survey: LegacySurvey(layout: nil, depth: .contents))
    let candidate = LegacyCandidate(pickedFile: path)
    var store = LegacySurvey.Store(candidate: candidate)
    store.content = read(candidate, into: &gathered, keepsOpen: keepsStoreOpen)
    gathered.survey.stores = [store]
    return gathered
  }

  /// Reads `candidate` to its end and counts it; the first that reads stays open when asked.
  private func read(
    _ candidate: LegacyCandidate, into gathered: inout Gathered, keepsOpen: Bool
  ) -> LegacySurvey.Content {
    do {
      let store = try CoreDataStore(path: candidate.path)
      let reader = try LegacyStoreReader(store: store)
      let summary = try reader.count()
      if keepsOpen, gathered.openStore == nil {
        gathered.openStore = (candidate, store, reader)
      } else {
        store.snapshot.remove()
      }
      return .read(categories: summary.categories, dittos: summary.dittos)
    } catch {
      logger.info("legacyStoreURL: cannot read \(error.description, privacy: .public)")
      return .failed(error)
    }
  }

  /// What salvage rebuilds from the bytes of `candidate` (a store SQLite cannot read, a lone `-wal`).
  private func salvage(_ candidate: LegacyCandidate, into gathered: inout Gathered)
    -> LegacySurvey.SalvageCount
  {
    do {
      let result = try Salvager.salvage(path: candidate.path, options: SalvageOptions())
      logger.info(
        "salvage: \(candidate.path, privacy: .public): \(result.library.dittoCount) dittos rebuilt from \(result.sources.map { "\($0.kind.rawValue) \($0.pages) pages" }.joined(separator: ", "), privacy: .public)"
      )
      if result.library.dittoCount > 0 { gathered.salvaged[candidate.path] = result.library }
      return .rebuilt(
        categories: result.library.categories.count, dittos: result.library.dittoCount)
    } catch {
      logger.info("salvage: \(error.description, privacy: .public)")
      return .failed(error)
    }
  }

  /// Probes every place and logs the inventory and the match (info level: the survey writes no
  /// line that the unified log keeps).
  func probeAndLog(_ layout: ContainerLayout) -> LegacyStoreProbe.Findings {
    Inventory.produce(for: layout) { line in logger.info("\(line, privacy: .public)") }
    let findings = LegacyStoreProbe.probe(layout)
    for skipped in findings.skipped {
      logger.info(
        "legacyStoreURL: not opened: \(skipped.error.description, privacy: .public)"
      )
    }
    for wal in findings.orphanWALs {
      logger.info(
        "legacyStoreURL: found a -wal without its store: \(wal.path, privacy: .public) (\(wal.bytes) bytes)"
      )
    }
    if let chosen = findings.chosen {
      logger.info(
        "legacyStoreURL: matched \(chosen.path, privacy: .public) (\(chosen.bytes) bytes)")
    } else {
      logger.info("legacyStoreURL: no legacy store in any probed place")
    }
    return findings
  }

  // MARK: - The sources an attempt imports

  /// The sources `path` imports from what was gathered, and the read side of the attempt.
  func sources(
    _ gathered: Gathered, path: MigrationSource, defaultsName: String, isPickedFile: Bool
  ) -> LegacySources {
    let survey = gathered.survey
    var result = AttemptResult()
    result.orphanWALs = survey.loneWALs.filter(\.hasValidFrames).map(\.candidate)
    result.skipped = survey.skipped
    if case .failed(let error) = survey.defaults { result.defaultsError = error }
    let salvageable = path == .manual && !result.orphanWALs.isEmpty
    result.foundLegacyData =
      isPickedFile || survey.chosen != nil || !survey.skipped.isEmpty
      || result.defaultsError != nil || salvageable
      || !survey.sources(for: path).filter { $0.origin == .defaults }.isEmpty
    guard result.foundLegacyData else {
      return LegacySources(survey: survey, streams: [], reports: [], readResult: result)
    }
    result.store = survey.storeToImport?.candidate ?? survey.chosen
    result.readError = survey.decidingReadError
    result.transientReason = survey.transientReason
    var streams: [any MergeSourceStream] = []
    var reports: [LegacySourceReport] = []
    let content: DefaultsLegacyContent?
    if case .read(let read) = survey.defaults { content = read } else { content = nil }
    for source in survey.sources(for: path) {
      switch source.origin {
      case .store(let candidate):
        guard let open = gathered.openStore, open.candidate == candidate else { continue }
        do {
          streams.append(
            try StoreSourceStream(
              kind: source.kind.rawValue, store: open.store, reader: open.reader))
        } catch {
          result.readError = error
          continue
        }
        reports.append(report(source, path: candidate.path))
      case .salvage(let candidate):
        guard let library = gathered.salvaged[candidate.path] else { continue }
        if result.readError != nil {
          logger.info("runMigration: SQLite could not read the store; using salvaged rows")
        }
        result.store = candidate
        result.readError = nil
        result.salvaged = library.dittoCount
        streams.append(MergeSource(kind: .coreData, categories: library.categories))
        reports.append(report(source, path: candidate.path))
      case .defaults:
        // The survey lists a defaults source only for defaults it read; unreadable defaults are
        // `result.defaultsError`, never an empty source.
        guard let content else { continue }
        let categories = source.kind == .pending ? content.pending : content.version1
        streams.append(MergeSource(kind: source.kind, categories: categories))
        reports.append(report(source, path: defaultsName))
      }
    }
    if path == .auto, case .read(_, 0) = survey.storeToImport?.content, !result.orphanWALs.isEmpty {
      logger.info(
        "runMigration(auto): the store read empty; a -wal without its store holds frames (\(result.orphanWALs.map(\.path).joined(separator: ", "), privacy: .public)): use Recover Old Dittos"
      )
    }
    if let error = result.defaultsError {
      var entry = LegacySourceReport(kind: .defaults, path: defaultsName)
      entry.error = error.description
      reports.append(entry)
    }
    result.sources = reports
    return LegacySources(survey: survey, streams: streams, reports: reports, readResult: result)
  }

  private func report(_ source: LegacySurvey.Source, path: String) -> LegacySourceReport {
    var report = LegacySourceReport(kind: source.kind, path: path)
    report.categories = source.categories
    report.dittos = source.dittos
    return report
  }
}
