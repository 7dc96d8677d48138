/// Which path started a migration attempt (the `source=` field of the telemetry line).
package enum MigrationTrigger: String, Sendable, Equatable {
  /// `migrateIfNeeded` at launch: honours the completion flag.
  case auto
  /// "Recover Old Dittos" (`recoverNow`): ignores the flag.
  case manual
}

/// How an attempt ended. The raw values are the telemetry codes of the `migration_outcome` line.
public enum MigrationOutcome: String, Sendable, Equatable, CaseIterable {
  /// Dittos were inserted.
  case success
  /// The store was read and held dittos, all already in the library.
  case noNewData = "no_new_data"
  /// The store was read in full and held no ditto.
  case emptyStore = "empty_store"
  /// A store file exists but could not be read.
  case foundUnreadable = "found_unreadable"
  /// No store file exists in any probed place.
  case nothingOnDisk = "nothing_on_disk"
  /// The legacy data was read, but the current library could not be read or written: nothing was
  /// changed. Never a legacy-read error.
  case libraryError = "library_error"

  /// The only place an outcome is derived from what happened.
  package static func derive(from result: AttemptResult) -> MigrationOutcome {
    if result.interruption != nil { return .foundUnreadable }
    if result.destinationError != nil { return .libraryError }
    guard result.foundLegacyData else { return .nothingOnDisk }
    guard result.readSucceeded else { return .foundUnreadable }
    guard result.counts.dittosRead > 0 else { return .emptyStore }
    return result.counts.inserted > 0 ? .success : .noNewData
  }
}
