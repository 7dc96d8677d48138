/// The folders a migration looks at: the App Group container and, optionally, the app's own home.
public struct ContainerLayout: Sendable, Equatable {
  /// The App Group container (`group.io.kern.ditto`), as copied from a device.
  public var container: String
  /// The app's own data container (its `Library` and `Documents`), when available.
  public var home: String?

  /// The places under the App Group `container` and, when given, the app's own `home`.
  public init(container: String, home: String? = nil) {
    self.container = Self.trimmed(container)
    self.home = home.map(Self.trimmed)
  }

  /// The App Group's preferences file, as iOS keeps it in the container
  /// (`Library/Preferences/group.io.kern.ditto.plist`). The engine only ever reads it, and only to
  /// tell "the defaults hold no legacy keys" from "the defaults cannot be read yet" (before the first
  /// unlock `UserDefaults` answers nothing at all).
  package var appGroupPreferencesPath: String {
    container + "/Library/Preferences/" + Self.appGroupPreferencesFileName
  }

  /// The App Group's identifier, the name of its container folder when one is copied whole.
  public static let appGroupIdentifier = "group.io.kern.ditto"

  /// The App Group's preferences file name.
  package static let appGroupPreferencesFileName = "group.io.kern.ditto.plist"

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }
}

/// Which root a path is relative to.
package enum ProbeRoot: String, Sendable, Equatable {
  /// The App Group container.
  case appGroup = "appgroup"
  /// The app's own home.
  case app
  /// A file the user picked (``LegacyDataMigrator/recoverNow(from:dryRun:)``).
  case picked = "file"
}
