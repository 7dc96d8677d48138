import LegacyStore
import LibraryMerge
import SafeFiles
import Telemetry

/// What happened after the legacy side was read: the merge's counts and what the library said,
/// or why the attempt stopped.
package struct MergeRecord: Sendable {
  /// Why an attempt stopped before it settled anything.
  package enum Stop: Sendable {
    /// Protected data was not available (`locked`: nothing was read) or the task was cancelled
    /// (`cancelled`: nothing was written).
    case interrupted(TransientReason)
    /// The library could not be read or written (nothing was changed; never a legacy-read error).
    case library(DestinationError)
    /// A store the survey read stopped reading during the import (nothing was changed).
    case source(LegacyStoreError)
  }

  /// Counts of the import (or of its preview); when the merge did not run to its end, what the
  /// sources offered; zero when there was nothing to merge.
  package var counts = ImportCounts()
  /// Why the attempt stopped, if it did.
  package var stop: Stop?
  /// What the library is (iCloud tables, history), as the destination said during the import; nil
  /// when no import ran.
  package var libraryFacts: LibraryFacts?
  /// A preview ran as against an empty library because the library could not be read: why.
  package var libraryWarning: DestinationError?

  /// A record of `counts`, nothing stopped.
  package init(counts: ImportCounts = ImportCounts()) {
    self.counts = counts
  }

  /// The record of an attempt interrupted for `reason`.
  package static func interrupted(_ reason: TransientReason) -> MergeRecord {
    var record = MergeRecord()
    record.stop = .interrupted(reason)
    return record
  }
}

/// Everything one migration attempt did, returned on every path, errors included: the survey and
/// what the attempt took from it, what the merge did, and what the flag became. Every other fact is
/// derived from those. Made by the engine; read-only to everyone else.
public struct MigrationReport: Sendable {
  /// Which path ran.
  package let trigger: MigrationSource
  /// The legacy side: the survey and the sources taken from it.
  package let read: LegacyRead
  /// What the merge did, or why the attempt stopped.
  package let merge: MergeRecord
  /// True for a preview: nothing was written and the flag was not touched.
  public let isDryRun: Bool
  /// What the attempt did to the completion flag and the attempt counter.
  package let flags: FlagChange

  /// The report of an attempt `trigger` started that read `read`, merged (or stopped) as `merge`
  /// says, and left the flags as `flags` says.
  package init(
    trigger: MigrationSource, read: LegacyRead, merge: MergeRecord, flags: FlagChange = .notAsked,
    isDryRun: Bool
  ) {
    self.trigger = trigger
    self.read = read
    self.merge = merge
    self.flags = flags
    self.isDryRun = isDryRun
  }

  /// This report, with the flags as `flags` says (they are decided from its outcome).
  func with(_ flags: FlagChange) -> MigrationReport {
    MigrationReport(trigger: trigger, read: read, merge: merge, flags: flags, isDryRun: isDryRun)
  }

  // MARK: - The flag change (only the automatic path ever writes the flag)

  /// True when this attempt set the completion flag (only the automatic path ever does).
  public var flagSet: Bool { flags.setsFlag }
  /// True when the completion flag is set once this attempt is over (set now or before): nothing
  /// more will arrive automatically. The app creates its presets only then (`docs/EMBEDDING.md`).
  /// False after a transient failure, a cancellation or a library error (the next launch tries
  /// again), and after a permanent `found_unreadable` until the third such attempt.
  public var settled: Bool { flags.isComplete }
  /// Why the flag could not be read or written, if so.
  package var flagError: FlagStoreError? { flags.error }
  /// The automatic path's count of attempts that ended in a permanent `found_unreadable`, as it is
  /// after this attempt. Set on every automatic report, except when the flag store could not be
  /// read or was deliberately not read (protected data not available); nil on the manual path.
  public var attempts: Int? { flags.attempts }

  // MARK: - Derived

  /// What was found and read.
  package var survey: LegacySurvey { read.survey }

  /// How it ended: the only place an outcome is derived from what happened.
  public var outcome: MigrationOutcome {
    if interruption != nil { return .foundUnreadable }
    if destinationError != nil { return .libraryError }
    guard read.foundLegacyData else { return .nothingOnDisk }
    guard readSucceeded else { return .foundUnreadable }
    guard counts.dittosRead > 0 else { return .emptyStore }
    return counts.inserted > 0 ? .success : .noNewData
  }

  /// True when what was found could be read: a store (or salvage), or, without any store, the
  /// defaults.
  package var readSucceeded: Bool {
    if interruption != nil { return false }
    if salvaged != nil { return true }
    if store != nil { return readError == nil }
    return defaultsError == nil && readError == nil
  }

  /// The store that was imported (or, when none could be read, the one that was chosen).
  package var store: LegacyCandidate? { read.store }
  /// Counts of the import (or of its preview). When the merge did not run to its end (a library
  /// error, a cancellation), `categoriesRead` and `dittosRead` are what the sources offered.
  public var counts: ImportCounts { merge.counts }
  /// Why the store could not be read: during the import, else as the survey found it.
  package var readError: LegacyStoreError? {
    if case .source(let error) = merge.stop { return error }
    return read.readError
  }
  /// Why the library could not be read or written (nothing was changed; never a legacy-read error).
  package var destinationError: DestinationError? {
    if case .library(let error) = merge.stop { return error }
    return nil
  }
  /// Dittos rebuilt by salvage from bytes SQLite could not read, when salvage ran.
  package var salvaged: Int? { read.salvaged }
  /// Every legacy source found, with its own counts or error.
  package var sources: [LegacySourceReport] { read.sources }
  /// Why the App Group defaults' legacy keys could not be read, when so.
  package var defaultsError: DefaultsError? { read.defaultsError }
  /// Other stores that read and hold dittos besides the one imported: the automatic path leaves them to
  /// "Recover Old Dittos" (``OtherLegacyStore/imported`` false); the manual path imports them.
  public var otherStores: [OtherLegacyStore] { read.otherStores }
  /// Lone `-wal` files whose store is gone and which are not empty (only the manual path
  /// salvages them).
  package var orphanWALs: [LegacyCandidate] { read.orphanWALs }
  /// Dittos found only in `-wal` frames never committed that this attempt left out (imported only
  /// when asked for by name: `recover --include-never-committed`).
  package var neverCommittedLeft: Int { read.neverCommittedLeft }
  /// Dittos found only in frames never committed that were imported on purpose, in categories of
  /// their own (`… (never committed)`).
  package var neverCommittedIncluded: Int { read.neverCommittedIncluded }
  /// Paths with a store's name that are not regular files (never opened).
  package var skipped: [SkippedCandidate] { read.skipped }
  /// The first failure met that says nothing about the legacy data, when there was one (an
  /// interruption first): the flag and the counter were not written, and a `found_unreadable` line
  /// carries ` reason=<value>`.
  package var transientReason: TransientReason? {
    if let interruption { return interruption }
    if let reason = read.transientReason { return reason }
    if case .source(let error) = merge.stop { return error.kind.transientReason }
    return nil
  }
  /// True for ``LegacyDataMigrator/recoverNow(from:dryRun:)``: the line carries `from=file`.
  package var isFromFile: Bool { read.isPickedFile }
  /// What the library is (iCloud tables, history), as the destination said during the import; nil
  /// when no import ran.
  package var libraryFacts: LibraryFacts? { merge.libraryFacts }
  /// A preview ran as against an empty library because the library could not be read: why.
  package var libraryWarning: DestinationError? { merge.libraryWarning }

  /// Why the attempt stopped before reading (`locked`) or writing (`cancelled`), if it did.
  var interruption: TransientReason? {
    if case .interrupted(let reason) = merge.stop { return reason }
    return nil
  }

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
  package var errorDescription: String? { failure?.description }

  /// The store, library or defaults failure as its file and its reason apart, so that a renderer
  /// names the file as it shows it.
  package var failure: FileProblem? {
    if let destinationError {
      return FileProblem(file: destinationError.file, reason: destinationError.reason)
    }
    return readError?.problem ?? defaultsError?.problem
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

  /// What a dry run says "Recover Old Dittos" would bring: the dittos it would insert; nil when
  /// that is none and something could not be read (the store, the defaults, the library), or the
  /// attempt was interrupted: "could not read" is never 0.
  package var dittosToRecover: Int? {
    if counts.inserted > 0 { return counts.inserted }
    if interruption != nil || libraryWarning != nil || destinationError != nil { return nil }
    if outcome == .foundUnreadable || readError != nil || defaultsError != nil { return nil }
    return 0
  }

  /// The confirmation the app shows before importing (meaningful for a dry run):
  /// "N dittos in M categories will be imported; K are already in your library."
  public var previewMessage: String {
    let dittos = counts.inserted == 1 ? "ditto" : "dittos"
    let categories = counts.categoriesReceivingDittos == 1 ? "category" : "categories"
    // Only what the library holds is "already in your library"; a ditto read twice (a store
    // copied to two places) is imported once and counted once.
    let verb = counts.alreadyInLibrary == 1 ? "is" : "are"
    return
      "\(counts.inserted) \(dittos) in \(counts.categoriesReceivingDittos) \(categories) will be imported; \(counts.alreadyInLibrary) \(verb) already in your library."
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
