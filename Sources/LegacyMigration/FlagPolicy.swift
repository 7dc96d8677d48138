import LibraryMerge

/// When the automatic path stops retrying: the completion flag after every outcome but
/// `found_unreadable` and `library_error`; after `found_unreadable`, an attempt counter, and the flag
/// after the third such attempt.
public enum FlagPolicy {
  /// Automatic attempts ending in `found_unreadable` after which the flag is set anyway.
  public static let maximumUnreadableAttempts = 3

  /// The flags to write after an automatic attempt, or nil to leave them as they are.
  ///
  /// A library error, and a store that could not be copied for lack of space, move nothing: both
  /// pass, and the next launch must retry.
  public static func flags(
    after outcome: MigrationOutcome, isOutOfSpace: Bool, current: MigrationFlags
  )
    -> MigrationFlags?
  {
    var next = current
    switch outcome {
    case .success, .noNewData, .emptyStore, .nothingOnDisk:
      next.isComplete = true
    case .foundUnreadable:
      guard !isOutOfSpace else { return nil }
      next.attempts += 1
      if next.attempts >= maximumUnreadableAttempts { next.isComplete = true }
    case .libraryError:
      return nil
    }
    return next
  }
}
