/// The completion flag and the attempt counter of the automatic path.
public struct MigrationFlags: Sendable, Equatable {
  /// `legacyCoreDataMigrationComplete_v302`.
  public var isComplete: Bool
  /// `legacyCoreDataMigrationAttempts_v302`: automatic attempts that ended `found_unreadable`.
  public var attempts: Int

  /// Flags with the completion flag `isComplete` and the counter `attempts` (none set by default).
  public init(isComplete: Bool = false, attempts: Int = 0) {
    self.isComplete = isComplete
    self.attempts = attempts
  }
}

/// Where the flags live: `UserDefaults(suiteName: "group.io.kern.ditto")` in the app, the App Group
/// preferences plist of a container copy in `ditto-recover`.
///
/// A custom store keeps two values under the keys of `MigrationFlagKeys` (module LegacyMigration):
/// `legacyCoreDataMigrationComplete_v302` (a Boolean, false when absent) and
/// `legacyCoreDataMigrationAttempts_v302` (an integer, 0 when absent). Requirements:
/// - ``readFlags()`` answers what is stored, or throws; it never answers "not set" for a value it
///   could not read.
/// - ``writeFlags(_:)`` changes only those two keys and is durable once it returns; every other key
///   of the store keeps its value.
/// - The migrator calls ``writeFlags(_:)`` only after an attempt that settled something (never
///   after a transient failure, a cancelled attempt or a library error), and never on the manual
///   path.
public protocol MigrationFlagStore: Sendable {
  /// The current flags (defaults when none were ever written).
  ///
  /// - Throws: ``FlagStoreError`` when they cannot be read.
  func readFlags() throws(FlagStoreError) -> MigrationFlags

  /// Stores `flags`, keeping everything else the store holds.
  ///
  /// - Throws: ``FlagStoreError`` when they cannot be written.
  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError)
}

/// Why the flags could not be read or written.
public struct FlagStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The store (a file path, or `UserDefaults(<suite>)`).
  public var store: String
  /// Why, in words.
  public var reason: String

  /// An error of the flag store `store` (a path, or `UserDefaults(<suite>)`), for `reason`.
  public init(store: String, reason: String) {
    self.store = store
    self.reason = reason
  }

  public var description: String { "\(store): \(reason)" }
}
