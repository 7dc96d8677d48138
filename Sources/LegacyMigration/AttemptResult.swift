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

  /// An attempt that has found and read nothing yet.
  public init() {}

  /// True when what was found could be read: a store (or salvage), or, without any store, the
  /// defaults.
  public var readSucceeded: Bool {
    if salvaged != nil { return true }
    if store != nil { return readError == nil }
    return defaultsError == nil && readError == nil
  }
}
