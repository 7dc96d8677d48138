import LegacyStore
import LibraryMerge
import Telemetry

/// When the automatic path stops retrying: the completion flag after every outcome but
/// `found_unreadable` and `library_error`; after a permanent `found_unreadable`, an attempt
/// counter, and the flag after the third such attempt. An attempt that met a transient failure
/// (`TransientReason`) writes nothing at all: "not now" is never "gone".
public enum FlagPolicy {
  /// Automatic attempts ending in a permanent `found_unreadable` after which the flag is set anyway.
  public static let maximumUnreadableAttempts = 3

  /// The flags to write after an automatic attempt, or nil to leave the flag store untouched.
  ///
  /// A library error, and any failure that says nothing about the legacy data (a store not
  /// readable now, a path with a store's name that was not opened, the defaults not readable now),
  /// move nothing: the next launch must retry.
  package static func flags(
    after outcome: MigrationOutcome, transientReason: TransientReason?, current: MigrationFlags
  ) -> MigrationFlags? {
    guard transientReason == nil else { return nil }
    var next = current
    switch outcome {
    case .success, .noNewData, .emptyStore, .nothingOnDisk:
      next.isComplete = true
    case .foundUnreadable:
      next.attempts += 1
      if next.attempts >= maximumUnreadableAttempts { next.isComplete = true }
    case .libraryError:
      return nil
    }
    return next == current ? nil : next
  }
}
