import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import Telemetry

/// The Ditto 3.x libraries of `Tests/Fixtures/ditto-3x` (made outside this repository), copied where a
/// test needs a library, as the app would have created it.
package enum LibraryFixtures {
  /// Which library.
  package enum Name: String, Sendable, CaseIterable {
    /// As the app creates it just before it migrates: no Profile, no rows.
    case empty
    /// One Profile, the four 3.x presets and two user categories.
    case presets
    /// A Pro user's library with CloudKit tables, gaps and the last commits only in `-wal`.
    case cloudKitGaps = "cloudkit-gaps"
  }

  /// The store's files, main file first.
  package static let files = ["Ditto.store", "Ditto.store-wal", "Ditto.store-shm"]

  /// `Tests/Fixtures/ditto-3x`, found from this file's place in the repository.
  package static var root: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/ditto-3x").standardized
      .path
  }

  /// A fixture that is not in the repository: a failure, never a skip.
  package struct MissingFixture: Error, CustomStringConvertible {
    package var path: String
    package var description: String { "fixture missing from the repository: \(path)" }
  }

  /// Copies library `name` to `folder/Ditto.store` (with its sidecars) and returns its path.
  ///
  /// - Throws: ``MissingFixture`` when a file is missing, or the copy's error.
  @discardableResult
  package static func copy(_ name: Name, toFolder folder: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for file in files {
      let source = root + "/" + name.rawValue + "/" + file
      guard FileManager.default.fileExists(atPath: source) else {
        throw MissingFixture(path: source)
      }
      let target = folder + "/" + file
      try FileManager.default.copyItem(atPath: source, toPath: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
    }
    return folder + "/Ditto.store"
  }

  /// Titles and texts of the library at `path`, in the order the app shows them.
  package static func contents(of path: String) throws -> [(String, [String])] {
    try DittoStoreFile.content(at: path).categories.map { ($0.title, $0.dittos.map(\.text)) }
  }
}

extension LibraryFixtures {
  /// Copies library `name` into `folder` unless a `Ditto.store` is already there; returns its path.
  @discardableResult
  package static func ensure(_ name: Name = .empty, inFolder folder: String) throws -> String {
    let path = folder + "/Ditto.store"
    if FileManager.default.fileExists(atPath: path) { return path }
    return try copy(name, toFolder: folder)
  }
}

extension LegacyDataMigrator {
  /// The migrator `ditto-recover` builds for a container copy: its `Ditto.store` (or `library`) as
  /// the destination, its App Group defaults plist as the flag store and legacy source.
  package static func forContainer(
    _ layout: ContainerLayout, library: String? = nil, logger: EngineLogger
  ) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: layout,
      destination: DittoStoreDestination(path: library ?? layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: logger)
  }
}
