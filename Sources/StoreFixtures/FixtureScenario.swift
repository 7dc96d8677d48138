import ContainerFiles
import Exchange
import Foundation
import LegacyMigration
import LegacyStore

/// Containers that look like a device in one state of the seed's recovery story or test plan.
package enum FixtureScenario: String, CaseIterable, Sendable {
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
  /// A 2.x store never checkpointed at the root (4 KB main file, everything in its `-wal`) beside a
  /// smaller, stale checkpointed copy in `Library/Application Support/`: the dittos decide, not the
  /// main file's size.
  case walHeavy = "wal-heavy"
  /// The real store in `Library/Application Support/` beside a stale copy at the root that holds a
  /// few dittos and much more free space (bloated to 750 KB).
  case bloatedCopy = "bloated-copy"

  /// One line for help and listings.
  package var summary: String {
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
    case .walHeavy:
      "store only in its -wal at the root, a smaller stale copy in Library/Application Support"
    case .bloatedCopy:
      "real store in Library/Application Support, a bloated stale copy with few dittos at the root"
    }
  }

  /// The Ditto 3.x library (`Ditto.store`) a scenario's container holds. Such libraries are for
  /// ditto-recover and tests only: their model hashes are not the app's, so the app cannot open them.
  package enum Library: String, Sendable, CaseIterable {
    /// None: a device that never ran 3.x.
    case none
    /// As the app creates it just before it migrates: no Profile, no rows (2.0.1 → 3.0.2).
    case empty
    /// One Profile with the four 3.x presets (after 3.0.0/3.0.1).
    case presets
  }

  /// What a scenario needs.
  package struct Parameters: Sendable {
    package var categories: Int
    package var dittosPerCategory: Int
    package var seed: UInt64
    /// The library; nil: the scenario's own (``FixtureScenario/defaultLibrary``).
    package var library: Library?

    package init(
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
  package var defaultLibrary: Library {
    switch self {
    case .intact2x, .walOnly, .emptyStore, .walHeavy, .bloatedCopy: .empty
    case .user578kb, .zeroByte, .garbage, .freshInstall, .stale301Flag, .after302: .presets
    }
  }

  /// Builds the container at `folder` (which must not exist or be empty) and writes `expected.json`
  /// there: what a recovery ("Recover Old Dittos", every readable store) should import, in
  /// `export --format json`'s shape. For ``walHeavy`` and ``bloatedCopy`` the automatic path imports
  /// only the store holding the most dittos (the `parameters` content); `expected.json` is both.
  ///
  /// - Returns: the content written to `expected.json`.
  @discardableResult
  package func build(at folder: String, parameters: Parameters) throws -> LegacyLibrary {
    let builder = try ContainerBuilder(root: folder)
    let spec = FixtureContent.make(
      categories: parameters.categories, dittosPerCategory: parameters.dittosPerCategory,
      seed: parameters.seed)
    var expected = spec
    // A second store a recovery imports after the first (walHeavy, bloatedCopy).
    var second: LegacyStoreSpec?
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
    case .walHeavy:
      try builder.writeStore(spec, journal: .walOnly, seed: parameters.seed)
      // Fewer dittos than the root's (7 per category beside 30: the 28 beside 120).
      let stale = Self.staleCopy(
        of: parameters, dittosPerCategory: max(1, parameters.dittosPerCategory / 4))
      try builder.writeStore(
        stale, at: "Library/Application Support/Ditto.sqlite", seed: parameters.seed + 1)
      second = stale
    case .bloatedCopy:
      try builder.writeStore(
        spec, at: "Library/Application Support/Ditto.sqlite", seed: parameters.seed)
      let stale = FixtureContent.make(
        categories: 1, dittosPerCategory: 5, seed: parameters.seed + 1000)
      try builder.writeStore(stale, seed: parameters.seed + 1)
      try builder.bloat("Ditto.sqlite", toAtLeast: 750 * 1024)
      second = stale
    }
    switch parameters.library ?? defaultLibrary {
    case .none: break
    case .empty: try SwiftDataStoreWriter.write(.empty, to: builder.path("Ditto.store"))
    case .presets: try SwiftDataStoreWriter.write(.presets, to: builder.path("Ditto.store"))
    }
    var library = Self.library(from: expected)
    if let second { library = Self.merged(library, Self.library(from: second)) }
    try Self.writeExpected(library, to: builder.path("expected.json"))
    return library
  }

  /// Content for a second, stale store: as many categories, other texts.
  static func staleCopy(of parameters: Parameters, dittosPerCategory: Int) -> LegacyStoreSpec {
    FixtureContent.make(
      categories: parameters.categories, dittosPerCategory: dittosPerCategory,
      seed: parameters.seed + 1000)
  }

  /// `first` then `second` as a recovery merges them into an empty library: categories by title
  /// (into the first of that title), a text its category already received from `first` skipped.
  static func merged(_ first: LegacyLibrary, _ second: LegacyLibrary) -> LegacyLibrary {
    var categories = first.categories
    var firstTexts: [String: Set<String>] = [:]
    for category in first.categories {
      firstTexts[category.title, default: []].formUnion(category.dittos.map(\.text))
    }
    for category in second.categories {
      let held = firstTexts[category.title] ?? []
      let dittos = category.dittos.filter { !held.contains($0.text) }
      if let index = categories.firstIndex(where: { $0.title == category.title }) {
        categories[index].dittos += dittos
      } else {
        categories.append(LegacyCategory(title: category.title, dittos: dittos))
      }
    }
    return LegacyLibrary(categories: categories)
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
  package static func writeExpected(_ library: LegacyLibrary, to path: String) throws {
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
