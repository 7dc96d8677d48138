import LegacyStore
import LibraryMerge
import Telemetry

/// Everything one migration attempt did, returned on every path, errors included. Made by the
/// engine; read-only to everyone else.
public struct MigrationReport: Sendable {
  /// Which path ran.
  package internal(set) var trigger: MigrationTrigger
  /// How it ended.
  public internal(set) var outcome: MigrationOutcome
  /// The store that was imported (or, when none could be read, the one that was chosen).
  package internal(set) var store: LegacyCandidate? {
    get { result.store }
    set { result.store = newValue }
  }
  /// Counts of the import (or of its preview). When the merge did not run to its end (a library
  /// error, a cancellation), `categoriesRead` and `dittosRead` are what the sources offered.
  public var counts: ImportCounts { result.counts }
  /// Why the store could not be read.
  package internal(set) var readError: LegacyStoreError? {
    get { result.readError }
    set { result.readError = newValue }
  }
  /// Why the library could not be read or written (nothing was changed; never a legacy-read error).
  package internal(set) var destinationError: DestinationError? {
    get { result.destinationError }
    set { result.destinationError = newValue }
  }
  /// True when this attempt set the completion flag (only the automatic path ever does).
  public internal(set) var flagSet = false
  /// True when the completion flag is set once this attempt is over (set now or before): nothing
  /// more will arrive automatically. The app creates its presets only then (`docs/EMBEDDING.md`).
  /// False after a transient failure, a cancellation or a library error (the next launch tries
  /// again), and after a permanent `found_unreadable` until the third such attempt.
  public internal(set) var settled = false
  /// Why the flag could not be read or written, if so.
  package internal(set) var flagError: FlagStoreError?
  /// The automatic path's count of attempts that ended in a permanent `found_unreadable`, as it is
  /// after this attempt. Set on every automatic report, except when the flag store could not be
  /// read or was deliberately not read (protected data not available); nil on the manual path.
  public internal(set) var attempts: Int?
  /// True for a preview: nothing was written and the flag was not touched.
  public internal(set) var isDryRun = false
  /// Dittos rebuilt by salvage from bytes SQLite could not read, when salvage ran.
  package internal(set) var salvaged: Int? {
    get { result.salvaged }
    set { result.salvaged = newValue }
  }
  /// Every legacy source found, with its own counts or error.
  package internal(set) var sources: [LegacySourceReport] {
    get { result.sources }
    set { result.sources = newValue }
  }
  /// Why the App Group defaults' legacy keys could not be read, when so.
  package internal(set) var defaultsError: DefaultsError? {
    get { result.defaultsError }
    set { result.defaultsError = newValue }
  }
  /// Other stores that read and hold dittos besides the one imported: the automatic path leaves them to
  /// "Recover Old Dittos" (``OtherLegacyStore/imported`` false); the manual path imports them.
  public var otherStores: [OtherLegacyStore] { result.otherStores }

  /// Lone `-wal` files whose store is gone and which are not empty (only the manual path
  /// salvages them).
  package internal(set) var orphanWALs: [LegacyCandidate] {
    get { result.orphanWALs }
    set { result.orphanWALs = newValue }
  }
  /// Dittos found only in `-wal` frames never committed that this attempt left out (imported only
  /// when asked for by name: `recover --include-never-committed`).
  package internal(set) var neverCommittedLeft: Int {
    get { result.neverCommittedLeft }
    set { result.neverCommittedLeft = newValue }
  }
  /// Dittos found only in frames never committed that were imported on purpose, in categories of
  /// their own (`… (never committed)`).
  package internal(set) var neverCommittedIncluded: Int {
    get { result.neverCommittedIncluded }
    set { result.neverCommittedIncluded = newValue }
  }
  /// Paths with a store's name that are not regular files (never opened).
  package internal(set) var skipped: [SkippedCandidate] {
    get { result.skipped }
    set { result.skipped = newValue }
  }
  /// The first failure met that says nothing about the legacy data, when there was one: the flag
  /// and the counter were not written, and a `found_unreadable` line carries ` reason=<value>`.
  package internal(set) var transientReason: TransientReason?
  /// True for ``LegacyDataMigrator/recoverNow(from:dryRun:)``: the line carries `from=file`.
  package internal(set) var isFromFile = false
  /// What the library is (iCloud tables, history), as the destination said during the import; nil
  /// when no import ran.
  package var libraryFacts: LibraryFacts? { result.libraryFacts }
  /// A preview ran as against an empty library because the library could not be read: why.
  package var libraryWarning: DestinationError? { result.libraryWarning }

  /// The report of an attempt `trigger` started that ended in `outcome`, nothing counted.
  init(trigger: MigrationTrigger, outcome: MigrationOutcome) {
    self.trigger = trigger
    self.outcome = outcome
  }

  /// The report of an attempt that ended in `outcome` with `result`: the report holds the result
  /// itself (what was found, read and written), never a copy of its facts.
  package init(trigger: MigrationTrigger, outcome: MigrationOutcome, result: AttemptResult) {
    self.init(trigger: trigger, outcome: outcome)
    self.result = result
    transientReason = result.interruption ?? result.transientReason
    interruption = result.interruption
  }

  /// What the attempt found, read and wrote; the facts above are read from it.
  package internal(set) var result = AttemptResult()

  /// Why the attempt stopped before reading (`locked`) or writing (`cancelled`), if it did.
  var interruption: TransientReason?

  /// True when something could not be read for now (a protected or busy file, the defaults before
  /// the first unlock, a cancellation): it says nothing about the old data, the flag and the counter
  /// were left alone, and a later attempt may bring more.
  public var isTransient: Bool { transientReason != nil }

  /// The technical error that decided a `found_unreadable` or `library_error` outcome (file paths,
  /// causes): for logs and support, never for the alert (that is ``detail``).
  public var technicalDetail: String? {
    if let interruption { return Self.interruptionDescription(interruption) }
    return errorDescription
  }

  /// The technical error of a store, library or defaults failure (file and cause).
  package var errorDescription: String? {
    destinationError?.description ?? readError?.description ?? defaultsError?.description
  }

  /// Why nothing (or not everything) could be read or saved, for the person holding the iPhone;
  /// nil when nothing failed.
  public var detail: RecoveryDetail? {
    if let interruption { return RecoveryDetail(interruption: interruption) }
    if let destinationError { return RecoveryDetail(destinationError) }
    if let readError { return RecoveryDetail(readError) }
    if let defaultsError { return RecoveryDetail(defaultsError) }
    return nil
  }

  /// What the "Recover Old Dittos" alert says about this attempt.
  public var recoveryResult: RecoveryResult {
    // A cancel is the user's own, never a failure to investigate.
    if interruption == .cancelled { return .cancelled }
    switch outcome {
    case .nothingOnDisk: return .nothingOnDisk
    case .foundUnreadable:
      return .foundButUnreadable(detail?.text ?? RecoveryDetail.Problem.unreadable.rawValue)
    case .libraryError:
      return .libraryUnavailable(detail?.text ?? RecoveryDetail.Problem.libraryNotSaved.rawValue)
    case .emptyStore: return .emptyStore
    case .success, .noNewData:
      if salvaged != nil, counts.inserted > 0 { return .salvaged(counts.inserted) }
      return .inserted(counts.inserted)
    }
  }

  /// The confirmation the app shows before importing (meaningful for a dry run):
  /// "N dittos in M categories will be imported; K are already in your library."
  public var previewMessage: String {
    let dittos = counts.inserted == 1 ? "ditto" : "dittos"
    let categories = counts.categoriesReceivingDittos == 1 ? "category" : "categories"
    let verb = counts.skipped == 1 ? "is" : "are"
    return
      "\(counts.inserted) \(dittos) in \(counts.categoriesReceivingDittos) \(categories) will be imported; \(counts.skipped) \(verb) already in your library."
  }

  /// The seed's telemetry tag: one line, no user content, every value public.
  ///
  /// `migration_outcome source=<auto|manual> outcome=<code> categories=N dittos=N inserted=N`,
  /// followed by ` salvaged=N` only when salvage ran, ` from=file` for a file the user picked, and
  /// ` reason=<permission|busy|locked|no_space|changing|defaults|not_a_file|cancelled>` when a
  /// `found_unreadable` attempt failed in a way that says nothing about the data (it counted for
  /// nothing). The counts are always what was read, whatever the outcome.
  public var telemetryLine: String {
    TelemetryLine(
      source: trigger, outcome: outcome, categories: counts.categoriesRead,
      dittos: counts.dittosRead, inserted: counts.inserted, salvaged: salvaged,
      from: isFromFile ? .file : nil, reason: transientReason?.rawValue
    ).rendered
  }

  static func interruptionDescription(_ reason: TransientReason) -> String {
    reason == .cancelled
      ? "the attempt was cancelled before it wrote anything"
      : "protected data is not available (before the first unlock): nothing was read or written"
  }
}
