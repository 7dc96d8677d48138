#if canImport(SwiftData)
  // BEGIN EMBEDDING.md destination
  import Foundation
  import LibraryMerge
  import SwiftData

  /// The app's library as the engine's destination. The engine calls it on its own task, off the
  /// main actor: each import makes its own `ModelContext` there (a `ModelContainer` is `Sendable`;
  /// a `ModelContext` stays on the task that made it), fetches the first Profile once, and saves
  /// once.
  public struct SwiftDataDestination: PlanApplyingDestination {
    public let container: ModelContainer

    public init(container: ModelContainer) { self.container = container }

    public func holdLibrary() throws(DestinationError) -> SwiftDataImport {
      try SwiftDataImport(context: ModelContext(container))
    }
  }

  /// One import: the library as fetched, and the engine's plan applied in one `save()`.
  public final class SwiftDataImport: LibraryHold {
    let context: ModelContext
    public let library: CurrentLibrary
    /// The first Profile and its categories in display order: a plan's category handles are
    /// positions in `categories`.
    private let profile: Profile?
    private let categories: [DittoCategory]

    init(context: ModelContext) throws(DestinationError) {
      self.context = context
      var descriptor = FetchDescriptor<Profile>()
      descriptor.fetchLimit = 1
      let first: Profile?
      do {
        first = try context.fetch(descriptor).first
      } catch {
        throw DestinationError(.readFailed, file: "ModelContext", reason: "\(error)")
      }
      profile = first
      categories = (first?.categories ?? []).sorted { $0.sortOrder < $1.sortOrder }
      library = CurrentLibrary(
        hasProfile: first != nil,
        categories: categories.enumerated().map { index, category in
          let dittos = category.dittos ?? []
          return CurrentCategory(
            id: CategoryID(Int64(index)), title: category.title,
            sortOrder: Int64(category.sortOrder), texts: dittos.map(\.text),
            largestDittoSortOrder: dittos.map { Int64($0.sortOrder) }.max())
        })
    }

    public func apply(_ plan: ImportPlan) throws(DestinationError) {
      // 2.0.1 → 3.0.2: the store is new and empty; the import makes the one Profile.
      let owner: Profile
      if let profile {
        owner = profile
      } else {
        owner = Profile()
        context.insert(owner)
      }
      let now = Date()
      var created: [DittoCategory] = []
      for new in plan.newCategories {
        let category = DittoCategory(
          title: new.title, sortOrder: Int(new.sortOrder), modifiedAt: now)
        context.insert(category)
        category.profile = owner
        created.append(category)
      }
      for ditto in plan.dittos {
        let parent: DittoCategory
        switch ditto.target {
        case .existing(let id): parent = categories[Int(id.rawValue)]
        case .new(let index): parent = created[index]
        }
        let item = DittoItem(
          text: ditto.text, useCount: Int(ditto.useCount), sortOrder: Int(ditto.sortOrder),
          modifiedAt: now)
        context.insert(item)
        item.category = parent
      }
      do {
        try context.save()  // all of it or nothing
      } catch {
        context.rollback()
        throw DestinationError(.writeFailed, file: "ModelContext", reason: "\(error)")
      }
    }
  }
// END EMBEDDING.md destination
#endif
