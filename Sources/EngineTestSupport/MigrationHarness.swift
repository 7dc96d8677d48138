import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures

/// A temporary container (with the package's own destination and defaults), its migrator with an in-memory log, and the hashes taken before running.
package final class MigrationHarness {
  package let folder: TemporaryDirectory
  package let builder: ContainerBuilder
  package let log = InMemoryLogHandler()
  private(set) var before: FileHashes?
  /// The hashes taken by ``recordFiles()``.
  package var recorded: FileHashes? { before }

  /// A container holding a library as the app creates it before it migrates (`library: .empty`),
  /// another of the fixture libraries, or none.
  package init(_ label: String = "container", library: LibraryFixtures.Name? = .empty) throws {
    folder = try TemporaryDirectory(label)
    builder = try ContainerBuilder(root: folder.path)
    if let library { try LibraryFixtures.copy(library, toFolder: folder.path) }
  }

  package var layout: ContainerLayout { ContainerLayout(container: folder.path) }

  package func makeMigrator(home: String? = nil, library: String? = nil) -> LegacyDataMigrator {
    let layout = ContainerLayout(container: folder.path, home: home)
    return LegacyDataMigrator(
      layout: layout,
      destination: DittoStoreDestination(path: library ?? layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: log.logger)
  }

  /// Runs the manual path once with a log of its own, so the library already holds the legacy data.
  @discardableResult
  package func prefillLibrary(home: String? = nil) -> MigrationReport {
    let layout = ContainerLayout(container: folder.path, home: home)
    return LegacyDataMigrator(
      layout: layout, destination: DittoStoreDestination(path: layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: InMemoryLogHandler().logger
    ).recoverNowBlocking()
  }

  /// Records every file's hash; ``assertPreserved()`` checks them later.
  package func recordFiles() throws {
    before = try FileHashes(of: folder.path)
  }

  /// The files recorded by ``recordFiles()`` that changed or disappeared, except the ones the
  /// migration owns (the library and the App Group defaults).
  package func changedFiles() throws -> [String] {
    guard let before else { throw NotRecorded() }
    let after = try FileHashes(of: folder.path)
    return after.changes(since: before).filter { !Self.isOwnedByMigration($0) }
  }

  /// ``changedFiles()`` before ``recordFiles()``.
  package struct NotRecorded: Error {}

  package static func isOwnedByMigration(_ path: String) -> Bool {
    path.hasPrefix("/Ditto.store")
      || path == "/Library/Preferences/group.io.kern.ditto.plist"
  }

  /// The library's contents as (title, texts).
  package func libraryContents(_ path: String? = nil) throws -> [(String, [String])] {
    try LibraryFixtures.contents(of: path ?? layout.defaultLibraryPath)
  }
}

/// The expected content of `spec` as (title, texts).
package func texts(of spec: LegacyStoreSpec) -> [(String, [String])] {
  FixtureContent.expectedCategories(of: spec).map { ($0.title, $0.dittos.map(\.text)) }
}

/// True when two contents are equal, category by category.
package func same(_ lhs: [(String, [String])], _ rhs: [(String, [String])]) -> Bool {
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
}

extension LegacyStoreSpec {
  /// `count` categories titled `prefix 1…`, each with `perCategory` texts no other helper makes
  /// (use counts 1, 2, …).
  package static func distinct(_ prefix: String, categories count: Int, perCategory: Int)
    -> LegacyStoreSpec
  {
    LegacyStoreSpec(
      categories: (1...count).map { category in
        LegacyStoreSpec.Category(
          title: "\(prefix) \(category)",
          dittos: (1...perCategory).map {
            LegacyStoreSpec.Ditto(text: "\(prefix) text \(category).\($0)", useCount: Int64($0))
          })
      })
  }
}

extension MigrationHarness {
  /// A 2.x store never checkpointed at the root (4 KB main file, 120 dittos in 4 categories in its
  /// `-wal`) and a stale checkpointed copy in `Library/Application Support` (28 other dittos).
  package func writeWALHeavyStores() throws {
    try builder.writeStore(
      LegacyStoreSpec.distinct("Work", categories: 4, perCategory: 30), journal: .walOnly)
    try builder.writeStore(
      LegacyStoreSpec.distinct("Old", categories: 4, perCategory: 7),
      at: "Library/Application Support/Ditto.sqlite")
  }
}
