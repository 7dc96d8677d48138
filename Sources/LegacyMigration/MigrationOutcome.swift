/// Which path started a migration attempt.
public enum MigrationSource: String, Sendable, Equatable {
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
  /// A store file exists but could not be read (or the library could not be written).
  case foundUnreadable = "found_unreadable"
  /// No store file exists in any probed place.
  case nothingOnDisk = "nothing_on_disk"

  /// The only place an outcome is derived from what happened.
  ///
  /// - Parameters:
  ///   - foundStore: a candidate file existed.
  ///   - readSucceeded: the store (and the library write) completed without error.
  ///   - dittosRead: dittos the complete read offered.
  ///   - inserted: dittos the import added.
  public static func derive(foundStore: Bool, readSucceeded: Bool, dittosRead: Int, inserted: Int)
    -> MigrationOutcome
  {
    guard foundStore else { return .nothingOnDisk }
    guard readSucceeded else { return .foundUnreadable }
    guard dittosRead > 0 else { return .emptyStore }
    return inserted > 0 ? .success : .noNewData
  }
}
