import Foundation
import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

/// The 3.0.2 migrator: finds the legacy data, reads it in full on private snapshots, and merges it
/// into the app's library through a `MigrationDestination`.
///
/// Legacy files are never deleted, truncated, renamed or written, on any path. Every attempt logs
/// exactly one `migration_outcome` line, from one place, and returns a ``MigrationReport``. The
/// migrator knows where legacy data may be (``ContainerLayout``), never where the library or the
/// flags live: the destination and the flag store are the caller's.
///
/// It is `Sendable`, and its entry points are `async`: they run off the main actor (on the task
/// that awaits them), check for cancellation between sources and before the destination writes, and
/// a cancelled attempt writes nothing and counts for nothing.
///
/// ```swift
/// let migrator = LegacyDataMigrator(
///   layout: ContainerLayout(container: groupURL.path, home: NSHomeDirectory()),
///   destination: SwiftDataDestination(container: container), defaults: defaults, logger: logger)
/// let launch = await migrator.migrateIfNeeded(
///   protectedDataAvailable: UIApplication.shared.isProtectedDataAvailable)
/// if launch.isSettled { createPresetsIfThereIsNoProfile() }
/// ```
public final class LegacyDataMigrator: Sendable {
  /// Where to look.
  package let layout: ContainerLayout
  /// The library to import into.
  package let destination: any MigrationDestination
  /// The completion flag and attempt counter.
  package let flags: any MigrationFlagStore
  /// The App Group defaults' legacy keys (1.x list, keyboard additions); nil to ignore them.
  package let legacyDefaults: (any LegacyDefaultsSource)?
  /// Where log lines go (subsystem `io.kern.ditto`, category `LegacyDataMigrator`).
  package let logger: EngineLogger

  /// Automatic attempts ending in a permanent `found_unreadable` after which the flag is set anyway.
  package static let maximumUnreadableAttempts = FlagPolicy.maximumUnreadableAttempts

  /// A migrator for the places of `layout`, importing into `destination`, keeping its flags in
  /// `flags`, reading the App Group defaults' legacy keys from `legacyDefaults` (nil to ignore
  /// them) and logging through `logger`.
  package init(
    layout: ContainerLayout, destination: any MigrationDestination, flags: any MigrationFlagStore,
    legacyDefaults: (any LegacyDefaultsSource)?, logger: EngineLogger
  ) {
    self.layout = layout
    self.destination = destination
    self.flags = flags
    self.legacyDefaults = legacyDefaults
    self.logger = logger
  }

  /// A migrator into an app's library (one fetch, one save per import).
  package convenience init(
    layout: ContainerLayout, destination: some PlanApplyingDestination,
    flags: any MigrationFlagStore, legacyDefaults: (any LegacyDefaultsSource)?,
    logger: EngineLogger
  ) {
    self.init(
      layout: layout, destination: PlanApplyingAdapter(destination) as any MigrationDestination,
      flags: flags, legacyDefaults: legacyDefaults, logger: logger)
  }

  /// A migrator for the places of `layout`, importing into `destination`, keeping its flags in
  /// and reading the legacy keys from the App Group defaults `defaults` (in the app:
  /// `UserDefaultsStore(suiteName: "group.io.kern.ditto")`), logging through `logger`.
  public convenience init(
    layout: ContainerLayout, destination: some PlanApplyingDestination,
    defaults: some MigrationFlagStore & LegacyDefaultsSource, logger: EngineLogger
  ) {
    self.init(
      layout: layout, destination: PlanApplyingAdapter(destination) as any MigrationDestination,
      flags: defaults, legacyDefaults: defaults, logger: logger)
  }

  /// A migrator streaming into a destination of this package (`ditto-recover`'s `Ditto.store`).
  package convenience init(
    layout: ContainerLayout, destination: any MigrationDestination,
    defaults: some MigrationFlagStore & LegacyDefaultsSource, logger: EngineLogger
  ) {
    self.init(
      layout: layout, destination: destination, flags: defaults, legacyDefaults: defaults,
      logger: logger)
  }

  /// The result of ``migrateIfNeeded(protectedDataAvailable:)``.
  public enum AutomaticMigration: Sendable {
    /// The completion flag was set: nothing was probed, read or logged as an outcome.
    case alreadyComplete
    /// An attempt ran.
    case attempted(MigrationReport)

    /// True when the completion flag is set after this launch: nothing more will arrive
    /// automatically, so the app may create its presets (``MigrationReport/settled``).
    public var isSettled: Bool {
      switch self {
      case .alreadyComplete: true
      case .attempted(let report): report.settled
      }
    }

    /// The attempt's report; nil when the flag short-circuited it.
    public var report: MigrationReport? {
      if case .attempted(let report) = self { return report }
      return nil
    }
  }

  // MARK: - The app's entry points (async, off the main actor)

  /// The automatic path, at launch: skipped when `legacyCoreDataMigrationComplete_v302` is set.
  ///
  /// Pass `UIApplication.shared.isProtectedDataAvailable`. When it is false (a launch before the
  /// first unlock after a reboot) nothing is read and nothing is written, not even the flag store
  /// is asked (`UserDefaults` answers defaults then): the attempt ends `found_unreadable` with
  /// `reason=locked` and counts for nothing. The flags of 3.0.0 and 3.0.1 are ignored, so devices
  /// that ran them retry here.
  ///
  /// Attempts on one container take turns, in this process, whatever the number of migrators:
  /// one started while another runs (a tap on "Recover Old Dittos" during the launch's import, a
  /// second scene's launch) waits for it, then plans against what it saved. A task cancelled while
  /// it waits ends `reason=cancelled`, having read and written nothing.
  public func migrateIfNeeded(protectedDataAvailable: Bool) async -> AutomaticMigration {
    await turn.take { automaticAttempt(protectedDataAvailable: protectedDataAvailable) }
  }

  /// The manual path ("Recover Old Dittos"): ignores the flag and never writes it; imports the
  /// chosen store and every other store that reads (duplicates skipped), salvage when nothing
  /// reads, and the defaults' legacy keys. With `dryRun`, writes nothing and logs no outcome line.
  /// Takes its turn as ``migrateIfNeeded(protectedDataAvailable:)`` does.
  public func recoverNow(dryRun: Bool = false) async -> MigrationReport {
    await turn.take { run(AttemptRequest(trigger: .manual, isDryRun: dryRun)) }
  }

  /// The manual path applied to a file the user opened (from Files or AirDrop): a `.dittorecovery`
  /// file or a 2.x store, read on a private snapshot; same merge rules, result and messages as
  /// ``recoverNow(dryRun:)``, and one telemetry line with `source=manual` and `from=file`.
  public func recoverNow(from url: URL, dryRun: Bool = false) async -> MigrationReport {
    await turn.take { run(AttemptRequest(trigger: .manual, isDryRun: dryRun, file: url.path)) }
  }

  /// How many dittos "Recover Old Dittos" would bring now: the number for the menu item.
  ///
  /// It is what ``recoverNow(dryRun:)`` counts, against the library as it is now and across every
  /// store: dittos already in the library count for nothing, and dittos found in several stores
  /// (one store copied to two places) count once, so the tap then recovers exactly this many while
  /// nothing changes. Computed afresh on each call from what is on disk and in the library, it
  /// holds across launches. It reads every store on private snapshots (milliseconds for a typical
  /// library), off the main actor; it writes nothing and logs no outcome line. Takes its turn as
  /// the attempts do.
  ///
  /// - Returns: the count; nil when it cannot be known: nothing would be recovered and something
  ///   could not be read (a store, the defaults, the library), or the task was cancelled.
  public func dittosToRecover() async -> Int? {
    let preview = await turn.take { run(AttemptRequest(trigger: .manual, isDryRun: true)) }
    return preview.dittosToRecover
  }

  /// What is recoverable here, read for real on private snapshots and counted; writes nothing (no
  /// flag, no counter, no library, no line at notice level, no telemetry tag). See ``LegacySurvey``.
  package func survey(_ depth: LegacySurvey.Depth = .contentsAndSalvage) async -> LegacySurvey {
    gathering.survey(layout, defaults: legacyDefaults, depth: depth, keeping: .none).survey
  }

  /// True whenever any store file is present, even a zero-byte or unreadable one, a `-wal` whose
  /// store is gone is not empty (valid frames or not), or the App Group defaults hold 1.x dittos or keyboard
  /// additions (or cannot be read at all). Reads no store: cheap enough to call whenever the menu
  /// is built. Never walks the inventory (migrations log it), and logs what it found only the first
  /// time in a process: building the menu again is silent and costs a probe of a few folders.
  public func hasRecoverableLegacyData() -> Bool {
    let gathered = gathering.survey(
      layout, defaults: legacyDefaults, depth: .presence, keeping: .none,
      logsInventory: false, logsProbe: InventoryLog.claimFirst())
    return gathered.survey.hasRecoverableLegacyData
  }

  // MARK: - The same, synchronous (the package's tools and tests)

  /// ``migrateIfNeeded(protectedDataAvailable:)`` on the caller's thread (its own name: a call never picks
  /// the other by its context).
  package func migrateIfNeededBlocking(protectedDataAvailable: Bool = true) -> AutomaticMigration {
    turn.takeBlocking { automaticAttempt(protectedDataAvailable: protectedDataAvailable) }
  }

  /// What ``migrateIfNeeded(protectedDataAvailable:)`` would do, computed and written nowhere: the
  /// flag is read (a set flag still skips), nothing is written, no outcome line is logged.
  package func previewAutomaticMigration() -> AutomaticMigration {
    turn.takeBlocking { automaticAttempt(protectedDataAvailable: true, dryRun: true) }
  }

  private func automaticAttempt(protectedDataAvailable: Bool, dryRun: Bool = false)
    -> AutomaticMigration
  {
    guard protectedDataAvailable else {
      // The flag store is not asked: before the first unlock it answers defaults.
      return .attempted(run(AttemptRequest(trigger: .auto, interruption: .locked)))
    }
    // Read once per attempt: the attempt's flag change starts from this answer.
    let flagsRead = Result { () throws(FlagStoreError) in try flags.readFlags() }
    switch flagsRead {
    case .success(let current) where current.isComplete:
      logger.info(
        "migrateIfNeeded: \(MigrationFlagKeys.completion, privacy: .public) is set; skipping")
      return .alreadyComplete
    case .failure(let error):
      // Unreadable flags must not block recovery: the import is idempotent.
      logger.info(
        "migrateIfNeeded: the flags cannot be read: \(error.description, privacy: .private); migrating anyway"
      )
    case .success:
      break
    }
    return .attempted(
      run(AttemptRequest(trigger: .auto, isDryRun: dryRun, flagsRead: flagsRead)))
  }

  /// ``recoverNow(dryRun:)`` on the caller's thread.
  package func recoverNowBlocking(dryRun: Bool = false, includingNeverCommitted: Bool = false)
    -> MigrationReport
  {
    turn.takeBlocking {
      run(
        AttemptRequest(
          trigger: .manual, isDryRun: dryRun, includesNeverCommitted: includingNeverCommitted))
    }
  }

  /// ``recoverNow(from:dryRun:)`` on the caller's thread, for a file at `path`.
  package func recoverNowBlocking(fromFile path: String, dryRun: Bool = false) -> MigrationReport {
    turn.takeBlocking { run(AttemptRequest(trigger: .manual, isDryRun: dryRun, file: path)) }
  }

  /// ``survey(_:)`` on the caller's thread.
  package func surveyBlocking(_ depth: LegacySurvey.Depth = .contentsAndSalvage) -> LegacySurvey {
    gathering.survey(layout, defaults: legacyDefaults, depth: depth, keeping: .none).survey
  }

  /// What the seed calls `legacyStoreURL` (its log lines keep that name): probes every place,
  /// reads every candidate, logs the inventory and the match, and returns the store a migration is
  /// about (the one holding the most dittos), as a candidate with its path, sizes and root.
  package func chosenLegacyStore() -> LegacyCandidate? {
    surveyBlocking(.contents).chosen
  }

  /// The legacy keys of the App Group defaults (1.x dittos, keyboard additions); nil without any.
  ///
  /// - Throws: ``DefaultsError/unreadable(file:reason:)`` when they cannot be read, and when their
  ///   legacy keys are present but none holds a value of a usable type: that is data we could not
  ///   read, never "no data".
  package func defaultsLegacyContent() throws(DefaultsError) -> DefaultsLegacyContent? {
    try DefaultsReader(logger: logger).readDefaults(legacyDefaults)
  }

  // MARK: - One attempt

  /// What one attempt is asked to do.
  struct AttemptRequest {
    var trigger: MigrationSource
    var isDryRun = false
    /// A file the user picked instead of the probed places.
    var file: String?
    /// Set when the attempt must not read anything (protected data not available).
    var interruption: TransientReason?
    /// Also import rows salvage finds only in `-wal` frames no commit covers (manual path, asked
    /// for by name).
    var includesNeverCommitted = false
    /// The flags as the automatic path read them before the attempt; nil: read them when needed.
    var flagsRead: Result<MigrationFlags, FlagStoreError>?
  }

  private var gathering: LegacySourceGathering { LegacySourceGathering(logger: logger) }

  /// This container's turn: one attempt at a time (``AttemptTurns``).
  private var turn: AttemptTurns.Turn { AttemptTurns.turn(forContainer: layout.container) }

  /// Runs one attempt and logs its outcome line: the single terminal point of every attempt.
  func run(_ request: AttemptRequest) -> MigrationReport {
    let attempted = attempt(request)
    let report = attempted.with(flagChange(after: attempted, request: request))
    if request.isDryRun {
      logger.info(
        "recoverNow(dry-run): would insert \(report.counts.insertedCategories) categories, \(report.counts.inserted) dittos (skipping \(report.counts.skipped) duplicates)"
      )
    } else {
      // An interruption was logged where it happened, once.
      if let error = report.errorDescription {
        logger.info(
          "runMigration(\(request.trigger.rawValue, privacy: .public)): \(error, privacy: .private)"
        )
      }
      logger.notice("\(report.telemetryLine, privacy: .public)")
    }
    return report
  }

  /// The sources of `request`, open for `body` only: their private snapshots are removed when it
  /// returns, on every path. The one way an attempt reaches its sources: a file the user picked,
  /// or the probed places.
  private func withSources<Result>(
    _ request: AttemptRequest, _ body: (LegacySources) -> Result
  ) -> Result {
    let sources: LegacySources
    if let file = request.file {
      let gathered = gathering.survey(file: file, keepsStoreOpen: true)
      sources = gathering.sources(gathered, selection: SourceSelection(.manual), isPickedFile: true)
      if let error = sources.read.readError {
        // The file the user picked: its path and name are theirs, never public.
        logger.info(
          "recoverNow(file): cannot read the file picked (\(error.code, privacy: .public)): \(error.description, privacy: .private)"
        )
      }
    } else {
      sources = LegacySources.gather(
        layout, defaults: legacyDefaults, for: request.trigger,
        includingNeverCommitted: request.includesNeverCommitted, logger: logger)
    }
    defer { sources.close() }
    return body(sources)
  }

  /// Pass 1 (the sources, surveyed to their end), then pass 2 (the merge, streamed into the
  /// destination): see LegacySources.swift.
  private func attempt(_ request: AttemptRequest) -> MigrationReport {
    if let reason = request.interruption ?? (Task.isCancelled ? .cancelled : nil) {
      logger.info(
        "runMigration(\(request.trigger.rawValue, privacy: .public)): \(MigrationReport.interruptionDescription(reason), privacy: .public)"
      )
      return MigrationReport(
        trigger: request.trigger, read: .notRead(request.trigger), merge: .interrupted(reason),
        isDryRun: request.isDryRun)
    }
    return withSources(request) { sources in
      MigrationReport(
        trigger: request.trigger, read: sources.read, merge: merge(sources, request: request),
        isDryRun: request.isDryRun)
    }
  }

  /// Pass 2 for the sources of one attempt: what they offer, merged (or previewed).
  private func merge(_ sources: LegacySources, request: AttemptRequest) -> MergeRecord {
    let offered = sources.offered
    var record = MergeRecord()
    record.counts.categoriesRead = offered.categories
    record.counts.dittosRead = offered.dittos
    // Between the sources and the merge: a cancelled task stops here, before the library is touched.
    if Task.isCancelled {
      record.stop = .interrupted(.cancelled)
      logger.info(
        "runMigration(\(request.trigger.rawValue, privacy: .public)): \(MigrationReport.interruptionDescription(.cancelled), privacy: .public)"
      )
      return record
    }
    guard sources.hasCategories else { return MergeRecord() }
    logger.info(
      "runMigration(\(request.trigger.rawValue, privacy: .public)): importing \(offered.categories) categories / \(offered.dittos) dittos"
    )
    do throws(ImportFailure) {
      let merged = try merge(sources.streams, dryRun: request.isDryRun)
      record.counts = merged.result.counts
      record.libraryFacts = merged.facts
      record.libraryWarning = merged.warning
    } catch {
      switch error.reason {
      case .library(let problem):
        record.stop = .library(problem)
        logger.info(
          "writeMigratedData: the library cannot be written (\(problem.code, privacy: .public)): \(problem.description, privacy: .private); nothing was changed"
        )
      case .source(let failure):
        let problem =
          failure.error as? LegacyStoreError
          ?? .unreadable(file: sources.read.store?.path ?? "", reason: failure.description)
        record.stop = .source(problem)
        logger.info(
          "runMigration: the store stopped reading during the import (\(problem.code, privacy: .public)): \(problem.description, privacy: .private); nothing was changed"
        )
      case .cancelled:
        record.stop = .interrupted(.cancelled)
        logger.info("runMigration: cancelled before anything was written; nothing was changed")
      }
    }
    return record
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
      guard case .library(let problem) = error.reason else { throw error }
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

  /// What `attempted` does to the flags: on the automatic path, the flags its outcome calls for
  /// (``FlagPolicy``) are written (the store not asked at all when protected data was not
  /// available); elsewhere the completion flag is only read. The flags are read once per attempt.
  private func flagChange(after attempted: MigrationReport, request: AttemptRequest) -> FlagChange {
    let store = flags
    let read = {
      request.flagsRead ?? Result { () throws(FlagStoreError) in try store.readFlags() }
    }
    guard request.trigger == .auto, !request.isDryRun else { return .observed(read()) }
    guard request.interruption == nil else { return .notAsked }
    let current: MigrationFlags
    switch read() {
    case .success(let flags): current = flags
    case .failure(let error):
      logFlagError(error)
      return .observed(.failure(error))
    }
    guard
      let next = FlagPolicy.flags(
        after: attempted.outcome, transientReason: attempted.transientReason, current: current)
    else { return .kept(current) }
    do {
      try flags.writeFlags(next)
    } catch {
      logFlagError(error)
      return .kept(current, error: error)
    }
    return .written(next, over: current)
  }

  private func logFlagError(_ error: FlagStoreError) {
    logger.info("migrateIfNeeded: cannot set the flag: \(error.description, privacy: .private)")
  }
}

/// What `hasRecoverableLegacyData()` logs, at most once per process (it runs whenever the
/// menu is built; migrations log theirs every time).
enum InventoryLog {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var logged = false

  /// True the first time in this process, false ever after.
  static func claimFirst() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if logged { return false }
    logged = true
    return true
  }
}
