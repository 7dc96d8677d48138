import LegacyStore
import LibraryMerge

/// What one attempt found, read and wrote: the single value an outcome is derived from.
public struct AttemptResult: Sendable {
  /// A store file, a defaults source or (manual path) a `-wal` with valid frames was found.
  public var foundLegacyData = false
  /// The store that was read (or, when none could be read, the one that was chosen).
  public var store: LegacyCandidate?
  /// Why the store could not be read; nil once a store (or salvage) was read.
  public var readError: LegacyStoreError?
  /// Why the App Group defaults' legacy keys could not be read.
  public var defaultsError: DefaultsError?
  /// Why the library could not be read or written (nothing was changed).
  public var destinationError: DestinationError?
  /// Dittos rebuilt by salvage, when its rows were used.
  public var salvaged: Int?
  /// Counts of the import (or of its preview).
  public var counts = ImportCounts()
  /// Every legacy source found, with its own counts or error.
  public var sources: [LegacySourceReport] = []
  /// Lone `-wal` files whose store is gone but which hold valid frames.
  public var orphanWALs: [LegacyCandidate] = []
  /// Paths with a store's name that are not regular files (never opened).
  public var skipped: [SkippedCandidate] = []
  /// The first failure met that says nothing about the legacy data (a store not readable now, a
  /// path with a store's name not opened, the defaults not readable now; see `TransientReason`).
  /// While there is one, the automatic path writes neither the counter nor the flag.
  public var transientReason: TransientReason?
  /// Other stores that read and hold dittos besides the one imported (imported too on the manual
  /// path), with how many of their dittos the imported store lacks.
  public var otherStores: [OtherLegacyStore] = []
  /// Why the attempt stopped before it could settle anything, whatever the data: protected data
  /// was not available (`locked`) or the task was cancelled (`cancelled`). Nothing was written.
  public var interruption: TransientReason?

  /// An attempt that has found and read nothing yet.
  public init() {}

  /// True when what was found could be read: a store (or salvage), or, without any store, the
  /// defaults.
  public var readSucceeded: Bool {
    if interruption != nil { return false }
    if salvaged != nil { return true }
    if store != nil { return readError == nil }
    return defaultsError == nil && readError == nil
  }
}

/// A store that reads and holds dittos besides the one an attempt imported: the automatic path
/// leaves it for "Recover Old Dittos" (which imports it after the chosen store, duplicates skipped);
/// reports name it with a next step.
public struct OtherLegacyStore: Sendable, Equatable {
  /// The file.
  public var candidate: LegacyCandidate
  /// Categories it holds.
  public var categories: Int
  /// Dittos it holds.
  public var dittos: Int
  /// How many of its dittos the imported store lacks (by category title and text); nil when they
  /// could not be compared.
  public var missing: Int?
  /// True when this attempt imported it too (the manual path).
  public var imported: Bool

  /// A store at `candidate` holding `categories` and `dittos`, `missing` of them not in the
  /// imported store, imported by this attempt or not.
  public init(
    candidate: LegacyCandidate, categories: Int, dittos: Int, missing: Int?, imported: Bool
  ) {
    self.candidate = candidate
    self.categories = categories
    self.dittos = dittos
    self.missing = missing
    self.imported = imported
  }
}
