import Foundation
import LibraryMerge

/// The app's library as the example keeps it: in memory, with the app's rules (the first Profile is
/// the one shown, display order by `sortOrder`, the four presets created only when there is no
/// Profile). It stands in for SwiftData's `ModelContainer` on platforms without SwiftData, so the
/// launch code of `docs/EMBEDDING.md` runs here as it runs in the app.
public final class ExampleLibrary: PresetCreating, @unchecked Sendable {
  /// A category: its title, sort order and dittos (text, use count, sort order).
  public struct Category: Sendable, Equatable {
    public var title: String
    public var sortOrder: Int
    public var dittos: [Ditto]
  }

  /// A ditto of a category.
  public struct Ditto: Sendable, Equatable {
    public var text: String
    public var useCount: Int
    public var sortOrder: Int
  }

  /// The 3.x presets, created at first launch when there is no Profile.
  public static let presetTitles = ["Instructions", "Driving", "Business", "Dating"]

  private let lock = NSLock()
  private var profile: [Category]?
  private var savesFail = false
  private var saves = 0

  /// An empty library: the store as the app creates it before it migrates (no Profile).
  public init() {}

  /// The first Profile's categories in display order; nil when there is no Profile.
  public var categories: [Category]? {
    locked { profile.map(Self.ordered) }
  }

  /// Titles and texts in display order (empty without a Profile).
  public var contents: [(title: String, texts: [String])] {
    (categories ?? []).map { ($0.title, $0.dittos.map(\.text)) }
  }

  /// Saves that went through.
  public var saveCount: Int { locked { saves } }

  /// Makes every save fail from now on (a disk that is full, a store that is locked).
  public func failSaves(_ fail: Bool) { locked { savesFail = fail } }

  /// The app's own preset step: the four presets when there is no Profile yet.
  @discardableResult
  public func createPresetsIfThereIsNoProfile() -> Bool {
    locked {
      guard profile == nil else { return false }
      profile = Self.presetTitles.enumerated().map {
        Category(title: $0.element, sortOrder: $0.offset, dittos: [])
      }
      return true
    }
  }

  /// What the engine's merge needs: the library with its texts, in display order.
  func read() -> CurrentLibrary {
    locked {
      let categories = profile.map(Self.ordered) ?? []
      return CurrentLibrary(
        hasProfile: profile != nil,
        categories: categories.enumerated().map { index, category in
          CurrentCategory(
            id: CategoryID(Int64(index)), title: category.title,
            sortOrder: Int64(category.sortOrder), texts: category.dittos.map(\.text),
            largestDittoSortOrder: category.dittos.map { Int64($0.sortOrder) }.max())
        })
    }
  }

  /// One save: all of `plan` (made against `library`, read by ``read()``) or nothing.
  func save(_ plan: ImportPlan, madeAgainst library: CurrentLibrary) throws(DestinationError) {
    try lockedThrowing { () throws(DestinationError) in
      if savesFail {
        throw DestinationError(.writeFailed, file: "ExampleLibrary", reason: "the save failed")
      }
      var categories = profile.map(Self.ordered) ?? []
      guard categories.count == library.categories.count else {
        throw DestinationError(
          .writeFailed, file: "ExampleLibrary", reason: "the library changed during the import")
      }
      let firstNew = categories.count
      for new in plan.newCategories {
        categories.append(Category(title: new.title, sortOrder: Int(new.sortOrder), dittos: []))
      }
      for ditto in plan.dittos {
        let index: Int
        switch ditto.target {
        case .existing(let id): index = Int(id.rawValue)
        case .new(let offset): index = firstNew + offset
        }
        categories[index].dittos.append(
          Ditto(text: ditto.text, useCount: Int(ditto.useCount), sortOrder: Int(ditto.sortOrder)))
      }
      profile = categories
      saves += 1
    }
  }

  private static func ordered(_ categories: [Category]) -> [Category] {
    categories.enumerated().sorted {
      ($0.element.sortOrder, $0.offset) < ($1.element.sortOrder, $1.offset)
    }
    .map { entry in
      var category = entry.element
      category.dittos = category.dittos.enumerated()
        .sorted { ($0.element.sortOrder, $0.offset) < ($1.element.sortOrder, $1.offset) }
        .map(\.element)
      return category
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  private func lockedThrowing(_ body: () throws(DestinationError) -> Void) throws(DestinationError)
  {
    lock.lock()
    defer { lock.unlock() }
    try body()
  }
}

/// The example's destination: the library read once per import, the plan saved once.
public struct ExampleDestination: PlanApplyingDestination {
  /// The library imported into.
  public let library: ExampleLibrary

  /// A destination for `library`.
  public init(library: ExampleLibrary) { self.library = library }

  public func holdLibrary() throws(DestinationError) -> ExampleImport {
    ExampleImport(store: library, library: library.read())
  }
}

/// One import's hold on the example library.
public struct ExampleImport: LibraryHold {
  let store: ExampleLibrary
  public let library: CurrentLibrary

  public func apply(_ plan: ImportPlan) throws(DestinationError) {
    try store.save(plan, madeAgainst: library)
  }
}
