import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import TestSupport
import Testing

/// A temporary container, its migrator with an in-memory log, and the hashes taken before running.
final class MigrationHarness {
  let folder: TemporaryDirectory
  let builder: ContainerBuilder
  let log = InMemoryLogHandler()
  private(set) var before: FileHashes?
  /// The hashes taken by ``recordFiles()``.
  var recorded: FileHashes? { before }

  /// A container holding a library as the app creates it before it migrates (`library: .empty`),
  /// another of the fixture libraries, or none.
  init(_ label: String = "container", library: LibraryFixtures.Name? = .empty) throws {
    folder = try TemporaryDirectory(label)
    builder = try ContainerBuilder(root: folder.path)
    if let library { try LibraryFixtures.copy(library, toFolder: folder.path) }
  }

  var layout: ContainerLayout { ContainerLayout(container: folder.path) }

  func makeMigrator(home: String? = nil, library: String? = nil) -> LegacyDataMigrator {
    let layout = ContainerLayout(container: folder.path, home: home)
    return LegacyDataMigrator(
      layout: layout,
      destination: DittoStoreDestination(path: library ?? layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: log.logger)
  }

  /// Runs the manual path once with a log of its own, so the library already holds the legacy data.
  @discardableResult
  func prefillLibrary(home: String? = nil) -> MigrationReport {
    let layout = ContainerLayout(container: folder.path, home: home)
    return LegacyDataMigrator(
      layout: layout, destination: DittoStoreDestination(path: layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: InMemoryLogHandler().logger
    ).recoverNow()
  }

  /// Records every file's hash; ``assertPreserved()`` checks them later.
  func recordFiles() throws {
    before = try FileHashes(of: folder.path)
  }

  /// Every file recorded is still there with the same bytes, except the ones the migration owns
  /// (the library and the App Group defaults).
  func assertPreserved(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try #require(before, sourceLocation: sourceLocation)
    let after = try FileHashes(of: folder.path)
    let changed = after.changes(since: before).filter { !Self.isOwnedByMigration($0) }
    #expect(changed.isEmpty, "changed: \(changed)", sourceLocation: sourceLocation)
  }

  static func isOwnedByMigration(_ path: String) -> Bool {
    path.hasPrefix("/Ditto.store")
      || path == "/Library/Preferences/group.io.kern.ditto.plist"
  }

  /// The library's contents as (title, texts).
  func libraryContents(_ path: String? = nil) throws -> [(String, [String])] {
    try LibraryFixtures.contents(of: path ?? layout.defaultLibraryPath)
  }
}

extension LegacyDataMigrator.AutomaticMigration {
  var report: MigrationReport? {
    if case .attempted(let report) = self { return report }
    return nil
  }
}

func texts(of spec: LegacyStoreSpec) -> [(String, [String])] {
  FixtureContent.expectedCategories(of: spec).map { ($0.title, $0.dittos.map(\.text)) }
}

func same(_ lhs: [(String, [String])], _ rhs: [(String, [String])]) -> Bool {
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
}
