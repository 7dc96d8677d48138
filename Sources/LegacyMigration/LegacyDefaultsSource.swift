import Foundation
import LibraryMerge
import PropertyLists

/// The App Group defaults as a legacy source: the 1.x list and the keyboard's queued additions.
///
/// Only ever read. The app reads them through `UserDefaults(suiteName:)` (``UserDefaultsStore``);
/// `ditto-recover` from the plist of a container copy (`AppGroupDefaults`, module ContainerFiles).
///
/// A custom source answers the legacy keys below, each in the shape 1.x, early
/// 2.x builds or the keyboard wrote it:
///
/// | key | shape |
/// |---|---|
/// | `dittos` | array of strings (the 1.x list), or dictionary title → array of strings (with `categories`) |
/// | `categories` | array of strings: ordered titles (unreleased 2.x builds) |
/// | `pendingCategories` | array of strings: titles of existing categories with queued dittos |
/// | `pendingDittos` | dictionary title → array of strings: the keyboard's queued dittos |
///
/// Values are `PropertyListValue`s, as a property list holds them (module
/// `PropertyLists`). It may return more keys (they are ignored). A value of another shape is skipped
/// and noted, never a crash; when every legacy key has an unusable shape, the defaults are reported
/// unreadable.
public protocol LegacyDefaultsSource: Sendable {
  /// Where the values live, for reports (a path, or `UserDefaults(<suite>)`).
  var legacySourceName: String { get }

  /// The values of the defaults domain, at least those of the legacy keys
  /// (`dittos`, `categories`, `pendingCategories`, `pendingDittos`) that are set; nil when none of
  /// them is.
  ///
  /// - Throws: ``DefaultsError`` when the domain exists but cannot be read.
  func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]?
}

/// The App Group defaults through `UserDefaults(suiteName:)`: what the app itself uses, on device the
/// preferences daemon's (never a file the engine writes).
///
/// As a flag store it reads and writes `legacyCoreDataMigrationComplete_v302` (`bool(forKey:)`) and
/// `legacyCoreDataMigrationAttempts_v302` (`integer(forKey:)`), and writes a key only when its value
/// changes. As a legacy source it returns exactly the four legacy keys (`dittos`, `categories`,
/// `pendingCategories`, `pendingDittos`) that are set (`object(forKey:)`), or nil when none is.
///
/// Before the first unlock `UserDefaults` answers defaults (nil, false, 0) and cannot say so; the
/// migrator then also reads the App Group's preferences file (never writing it) and treats "the file
/// holds legacy keys the domain did not answer" as "not now".
///
/// ```swift
/// let store = try #require(UserDefaultsStore(suiteName: "group.io.kern.ditto"))
/// let migrator = LegacyDataMigrator(layout: layout, destination: swiftData, defaults: store, logger: log)
/// ```
public final class UserDefaultsStore: MigrationFlagStore, LegacyDefaultsSource, @unchecked Sendable
{
  /// The keys that may hold legacy content (``DefaultsLegacyContent/keys``).
  package static let legacyKeys = DefaultsLegacyContent.keys

  /// The suite (App Group identifier).
  package let suiteName: String
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

  /// The legacy keys that are set, as property-list values.
  ///
  /// - Throws: ``DefaultsError/unreadable(file:reason:)`` when a key holds a value no property list
  ///   holds (it cannot be read; never taken for "not set").
  public func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? {
    var values: [String: PropertyListValue] = [:]
    for key in Self.legacyKeys {
      guard let value = defaults.object(forKey: key) else { continue }
      guard let converted = PropertyListValue(userDefaultsValue: value) else {
        throw .unreadable(
          file: legacySourceName, reason: "the value of \(key) is not a property-list value")
      }
      values[key] = converted
    }
    return values.isEmpty ? nil : values
  }
}

extension PropertyListValue {
  /// What `UserDefaults` answered (`object(forKey:)`, `dictionaryRepresentation()`), as a
  /// property-list value: for a custom ``LegacyDefaultsSource`` over `UserDefaults`, as
  /// ``UserDefaultsStore`` converts its own. Strings, arrays, dictionaries, data and dates keep
  /// their shape. A number is `.bool` when it is a Swift `Bool`, else `.integer` when integral,
  /// else `.real`: on Apple platforms Foundation answers booleans and integers as one `NSNumber`
  /// type, and the legacy keys hold strings, so a number of any kind is a value of the wrong shape
  /// there whatever case it gets. Nil for anything a property list cannot hold (the source should
  /// then throw ``DefaultsError/unreadable(file:reason:)``, never answer "not set").
  public init?(userDefaultsValue value: Any) {
    switch value {
    case let string as String: self = .string(string)
    case let date as Date: self = .date(date)
    case let data as Data: self = .data(Array(data))
    case let list as [Any]:
      var converted: [PropertyListValue] = []
      for element in list {
        guard let element = PropertyListValue(userDefaultsValue: element) else { return nil }
        converted.append(element)
      }
      self = .array(converted)
    case let dictionary as [String: Any]:
      var converted: [String: PropertyListValue] = [:]
      for (key, element) in dictionary {
        guard let element = PropertyListValue(userDefaultsValue: element) else { return nil }
        converted[key] = element
      }
      self = .dictionary(PropertyListDictionary(converted))
    case let flag as Bool where type(of: value) == Bool.self: self = .bool(flag)
    case let number as NSNumber:
      let real = number.doubleValue
      if real.rounded() == real, let integer = Int64(exactly: real) {
        self = .integer(integer)
      } else {
        self = .real(real)
      }
    default: return nil
    }
  }
}
