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

/// What one attempt did to the completion flag and the attempt counter, and what they are once it
/// is over: part of its ``MigrationReport``, decided from its outcome (``FlagPolicy``).
package struct FlagChange: Sendable {
  /// True when the completion flag is set once the attempt is over (set now or before).
  package let isComplete: Bool
  /// The attempt counter once the attempt is over; nil on the manual path, and when the flag store
  /// could not be read or was not asked.
  package let attempts: Int?
  /// True when this attempt set the completion flag.
  package let setsFlag: Bool
  /// Why the flags could not be read or written, if so.
  package let error: FlagStoreError?

  /// The flag store was not asked (protected data not available: it would answer defaults).
  package static let notAsked = FlagChange(
    isComplete: false, attempts: nil, setsFlag: false, error: nil)

  /// Nothing written: the completion flag as `read` found it (a preview, the manual path).
  static func observed(_ read: Result<MigrationFlags, FlagStoreError>) -> FlagChange {
    switch read {
    case .success(let flags):
      FlagChange(isComplete: flags.isComplete, attempts: nil, setsFlag: false, error: nil)
    case .failure(let error):
      FlagChange(isComplete: false, attempts: nil, setsFlag: false, error: error)
    }
  }

  /// The flags `current` (as read) left as they are, or (`error`) could not be changed.
  static func kept(_ current: MigrationFlags, error: FlagStoreError? = nil) -> FlagChange {
    FlagChange(
      isComplete: current.isComplete, attempts: current.attempts, setsFlag: false, error: error)
  }

  /// The flags `current` rewritten as `next`.
  static func written(_ next: MigrationFlags, over current: MigrationFlags) -> FlagChange {
    FlagChange(
      isComplete: next.isComplete, attempts: next.attempts,
      setsFlag: next.isComplete && !current.isComplete, error: nil)
  }
}
