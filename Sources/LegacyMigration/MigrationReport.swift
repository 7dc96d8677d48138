import LegacyStore
import LibraryMerge

/// Everything one migration attempt did, returned on every path, errors included.
public struct MigrationReport: Sendable {
  /// Which path ran.
  public var source: MigrationSource
  /// How it ended.
  public var outcome: MigrationOutcome
  /// The store that was read (or, when none could be read, the one that was chosen).
  public var store: LegacyCandidate?
  /// Counts of the import (or of its preview).
  public var counts = ImportCounts()
  /// Why the store could not be read.
  public var readError: LegacyStoreError?
  /// Why the library could not be read or written (nothing was changed; never a legacy-read error).
  public var destinationError: DestinationError?
  /// The completion flag's state after the attempt.
  public var flagSet = false
  /// Why the flag could not be read or written, if so.
  public var flagError: FlagStoreError?
  /// The attempt counter after the attempt (automatic path only).
  public var attempts: Int?
  /// True for a preview: nothing was written and the flag was not touched.
  public var isDryRun = false
  /// Dittos rebuilt by salvage from bytes SQLite could not read, when salvage ran.
  public var salvaged: Int?
  /// Every legacy source found, with its own counts or error.
  public var sources: [LegacySourceReport] = []
  /// Why the App Group defaults' legacy keys could not be read, when so.
  public var defaultsError: DefaultsError?

  /// Lone `-wal` files with valid frames whose store is gone (only the manual path salvages them).
  public var orphanWALs: [LegacyCandidate] = []
  /// Paths with a store's name that are not regular files (never opened).
  public var skipped: [SkippedCandidate] = []
  /// The first failure met that says nothing about the legacy data, when there was one: the flag
  /// and the counter were not written, and a `found_unreadable` line carries ` reason=<value>`.
  public var transientReason: TransientReason?
  /// True for ``LegacyDataMigrator/recoverNow(fromFile:dryRun:)``: the line carries `from=file`.
  public var isFromFile = false
  /// What the library is (iCloud tables, history), as the destination said during the import; nil
  /// when no import ran.
  public var libraryFacts: LibraryFacts?
  /// A preview ran as against an empty library because the library could not be read: why.
  public var libraryWarning: DestinationError?

  /// The report of an attempt on `source` that ended in `outcome`, nothing counted.
  public init(source: MigrationSource, outcome: MigrationOutcome) {
    self.source = source
    self.outcome = outcome
  }

  /// The report of an attempt that ended in `outcome` with `result`.
  public init(source: MigrationSource, outcome: MigrationOutcome, result: AttemptResult) {
    self.init(source: source, outcome: outcome)
    store = result.store
    counts = result.counts
    readError = result.readError
    destinationError = result.destinationError
    salvaged = result.salvaged
    sources = result.sources
    defaultsError = result.defaultsError
    orphanWALs = result.orphanWALs
    skipped = result.skipped
    transientReason = result.transientReason
  }

  /// The error that decided a `found_unreadable` outcome, as a usable string (file and cause).
  public var errorDescription: String? {
    destinationError?.description ?? readError?.description ?? defaultsError?.description
  }

  /// What the "Recover Old Dittos" alert says about this attempt.
  public var recoveryResult: RecoveryResult {
    switch outcome {
    case .nothingOnDisk: return .nothingOnDisk
    case .foundUnreadable:
      let detail = errorDescription ?? "unknown error"
      guard let advice = transientReason?.deviceAdvice else { return .foundButUnreadable(detail) }
      return .foundButUnreadable(detail + ". " + advice)
    case .libraryError: return .libraryUnavailable(errorDescription ?? "unknown error")
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
  /// ` reason=<permission|busy|locked|no_space|changing|defaults|not_a_file>` when a
  /// `found_unreadable` attempt failed in a way that says nothing about the data (it counted for
  /// nothing).
  public var telemetryLine: String {
    var line =
      "migration_outcome source=\(source.rawValue) outcome=\(outcome.rawValue) categories=\(counts.categoriesRead) dittos=\(counts.dittosRead) inserted=\(counts.inserted)"
    if let salvaged { line += " salvaged=\(salvaged)" }
    if isFromFile { line += " from=file" }
    if outcome == .foundUnreadable, let reason = transientReason {
      line += " reason=\(reason.rawValue)"
    }
    return line
  }
}
