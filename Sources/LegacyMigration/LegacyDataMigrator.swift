import DittoLibrary
import LegacyStore
import Salvage
import Telemetry

/// The 3.0.2 migrator: finds the 2.x store, reads it on a snapshot, merges it into the library.
///
/// Legacy files are never deleted, truncated, renamed or written, on any path. Every attempt logs exactly
/// one `migration_outcome` line, from one place (``run(source:isDryRun:)``), and returns a
/// ``MigrationReport``.
///
/// ```swift
/// let migrator = LegacyDataMigrator(layout: ContainerLayout(container: groupURL.path), logger: logger)
/// if case .attempted(let report) = migrator.migrateIfNeeded() { … }
/// ```
public final class LegacyDataMigrator {
  /// Where to look.
  public let layout: ContainerLayout
  /// The library to import into.
  public let libraryPath: String
  /// Where log lines go (subsystem `io.kern.ditto`, category `LegacyDataMigrator`).
  public let logger: Logger
  /// Called at each point where a crash must leave everything consistent (tests stop the process
  /// there): after each write of an import, after the commit, after the flag is written.
  public var faultHook: (@Sendable (FaultPoint) -> Void)?

  /// The points ``faultHook`` is called at.
  public enum FaultPoint: Sendable, Equatable {
    /// The import wrote its Nth step (a row, or one category's rows), inside its transaction.
    case wrote(Int)
    /// The import committed; the flag is not written yet.
    case committed
    /// The App Group defaults were replaced (flag or attempt counter).
    case flagWritten
  }
  /// Automatic attempts ending in `found_unreadable` after which the flag is set anyway.
  public static let maximumUnreadableAttempts = 3

  public init(layout: ContainerLayout, libraryPath: String? = nil, logger: Logger) {
    self.layout = layout
    self.libraryPath = libraryPath ?? layout.defaultLibraryPath
    self.logger = logger
  }

  /// The App Group defaults holding the completion flag.
  public var defaults: AppGroupDefaults { AppGroupDefaults(path: layout.defaultsPath) }

  /// The result of ``migrateIfNeeded()``.
  public enum AutomaticMigration: Sendable {
    /// The completion flag was set: nothing was probed, read or logged as an outcome.
    case alreadyComplete
    /// An attempt ran.
    case attempted(MigrationReport)
  }

  // MARK: - The seed's entry points

  /// Probes every place, logs the inventory and the match, and returns the chosen store (largest wins).
  public func legacyStoreURL() -> LegacyCandidate? {
    probeAndLog().chosen
  }

  /// True whenever any store file is present, even a zero-byte or unreadable one, a `-wal` whose
  /// store is gone still holds valid frames, or the App Group defaults hold 1.x dittos or keyboard
  /// additions (or cannot be read at all).
  public func hasRecoverableLegacyData() -> Bool {
    let findings = LegacyStoreProbe.probe(layout)
    if !findings.candidates.isEmpty { return true }
    if findings.orphanWALs.contains(where: { Salvager.hasValidFrames(walPath: $0.path) }) {
      return true
    }
    do {
      guard let values = try defaults.load() else { return false }
      return !DefaultsLegacyContent(values: values).isEmpty
    } catch {
      return true
    }
  }

  /// The legacy keys of the App Group defaults (1.x dittos, keyboard additions); nil without a file.
  ///
  /// - Throws: ``DefaultsError`` when the file exists but cannot be read.
  ///
  /// - Throws: ``DefaultsError/unreadable(file:reason:)`` when the file cannot be read, and when its
  ///   legacy keys are present but none of them holds a value of a usable type: that is data we could
  ///   not read, never "no data".
  public func defaultsLegacyContent() throws(DefaultsError) -> DefaultsLegacyContent? {
    guard let values = try defaults.load() else { return nil }
    let content = DefaultsLegacyContent(values: values)
    if content.isEmpty, !content.problems.isEmpty {
      throw .unreadable(
        file: defaults.path,
        reason: "legacy keys of an unexpected type: \(content.problems.joined(separator: ", "))")
    }
    return content
  }

  /// The automatic path: skipped when `legacyCoreDataMigrationComplete_v302` is set.
  ///
  /// The flags of 3.0.0 and 3.0.1 are ignored, so devices that ran them retry here.
  public func migrateIfNeeded() -> AutomaticMigration {
    do {
      if try defaults.isMigrationComplete() {
        logger.info(
          "migrateIfNeeded: \(AppGroupDefaults.completionKey, privacy: .public) is set; skipping")
        return .alreadyComplete
      }
    } catch {
      // An unreadable defaults file must not block recovery: the import is idempotent.
      logger.warning("migrateIfNeeded: \(error.description, privacy: .public); migrating anyway")
    }
    return .attempted(run(source: .auto, isDryRun: false))
  }

  /// The manual path ("Recover Old Dittos"): ignores the flag; with `dryRun`, writes nothing.
  public func recoverNow(dryRun: Bool = false) -> MigrationReport {
    run(source: .manual, isDryRun: dryRun)
  }

  // MARK: - One attempt

  /// Runs one attempt and logs its outcome line: the single terminal point of every attempt.
  func run(source: MigrationSource, isDryRun: Bool) -> MigrationReport {
    var report = attempt(source: source, isDryRun: isDryRun)
    if !isDryRun, source == .auto {
      updateFlag(&report)
    } else {
      report.flagSet = currentFlag(&report)
    }
    if isDryRun {
      logger.info(
        "recoverNow(dry-run): would insert \(report.counts.insertedCategories) categories, \(report.counts.inserted) dittos (skipping \(report.counts.skipped) duplicates)"
      )
    } else {
      if let error = report.errorDescription {
        logger.error(
          "runMigration(\(source.rawValue, privacy: .public)): \(error, privacy: .public)")
      }
      logger.notice("\(report.telemetryLine, privacy: .public)")
    }
    return report
  }

  private func attempt(source: MigrationSource, isDryRun: Bool) -> MigrationReport {
    let findings = probeAndLog()
    var report = MigrationReport(source: source, outcome: .foundUnreadable)
    report.isDryRun = isDryRun
    report.store = findings.chosen
    let defaultsContent = readDefaultsContent(&report)
    let hasDefaultsSource = !(defaultsContent?.isEmpty ?? true) || report.defaultsError != nil
    // A -wal whose store was deleted still holds dittos: only the manual path rebuilds them.
    let orphanWALs =
      source == .manual
      ? findings.orphanWALs.filter { Salvager.hasValidFrames(walPath: $0.path) } : []
    guard findings.chosen != nil || hasDefaultsSource || !orphanWALs.isEmpty else {
      report.outcome = .nothingOnDisk
      return report
    }
    // Try stores largest first; the first that opens is imported with the defaults sources. A store
    // that fails halfway is rolled back and the next candidate (or the defaults alone) is tried.
    var candidates = findings.preferenceOrder.map(Optional.some)
    candidates.append(nil)
    for candidate in candidates {
      if let candidate, candidate != findings.chosen {
        logger.info(
          "legacyStoreURL: falling back to \(candidate.path, privacy: .public) (\(candidate.bytes) bytes)"
        )
      }
      do {
        var store: CoreDataStore?
        var reader: DittoStoreReader?
        var salvaged: LegacyLibrary?
        if let candidate {
          let opened = try CoreDataStore(path: candidate.path)
          store = opened
          reader = try DittoStoreReader(store: opened)
        } else if source == .manual,
          let rebuilt = salvage(findings.preferenceOrder + orphanWALs, report: &report)
        {
          salvaged = rebuilt
        }
        defer { store?.snapshot.remove() }
        report.sources = sourceReports(
          candidate: candidate ?? (salvaged != nil ? report.store : nil), defaults: defaultsContent,
          defaultsError: report.defaultsError)
        report.counts = try importSources(
          reader: reader, salvaged: salvaged, defaults: defaultsContent, source: source,
          isDryRun: isDryRun, sources: &report.sources)
        if let candidate {
          report.store = candidate
          report.readError = nil
        }
        let unreadable =
          salvaged == nil
          && ((findings.chosen != nil && candidate == nil)
            || (findings.chosen == nil && report.defaultsError != nil))
        report.outcome = MigrationOutcome.derive(
          foundStore: true, readSucceeded: !unreadable, dittosRead: report.counts.dittosRead,
          inserted: report.counts.inserted)
        return report
      } catch let error as LegacyStoreError {
        logger.warning("legacyStoreURL: cannot read \(error.description, privacy: .public)")
        if report.readError == nil { report.readError = error }
      } catch let error as LibraryError {
        report.libraryError = error
        report.outcome = .foundUnreadable
        return report
      } catch {
        report.libraryError = .writeFailed(file: libraryPath, reason: "\(error)")
        report.outcome = .foundUnreadable
        return report
      }
    }
    return report
  }

  /// Rebuilds dittos from the bytes of the first candidate salvage can decode (stores SQLite could not
  /// open, then lone `-wal` files). Sets `report.salvaged` and `report.store`; nil when none decodes.
  private func salvage(_ candidates: [LegacyCandidate], report: inout MigrationReport)
    -> LegacyLibrary?
  {
    var fallback: (LegacyCandidate, LegacyLibrary)?
    for candidate in candidates {
      do {
        let result = try Salvager.salvage(path: candidate.path, options: SalvageOptions())
        logger.info(
          "salvage: \(candidate.path, privacy: .public): \(result.library.dittoCount) dittos rebuilt from \(result.sources.map { "\($0.kind.rawValue) \($0.pages) pages" }.joined(separator: ", "), privacy: .public)"
        )
        // Rows rebuilt, or nothing: an unreadable store that salvage finds empty stays unreadable
        // ("could not read" never becomes "empty").
        if result.library.dittoCount > 0 {
          fallback = (candidate, result.library)
          break
        }
      } catch {
        logger.warning("salvage: \(error.description, privacy: .public)")
      }
    }
    guard let (candidate, library) = fallback else { return nil }
    if let error = report.readError {
      logger.warning(
        "runMigration(manual): SQLite could not read the store (\(error.code, privacy: .public)); using salvaged rows"
      )
    }
    report.readError = nil
    report.store = candidate
    report.salvaged = library.dittoCount
    return library
  }

  /// The App Group defaults' legacy keys; nil when there is no defaults file.
  private func readDefaultsContent(_ report: inout MigrationReport) -> DefaultsLegacyContent? {
    do {
      guard let content = try defaultsLegacyContent() else { return nil }
      for problem in content.problems {
        logger.warning("defaults: ignored \(problem, privacy: .public): unexpected type")
      }
      return content
    } catch {
      report.defaultsError = error
      logger.warning("defaults: \(error.description, privacy: .public)")
      return nil
    }
  }

  private func sourceReports(
    candidate: LegacyCandidate?, defaults: DefaultsLegacyContent?, defaultsError: DefaultsError?
  ) -> [LegacySourceReport] {
    var reports: [LegacySourceReport] = []
    if let candidate { reports.append(LegacySourceReport(kind: .coreData, path: candidate.path)) }
    reports += LegacySourceReport.defaultsSources(
      content: defaults, error: defaultsError, path: layout.defaultsPath)
    return reports
  }

  /// Imports the store (when readable), then the keyboard's pending additions, then 1.x content,
  /// in one transaction, counting each source's share.
  private func importSources(
    reader: DittoStoreReader?, salvaged: LegacyLibrary?, defaults: DefaultsLegacyContent?,
    source: MigrationSource, isDryRun: Bool, sources: inout [LegacySourceReport]
  ) throws -> ImportCounts {
    var perSource = sources
    for index in perSource.indices {
      perSource[index].categories = 0
      perSource[index].dittos = 0
    }
    func forward(
      _ item: LegacyItem, from kind: LegacySourceReport.Kind, to sink: (LegacyItem) throws -> Void
    ) throws {
      if let index = perSource.firstIndex(where: { $0.kind == kind }) {
        switch item {
        case .category: perSource[index].categories += 1
        case .ditto: perSource[index].dittos += 1
        }
      }
      try sink(item)
    }
    let defaultsItems: LegacyItemSource = { sink in
      try salvaged?.categories.emit { try forward($0, from: .coreData, to: sink) }
      try defaults?.pending.emit { try forward($0, from: .pending, to: sink) }
      try defaults?.version1.emit { try forward($0, from: .v1, to: sink) }
    }
    defer { sources = perSource }
    if isDryRun {
      let library = try LibraryStore.openReadOnly(path: libraryPath)
      return try library.previewImport { sink in
        if let reader { try reader.walk { try forward($0, from: .coreData, to: sink) } }
        try defaultsItems(sink)
      }
    }
    let library = try LibraryStore(path: libraryPath)
    if let faultHook { library.writeStepHook = { faultHook(.wrote($0)) } }
    let announce: (ImportCounts) -> Void = { counts in
      self.logger.info(
        "runMigration(\(source.rawValue, privacy: .public)): importing \(counts.categoriesRead) categories / \(counts.dittosRead) dittos"
      )
    }
    let counts: ImportCounts
    if let reader, let bulk = try reader.makeBulkSource() {
      // The store is copied by SQL (no row passes through Swift); the defaults' items follow.
      counts = try library.importItems(bulk: bulk, then: defaultsItems, willFinish: announce)
      if let index = perSource.firstIndex(where: { $0.kind == .coreData }) {
        let others = perSource.filter { $0.kind != .coreData }
        perSource[index].categories = bulk.categories.count
        perSource[index].dittos = counts.dittosRead - others.reduce(0) { $0 + $1.dittos }
      }
    } else {
      counts = try library.importItems(
        { sink in
          if let reader { try reader.walk { try forward($0, from: .coreData, to: sink) } }
          try defaultsItems(sink)
        }, willFinish: announce)
    }
    if counts.dittosRead == 0 {
      logger.info("writeMigratedData: nothing to write (the store holds no dittos)")
    } else {
      logger.info(
        "writeMigratedData: inserted \(counts.insertedCategories) new categories, \(counts.inserted) new dittos (skipped \(counts.skipped) duplicates)"
      )
    }
    try library.close()
    if counts.dittosRead > 0 { faultHook?(.committed) }
    return counts
  }

  // MARK: - Probe and inventory

  private func probeAndLog() -> LegacyStoreProbe.Findings {
    Inventory.produce(for: layout) { line in logger.info("\(line, privacy: .public)") }
    let findings = LegacyStoreProbe.probe(layout)
    for skipped in findings.skipped {
      logger.warning(
        "legacyStoreURL: skipped \(skipped.path, privacy: .public): \(skipped.reason, privacy: .public)"
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

  // MARK: - Flag

  private func updateFlag(_ report: inout MigrationReport) {
    do {
      var changes: [String: Any] = [:]
      switch report.outcome {
      case .success, .noNewData, .emptyStore, .nothingOnDisk:
        changes[AppGroupDefaults.completionKey] = true
      case .foundUnreadable:
        guard report.libraryError == nil else {
          report.flagSet = currentFlag(&report)
          return
        }
        let attempts = try defaults.attempts() + 1
        report.attempts = attempts
        changes[AppGroupDefaults.attemptsKey] = attempts
        if attempts >= Self.maximumUnreadableAttempts {
          changes[AppGroupDefaults.completionKey] = true
        }
      }
      let values = try defaults.update(changes)
      faultHook?(.flagWritten)
      report.flagSet = AppGroupDefaults.bool(values[AppGroupDefaults.completionKey])
    } catch {
      report.flagError = error
      report.flagSet = currentFlag(&report)
      logger.warning("migrateIfNeeded: cannot set the flag: \(error.description, privacy: .public)")
    }
  }

  private func currentFlag(_ report: inout MigrationReport) -> Bool {
    do {
      return try defaults.isMigrationComplete()
    } catch {
      if report.flagError == nil { report.flagError = error }
      return false
    }
  }
}

@available(*, unavailable)
extension LegacyDataMigrator: Sendable {}
