import ContainerFiles
import Exchange
import Foundation
import LegacyMigration
import LegacyStore

/// Containers that look like a device in one state of the seed's recovery story or test plan.
public enum FixtureScenario: String, CaseIterable, Sendable {
  /// 2.0.1 → 3.0.2 directly: the store intact at the container root.
  case intact2x = "intact-2x"
  /// Every row (and the schema) still only in `Ditto.sqlite-wal`.
  case walOnly = "wal-only"
  /// The 578 KB user: a populated store in `Library/Application Support/` and a smaller,
  /// zero-truncated one at the root (3.0.0's cleanup half done).
  case user578kb = "user-578kb"
  /// A zero-byte `Ditto.sqlite`.
  case zeroByte = "zero-byte"
  /// A `Ditto.sqlite` full of random bytes.
  case garbage
  /// A valid 2.x store with a profile and no dittos.
  case emptyStore = "empty-store"
  /// Nothing legacy: only the 3.x library, with the app's preset categories.
  case freshInstall = "fresh-install"
  /// An intact store plus 3.0.1's flag in the App Group defaults (3.0.2 must still migrate).
  case stale301Flag = "stale-301-flag"
  /// 3.0.2's flag set, then a new store placed (only "Recover Old Dittos" imports it).
  case after302 = "after-302"

  /// One line for help and listings.
  public var summary: String {
    switch self {
    case .intact2x: "2.x store intact at the container root"
    case .walOnly: "every row still only in Ditto.sqlite-wal"
    case .user578kb:
      "populated store in Library/Application Support, zero-truncated one at the root"
    case .zeroByte: "zero-byte Ditto.sqlite"
    case .garbage: "Ditto.sqlite full of random bytes"
    case .emptyStore: "valid 2.x store with a profile and no dittos"
    case .freshInstall: "no legacy data, only the new library"
    case .stale301Flag: "intact store plus the 3.0.1 flag in the App Group defaults"
    case .after302: "3.0.2 flag set, then a new store placed"
    }
  }

  /// The Ditto 3.x library (`Ditto.store`) a scenario's container holds. Such libraries are for
  /// ditto-recover and tests only: their model hashes are not the app's, so the app cannot open them.
  public enum Library: String, Sendable, CaseIterable {
    /// None: a device that never ran 3.x.
    case none
    /// As the app creates it just before it migrates: no Profile, no rows (2.0.1 → 3.0.2).
    case empty
    /// One Profile with the four 3.x presets (after 3.0.0/3.0.1).
    case presets
  }

  /// What a scenario needs.
  public struct Parameters: Sendable {
    public var categories: Int
    public var dittosPerCategory: Int
    public var seed: UInt64
    /// The library; nil: the scenario's own (``FixtureScenario/defaultLibrary``).
    public var library: Library?

    public init(
      categories: Int = 4, dittosPerCategory: Int = 6, seed: UInt64 = 1, library: Library? = nil
    ) {
      self.categories = categories
      self.dittosPerCategory = dittosPerCategory
      self.seed = seed
      self.library = library
    }
  }

  /// The library a device in this state holds: an empty store on the 2.0.1 → 3.0.2 paths, the
  /// presets where 3.0.0 or 3.0.1 ran.
  public var defaultLibrary: Library {
    switch self {
    case .intact2x, .walOnly, .emptyStore: .empty
    case .user578kb, .zeroByte, .garbage, .freshInstall, .stale301Flag, .after302: .presets
    }
  }

  /// Builds the container at `folder` (which must not exist or be empty) and writes `expected.json`
  /// there: what a recovery should import, in `export --format json`'s shape.
  ///
  /// - Returns: the content written to `expected.json`.
  @discardableResult
  public func build(at folder: String, parameters: Parameters) throws -> LegacyLibrary {
    let builder = try ContainerBuilder(root: folder)
    let spec = FixtureContent.make(
      categories: parameters.categories, dittosPerCategory: parameters.dittosPerCategory,
      seed: parameters.seed)
    var expected = spec
    switch self {
    case .intact2x:
      try builder.writeStore(spec, seed: parameters.seed)
    case .walOnly:
      try builder.writeStore(spec, journal: .walOnly, seed: parameters.seed)
    case .user578kb:
      try builder.writeStore(
        spec, at: "Library/Application Support/Ditto.sqlite", seed: parameters.seed)
      try builder.writeBytes([], at: "Ditto.sqlite")
    case .zeroByte:
      try builder.writeBytes([], at: "Ditto.sqlite")
      expected = LegacyStoreSpec(categories: [])
    case .garbage:
      try builder.writeGarbage(count: 64 * 1024, seed: parameters.seed, at: "Ditto.sqlite")
      expected = LegacyStoreSpec(categories: [])
    case .emptyStore:
      expected = LegacyStoreSpec(categories: [])
      try builder.writeStore(expected, seed: parameters.seed)
    case .freshInstall:
      expected = LegacyStoreSpec(categories: [])
    case .stale301Flag:
      try builder.writeStore(spec, seed: parameters.seed)
      try builder.writeDefaults(["legacyUserDefaultsMigrationComplete": true])
    case .after302:
      try builder.writeDefaults([AppGroupDefaults.completionKey: true])
      try builder.writeStore(spec, seed: parameters.seed)
    }
    switch parameters.library ?? defaultLibrary {
    case .none: break
    case .empty: try SwiftDataStoreWriter.write(.empty, to: builder.path("Ditto.store"))
    case .presets: try SwiftDataStoreWriter.write(.presets, to: builder.path("Ditto.store"))
    }
    let library = Self.library(from: expected)
    try Self.writeExpected(library, to: builder.path("expected.json"))
    return library
  }

  static func library(from spec: LegacyStoreSpec) -> LegacyLibrary {
    LegacyLibrary(
      categories: FixtureContent.expectedCategories(of: spec).map { category in
        LegacyCategory(
          title: category.title,
          dittos: category.dittos.map { LegacyDitto(text: $0.text, useCount: $0.useCount) })
      })
  }

  /// Writes `library` as `export --format json` would.
  public static func writeExpected(_ library: LegacyLibrary, to path: String) throws {
    var text: [UInt8] = []
    let writer = ExportWriter(format: .json) { text += $0 }
    for category in library.categories {
      writer.beginCategory(title: category.title)
      for ditto in category.dittos { writer.ditto(text: ditto.text, useCount: ditto.useCount) }
    }
    writer.finish()
    try Data(text).write(to: URL(fileURLWithPath: path))
  }
}
