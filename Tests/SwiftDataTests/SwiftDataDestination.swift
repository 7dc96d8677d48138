#if canImport(SwiftData)
  // docs/EMBEDDING.md §1 quotes this file from the line after BEGIN to the line before END
  // (PlatformTests checks that the two stay the same), so the guide shows code that compiles and
  // that the SwiftData tests run.
  // BEGIN EMBEDDING.md
  import Foundation
  import LibraryMerge
  import SwiftData

  /// The app's library as the engine's destination: one fetch, inserts, one save(). The engine
  /// merges into the library it reads here and hands back the finished plan.
  final class SwiftDataDestination: PlanApplyingDestination {
    let context: ModelContext
    /// The first Profile and its categories in display order, as last read: a plan's category
    /// handles are positions in `categories`.
    private var profile: Profile?
    private var categories: [DittoCategory] = []

    init(context: ModelContext) { self.context = context }

    func currentLibrary() throws(DestinationError) -> CurrentLibrary {
      do {
        var descriptor = FetchDescriptor<Profile>()
        descriptor.fetchLimit = 1
        profile = try context.fetch(descriptor).first
      } catch {
        throw DestinationError(.readFailed, file: "ModelContext", reason: "\(error)")
      }
      categories = (profile?.categories ?? []).sorted { $0.sortOrder < $1.sortOrder }
      return CurrentLibrary(
        hasProfile: profile != nil,
        categories: categories.enumerated().map { index, category in
          let dittos = category.dittos ?? []
          return CurrentCategory(
            id: CategoryID(Int64(index)), title: category.title,
            sortOrder: Int64(category.sortOrder), texts: dittos.map(\.text),
            largestDittoSortOrder: dittos.map { Int64($0.sortOrder) }.max())
        })
    }

    func apply(_ plan: ImportPlan, to library: CurrentLibrary) throws(DestinationError) {
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
// END EMBEDDING.md
#endif
