/// The folders a migration looks at: the App Group container and, optionally, the app's own home.
public struct ContainerLayout: Sendable, Equatable {
  /// The App Group container (`group.io.kern.ditto`), as copied from a device.
  public var container: String
  /// The app's own data container (its `Library` and `Documents`), when available.
  public var home: String?

  public init(container: String, home: String? = nil) {
    self.container = Self.trimmed(container)
    self.home = home.map(Self.trimmed)
  }

  /// The App Group defaults file, where the completion flag lives.
  public var defaultsPath: String {
    container + "/Library/Preferences/" + AppGroupDefaults.fileName
  }

  /// The app's library: the SwiftData store Ditto 3.x keeps in the App Group container.
  public var defaultLibraryPath: String { container + "/" + Self.libraryFileName }

  /// The library's file name.
  public static let libraryFileName = "Ditto.store"

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }
}

/// Which root a path is relative to.
public enum ProbeRoot: String, Sendable, Equatable {
  /// The App Group container.
  case appGroup = "appgroup"
  /// The app's own home.
  case app
  /// A file the user picked (``LegacyDataMigrator/recoverNow(fromFile:dryRun:)``).
  case picked = "file"
}
