import LegacyStore
import LibraryMerge

/// What one attempt found, read and wrote: the single value an outcome is derived from.
package struct AttemptResult: Sendable {
  /// A store file, a defaults source or (manual path) a `-wal` with valid frames was found.
  package var foundLegacyData = false
  /// The store that was read (or, when none could be read, the one that was chosen).
  package var store: LegacyCandidate?
  /// Why the store could not be read; nil once a store (or salvage) was read.
  package var readError: LegacyStoreError?
  /// Why the App Group defaults' legacy keys could not be read.
  package var defaultsError: DefaultsError?
  /// Why the library could not be read or written (nothing was changed).
  package var destinationError: DestinationError?
  /// Dittos rebuilt by salvage, when its rows were used.
  package var salvaged: Int?
  /// Counts of the import (or of its preview).
  package var counts = ImportCounts()
  /// Every legacy source found, with its own counts or error.
  package var sources: [LegacySourceReport] = []
  /// Lone `-wal` files whose store is gone and which are not empty (they may hold dittos, valid
  /// committed frames or not).
  package var orphanWALs: [LegacyCandidate] = []
  /// Dittos salvage found only in `-wal` frames no commit covers that this attempt did not
  /// import (0 when it was asked to include them, or there are none).
  package var neverCommittedLeft = 0
  /// Dittos found only in frames never committed that this attempt imported on purpose (in
  /// categories titled `… (never committed)`).
  package var neverCommittedIncluded = 0
  /// Paths with a store's name that are not regular files (never opened).
  package var skipped: [SkippedCandidate] = []
  /// The first failure met that says nothing about the legacy data (a store not readable now, a
  /// path with a store's name not opened, the defaults not readable now; see `TransientReason`).
  /// While there is one, the automatic path writes neither the counter nor the flag.
  package var transientReason: TransientReason?
  /// Other stores that read and hold dittos besides the one imported (imported too on the manual
  /// path), with how many of their dittos the imported store lacks.
  package var otherStores: [OtherLegacyStore] = []
  /// Why the attempt stopped before it could settle anything, whatever the data: protected data
  /// was not available (`locked`) or the task was cancelled (`cancelled`). Nothing was written.
  package var interruption: TransientReason?

  /// What the library is (iCloud tables, history), as the destination said during the import; nil
  /// when no import ran.
  package var libraryFacts: LibraryFacts?
  /// A preview ran as against an empty library because the library could not be read: why.
  package var libraryWarning: DestinationError?

  /// An attempt that has found and read nothing yet.
  package init() {}

  /// True when what was found could be read: a store (or salvage), or, without any store, the
  /// defaults.
  package var readSucceeded: Bool {
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
  package var candidate: LegacyCandidate
  /// Categories it holds.
  public package(set) var categories: Int
  /// Dittos it holds.
  public package(set) var dittos: Int
  /// How many of its dittos the imported store lacks (by category title and text); nil when they
  /// could not be compared. What "Recover Old Dittos" would add from it.
  public package(set) var missing: Int?
  /// True when this attempt imported it too (the manual path).
  public package(set) var imported: Bool

  /// The file, relative to the place it was found in (`Library/Application Support/Ditto.sqlite`):
  /// for logs and support, never a path the user chose.
  public var relativePath: String { candidate.relativePath }

  /// A store at `candidate` holding `categories` and `dittos`, `missing` of them not in the
  /// imported store, imported by this attempt or not.
  package init(
    candidate: LegacyCandidate, categories: Int, dittos: Int, missing: Int?, imported: Bool
  ) {
    self.candidate = candidate
    self.categories = categories
    self.dittos = dittos
    self.missing = missing
    self.imported = imported
  }
}
