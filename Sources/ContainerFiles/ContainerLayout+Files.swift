import LegacyMigration

/// Where a container copy keeps the files the engine itself never names: the flags and the library.
extension ContainerLayout {
  /// The App Group defaults file of a container copy, where the completion flag lives.
  package var defaultsPath: String { appGroupPreferencesPath }

  /// The app's library: the SwiftData store Ditto 3.x keeps in the App Group container.
  package var defaultLibraryPath: String { container + "/" + Self.libraryFileName }

  /// The library's file name.
  package static let libraryFileName = "Ditto.store"
}
