import Foundation
import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

/// The 3.0.2 migrator: finds the legacy data, reads it in full on private snapshots, and merges it
/// into the app's library through a `MigrationDestination`.
///
/// Legacy files are never deleted, truncated, renamed or written, on any path. Every attempt logs
/// exactly one `migration_outcome` line, from one place (`run(_:)`), and returns a
/// ``MigrationReport``. The migrator knows where legacy data may be (``ContainerLayout``), never where
/// the library or the flags live: the destination and the flag store are the caller's.
///
/// ```swift
/// let defaults = UserDefaultsStore(suiteName: "group.io.kern.ditto")!
/// let migrator = LegacyDataMigrator(
///   layout: ContainerLayout(container: groupURL.path, home: NSHomeDirectory()),
///   destination: SwiftDataDestination(context: context), defaults: defaults, logger: logger)
/// if case .attempted(let report) = migrator.migrateIfNeeded() { … }
/// ```
public final class LegacyDataMigrator {
  /// Where to look.
  public let layout: ContainerLayout
  /// The library to import into.
  public let destination: any MigrationDestination
  /// The completion flag and attempt counter.
  public let flags: any MigrationFlagStore
  /// The App Group defaults' legacy keys (1.x list, keyboard additions); nil to ignore them.
  public let legacyDefaults: (any LegacyDefaultsSource)?
  /// Where log lines go (subsystem `io.kern.ditto`, category `LegacyDataMigrator`).
  public let logger: EngineLogger

  /// Automatic attempts ending in `found_unreadable` after which the flag is set anyway.
  public static let maximumUnreadableAttempts = FlagPolicy.maximumUnreadableAttempts

  /// A migrator for the places of `layout`, importing into `destination`, keeping its flags in
  /// `flags`, reading the App Group defaults' legacy keys from `legacyDefaults` (nil to ignore
  /// them) and logging through `logger`.
  public init(
    layout: ContainerLayout, destination: any MigrationDestination, flags: any MigrationFlagStore,
    legacyDefaults: (any LegacyDefaultsSource)?, logger: EngineLogger
  ) {
    self.layout = layout
    self.destination = destination
    self.flags = flags
    self.legacyDefaults = legacyDefaults
    self.logger = logger
  }

  /// A migrator whose flags and legacy keys live in the same App Group defaults.
  public convenience init(
    layout: ContainerLayout, destination: any MigrationDestination,
    defaults: some MigrationFlagStore & LegacyDefaultsSource, logger: EngineLogger
  ) {
    self.init(
      layout: layout, destination: destination, flags: defaults, legacyDefaults: defaults,
      logger: logger)
  }

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
    gathering.probeAndLog(layout).chosen
  }

  /// True whenever any store file is present, even a zero-byte or unreadable one, a `-wal` whose
  /// store is gone still holds valid frames, or the App Group defaults hold 1.x dittos or keyboard
  /// additions (or cannot be read at all). Reads no store.
  public func hasRecoverableLegacyData() -> Bool {
    survey(.presence).hasRecoverableLegacyData
  }

  /// What is recoverable here, read for real on private snapshots and counted; writes nothing (no
  /// flag, no counter, no library, no line at notice level, no telemetry tag). See ``LegacySurvey``.
  public func survey(_ depth: LegacySurvey.Depth = .contentsAndSalvage) -> LegacySurvey {
    gathering.survey(layout, defaults: legacyDefaults, depth: depth, keepsStoreOpen: false).survey
  }

  /// The legacy side of an attempt on `path`: the survey, and the sources it would import, open
  /// and ready to stream. Writes nothing (``LegacySources/gather(_:defaults:for:logger:)``).
  public func legacySources(for path: MigrationSource) -> LegacySources {
    LegacySources.gather(layout, defaults: legacyDefaults, for: path, logger: logger)
  }

  /// The legacy keys of the App Group defaults (1.x dittos, keyboard additions); nil without any.
  ///
  /// - Throws: ``DefaultsError/unreadable(file:reason:)`` when they cannot be read, and when their
  ///   legacy keys are present but none holds a value of a usable type: that is data we could not
  ///   read, never "no data".
  public func defaultsLegacyContent() throws(DefaultsError) -> DefaultsLegacyContent? {
    try LegacySourceReader(logger: logger).readDefaults(legacyDefaults)
  }

  /// The automatic path: skipped when `legacyCoreDataMigrationComplete_v302` is set.
  ///
  /// The flags of 3.0.0 and 3.0.1 are ignored, so devices that ran them retry here.
  public func migrateIfNeeded() -> AutomaticMigration {
    do {
      if try flags.readFlags().isComplete {
        logger.info(
          "migrateIfNeeded: \(MigrationFlagKeys.completion, privacy: .public) is set; skipping")
        return .alreadyComplete
      }
    } catch {
      // Unreadable flags must not block recovery: the import is idempotent.
      logger.info("migrateIfNeeded: \(error.description, privacy: .public); migrating anyway")
    }
    return .attempted(run(AttemptRequest(source: .auto)))
  }

  /// The manual path ("Recover Old Dittos"): ignores the flag; with `dryRun`, writes nothing.
  public func recoverNow(dryRun: Bool = false) -> MigrationReport {
    run(AttemptRequest(source: .manual, isDryRun: dryRun))
  }

  /// The manual path applied to a file the user picked (a `.dittorecovery` file or a 2.x store),
  /// read on a private snapshot; its telemetry line carries `from=file`.
  public func recoverNow(fromFile path: String, dryRun: Bool = false) -> MigrationReport {
    run(AttemptRequest(source: .manual, isDryRun: dryRun, file: path))
  }

  /// The manual path applied to a file the user opened (from Files or AirDrop): a `.dittorecovery`
  /// file or a 2.x store, read on a private snapshot; same merge rules, result and messages as
  /// ``recoverNow(dryRun:)``, and one telemetry line with `source=manual` and `from=file`.
  public func recoverNow(from url: URL, dryRun: Bool = false) -> MigrationReport {
    recoverNow(fromFile: url.path, dryRun: dryRun)
  }

  // MARK: - One attempt

  /// What one attempt is asked to do.
  struct AttemptRequest {
    var source: MigrationSource
    var isDryRun = false
    /// A file the user picked instead of the probed places.
    var file: String?
  }

  private var gathering: LegacySourceGathering { LegacySourceGathering(logger: logger) }

  /// Runs one attempt and logs its outcome line: the single terminal point of every attempt.
  func run(_ request: AttemptRequest) -> MigrationReport {
    let (result, facts, warning) = attempt(request)
    var report = MigrationReport(
      source: request.source, outcome: MigrationOutcome.derive(from: result), result: result)
    report.isDryRun = request.isDryRun
    report.isFromFile = request.file != nil
    report.libraryFacts = facts
    report.libraryWarning = warning
    if !request.isDryRun, request.source == .auto {
      updateFlags(&report)
    } else {
      report.flagSet = currentFlag(&report)
    }
    if request.isDryRun {
      logger.info(
        "recoverNow(dry-run): would insert \(report.counts.insertedCategories) categories, \(report.counts.inserted) dittos (skipping \(report.counts.skipped) duplicates)"
      )
    } else {
      if let error = report.errorDescription {
        logger.info(
          "runMigration(\(request.source.rawValue, privacy: .public)): \(error, privacy: .public)")
      }
      logger.notice("\(report.telemetryLine, privacy: .public)")
    }
    return report
  }

  /// Pass 1 (the sources, surveyed to their end), then pass 2 (the merge, streamed into the
  /// destination): see LegacySources.swift.
  private func attempt(_ request: AttemptRequest) -> (
    AttemptResult, LibraryFacts?, DestinationError?
  ) {
    let sources: LegacySources
    if let file = request.file {
      let gathered = gathering.survey(file: file, keepsStoreOpen: true)
      sources = gathering.sources(
        gathered, path: request.source, defaultsName: "", isPickedFile: true)
      if let error = sources.readResult.readError {
        logger.info("recoverNow(file): cannot read \(error.description, privacy: .public)")
      }
    } else {
      sources = legacySources(for: request.source)
    }
    defer { sources.close() }
    var result = sources.readResult
    guard sources.hasCategories else { return (result, nil, nil) }
    let categories = sources.reports.reduce(0) { $0 + $1.categories }
    let dittos = sources.reports.reduce(0) { $0 + $1.dittos }
    logger.info(
      "runMigration(\(request.source.rawValue, privacy: .public)): importing \(categories) categories / \(dittos) dittos"
    )
    do throws(ImportFailure) {
      let merged = try merge(sources.streams, dryRun: request.isDryRun)
      result.counts = merged.result.counts
      return (result, merged.facts, merged.warning)
    } catch {
      switch error {
      case .library(let problem):
        result.destinationError = problem
        logger.info(
          "writeMigratedData: \(problem.description, privacy: .public); nothing was changed")
      case .source(let failure):
        let problem =
          failure.error as? LegacyStoreError
          ?? .unreadable(file: result.store?.path ?? "", reason: failure.description)
        result.readError = problem
        result.transientReason = result.transientReason ?? problem.kind.transientReason
        logger.info(
          "runMigration: the store stopped reading during the import: \(problem.description, privacy: .public); nothing was changed"
        )
      }
    }
    return (result, nil, nil)
  }

  /// Pass 2: the merge of `streams` into the destination, or (dry run) its preview. A preview
  /// shows what would be recovered as against an empty library whatever is wrong with the one
  /// there (no library yet, a damaged one); the warning says what.
  private func merge(_ streams: [any MergeSourceStream], dryRun: Bool) throws(ImportFailure) -> (
    result: LibraryMerger.Result, facts: LibraryFacts, warning: DestinationError?
  ) {
    func body(_ session: any ImportSession) throws(ImportFailure) -> (
      LibraryMerger.Result, LibraryFacts
    ) {
      (try LibraryMerger.merge(streams, into: session), session.facts)
    }
    guard dryRun else {
      let (merged, facts) = try destination.applyImport(body)
      logWritten(merged.counts)
      return (merged, facts, nil)
    }
    do throws(ImportFailure) {
      let (merged, facts) = try destination.previewImport(body)
      return (merged, facts, nil)
    } catch {
      guard case .library(let problem) = error else { throw error }
      let (merged, facts) = try body(PlanSession(library: .empty))
      return (merged, facts, problem)
    }
  }

  private func logWritten(_ counts: ImportCounts) {
    if counts.dittosRead == 0 {
      logger.info("writeMigratedData: nothing to write (the store holds no dittos)")
    } else {
      logger.info(
        "writeMigratedData: inserted \(counts.insertedCategories) new categories, \(counts.inserted) new dittos (skipped \(counts.skipped) duplicates)"
      )
    }
  }

  // MARK: - Flag

  private func updateFlags(_ report: inout MigrationReport) {
    do {
      let current = try flags.readFlags()
      guard
        let next = FlagPolicy.flags(
          after: report.outcome, transientReason: report.transientReason, current: current)
      else {
        report.flagSet = current.isComplete
        return
      }
      if report.outcome == .foundUnreadable { report.attempts = next.attempts }
      try flags.writeFlags(next)
      report.flagSet = next.isComplete
    } catch {
      report.flagError = error
      report.flagSet = currentFlag(&report)
      logger.info("migrateIfNeeded: cannot set the flag: \(error.description, privacy: .public)")
    }
  }

  private func currentFlag(_ report: inout MigrationReport) -> Bool {
    do {
      return try flags.readFlags().isComplete
    } catch {
      if report.flagError == nil { report.flagError = error }
      return false
    }
  }
}

@available(*, unavailable)
extension LegacyDataMigrator: Sendable {}
