import Foundation
import LibraryMerge

/// The App Group defaults as a legacy source: the 1.x list and the keyboard's queued additions.
///
/// Only ever read. The app reads them through `UserDefaults(suiteName:)` (``UserDefaultsStore``);
/// `ditto-recover` from the plist of a container copy (`AppGroupDefaults`, module ContainerFiles).
public protocol LegacyDefaultsSource {
  /// Where the values live, for reports (a path, or `UserDefaults(<suite>)`).
  var legacySourceName: String { get }

  /// Every value of the defaults domain; nil when there is none at all.
  ///
  /// - Throws: ``DefaultsError`` when it exists but cannot be read.
  func legacyValues() throws(DefaultsError) -> [String: Any]?
}

/// The App Group defaults through `UserDefaults(suiteName:)`: what the app itself uses, on device the
/// preferences daemon's (never a file the engine writes).
///
/// ```swift
/// let store = try #require(UserDefaultsStore(suiteName: "group.io.kern.ditto"))
/// let migrator = LegacyDataMigrator(layout: layout, destination: swiftData, defaults: store, logger: log)
/// ```
public final class UserDefaultsStore: MigrationFlagStore, LegacyDefaultsSource, @unchecked Sendable
{
  /// The keys that may hold legacy content.
  public static let legacyKeys = ["dittos", "categories", "pendingCategories", "pendingDittos"]

  /// The suite (App Group identifier).
  public let suiteName: String
  private let defaults: UserDefaults

  /// Nil when Foundation refuses the suite name.
  public init?(suiteName: String) {
    guard let defaults = UserDefaults(suiteName: suiteName) else { return nil }
    self.suiteName = suiteName
    self.defaults = defaults
  }

  public func readFlags() throws(FlagStoreError) -> MigrationFlags {
    MigrationFlags(
      isComplete: defaults.bool(forKey: MigrationFlagKeys.completion),
      attempts: defaults.integer(forKey: MigrationFlagKeys.attempts))
  }

  public func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    let current = try readFlags()
    if flags.isComplete != current.isComplete {
      defaults.set(flags.isComplete, forKey: MigrationFlagKeys.completion)
    }
    if flags.attempts != current.attempts {
      defaults.set(flags.attempts, forKey: MigrationFlagKeys.attempts)
    }
  }

  public var legacySourceName: String { "UserDefaults(\(suiteName))" }

  public func legacyValues() throws(DefaultsError) -> [String: Any]? {
    var values: [String: Any] = [:]
    for key in Self.legacyKeys {
      if let value = defaults.object(forKey: key) { values[key] = value }
    }
    return values.isEmpty ? nil : values
  }
}
