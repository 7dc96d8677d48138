import Foundation
import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

/// The 3.0.2 migrator: finds the legacy data, reads it in full on private snapshots, and merges it
/// into the app's library through a ``MigrationDestination``.
///
/// Legacy files are never deleted, truncated, renamed or written, on any path. Every attempt logs
/// exactly one `migration_outcome` line, from one place (``run(_:)``), and returns a
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
      return !(try defaultsLegacyContent()?.isEmpty ?? true)
    } catch {
      return true
    }
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
      logger.warning("migrateIfNeeded: \(error.description, privacy: .public); migrating anyway")
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

  /// Runs one attempt and logs its outcome line: the single terminal point of every attempt.
  func run(_ request: AttemptRequest) -> MigrationReport {
    let result = attempt(request)
    var report = MigrationReport(
      source: request.source, outcome: MigrationOutcome.derive(from: result), result: result)
    report.isDryRun = request.isDryRun
    report.isFromFile = request.file != nil
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
        logger.error(
          "runMigration(\(request.source.rawValue, privacy: .public)): \(error, privacy: .public)")
      }
      logger.notice("\(report.telemetryLine, privacy: .public)")
    }
    return report
  }

  private func attempt(_ request: AttemptRequest) -> AttemptResult {
    let reader = LegacySourceReader(logger: logger)
    var result = AttemptResult()
    var sources: [(LegacySourceReport, MergeSource)] = []
    if let file = request.file {
      result.foundLegacyData = true
      let candidate = LegacyCandidate(pickedFile: file)
      result.store = candidate
      do {
        let library = try reader.readFile(file)
        sources.append(storeSource(library, path: file))
      } catch {
        logger.warning("recoverNow(file): cannot read \(error.description, privacy: .public)")
        result.readError = error
        result.isOutOfSpace = error.code == "no_space_for_snapshot"
      }
    } else {
      let findings = probeAndLog()
      result.orphanWALs = findings.orphanWALs.filter { Salvager.hasValidFrames(walPath: $0.path) }
      var defaults: DefaultsLegacyContent?
      do {
        defaults = try reader.readDefaults(legacyDefaults)
      } catch {
        result.defaultsError = error
        logger.warning("defaults: \(error.description, privacy: .public)")
      }
      let salvageable = request.source == .manual && !result.orphanWALs.isEmpty
      result.foundLegacyData =
        findings.chosen != nil || !(defaults?.isEmpty ?? true) || result.defaultsError != nil
        || salvageable
      guard result.foundLegacyData else { return result }
      let (read, errors) = reader.readFirstReadable(
        findings.preferenceOrder, chosen: findings.chosen)
      result.store = read?.candidate ?? findings.chosen
      if read == nil, let first = errors.first {
        result.readError = first
        result.isOutOfSpace = errors.contains { $0.code == "no_space_for_snapshot" }
      }
      var library = read?.library
      // Only the manual path imports salvaged rows: from stores SQLite could not read, or from a
      // lone -wal when no store (or only an empty one, like 2.x's empty template) could be read.
      if request.source == .manual, library?.isEmpty ?? true {
        let candidates = (read == nil ? findings.preferenceOrder : []) + result.orphanWALs
        if let salvaged = reader.salvage(candidates) {
          if result.readError != nil {
            logger.warning(
              "runMigration(manual): SQLite could not read the store; using salvaged rows")
          }
          library = salvaged.library
          result.store = salvaged.candidate
          result.readError = nil
          result.salvaged = salvaged.library.dittoCount
        }
      } else if library?.isEmpty ?? false, !result.orphanWALs.isEmpty {
        logger.warning(
          "runMigration(auto): the store read empty; a -wal without its store holds frames (\(result.orphanWALs.map(\.path).joined(separator: ", "), privacy: .public)): use Recover Old Dittos"
        )
      }
      if let library, let store = result.store {
        sources.append(storeSource(library, path: store.path))
      }
      sources += defaultsSources(defaults, error: result.defaultsError)
    }
    result.sources = sources.map(\.0)
    guard sources.contains(where: { !$0.1.categories.isEmpty }) else { return result }
    let mergeSources = sources.map(\.1)
    do {
      let plan = try planOrApply(mergeSources, request: request)
      result.counts = plan.counts
      for (index, counts) in plan.countsBySource.enumerated() where index < result.sources.count {
        result.sources[index].categories = counts.categoriesRead
        result.sources[index].dittos = counts.dittosRead
      }
    } catch {
      result.destinationError = error
      logger.error("writeMigratedData: \(error.description, privacy: .public); nothing was changed")
    }
    return result
  }

  /// Previews (dry run: against the library as it is, or an empty one when there is none yet) or
  /// applies the merge of `sources`.
  private func planOrApply(_ sources: [MergeSource], request: AttemptRequest)
    throws(DestinationError) -> ImportPlan
  {
    if request.isDryRun {
      let library: CurrentLibrary
      do {
        library = try destination.currentLibrary()
      } catch  where error.kind == .noLibrary {
        library = .empty
      }
      return MergePlanner.plan(sources, into: library)
    }
    let categories = sources.reduce(0) { $0 + $1.categories.count }
    let dittos = sources.reduce(0) { $0 + $1.dittoCount }
    logger.info(
      "runMigration(\(request.source.rawValue, privacy: .public)): importing \(categories) categories / \(dittos) dittos"
    )
    let plan = try destination.applyImport { MergePlanner.plan(sources, into: $0) }
    if plan.counts.dittosRead == 0 {
      logger.info("writeMigratedData: nothing to write (the store holds no dittos)")
    } else {
      logger.info(
        "writeMigratedData: inserted \(plan.counts.insertedCategories) new categories, \(plan.counts.inserted) new dittos (skipped \(plan.counts.skipped) duplicates)"
      )
    }
    return plan
  }

  private func storeSource(_ library: LegacyLibrary, path: String) -> (
    LegacySourceReport, MergeSource
  ) {
    (
      LegacySourceReport(kind: .coreData, path: path),
      MergeSource(kind: .coreData, categories: library.categories)
    )
  }

  /// The keyboard's pending additions, then 1.x content; an unreadable defaults domain is reported
  /// as one `defaults` source with its error.
  private func defaultsSources(_ content: DefaultsLegacyContent?, error: DefaultsError?)
    -> [(LegacySourceReport, MergeSource)]
  {
    let name = legacyDefaults?.legacySourceName ?? ""
    let reports = LegacySourceReport.defaultsSources(content: content, error: error, path: name)
    return reports.map { report in
      let categories: [LegacyCategory]
      switch report.kind {
      case .pending: categories = content?.pending ?? []
      case .v1: categories = content?.version1 ?? []
      case .coreData, .defaults: categories = []
      }
      return (report, MergeSource(kind: report.kind, categories: categories))
    }
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

  private func updateFlags(_ report: inout MigrationReport) {
    do {
      let current = try flags.readFlags()
      guard
        let next = FlagPolicy.flags(
          after: report.outcome, isOutOfSpace: report.isOutOfSpace, current: current)
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
      logger.warning("migrateIfNeeded: cannot set the flag: \(error.description, privacy: .public)")
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
