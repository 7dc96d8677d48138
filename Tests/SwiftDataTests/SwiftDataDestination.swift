#if canImport(SwiftData)
  // docs/EMBEDDING.md §1 quotes this file from the line after BEGIN to the line before END
  // (PlatformTests checks that the two stay the same), so the guide shows code that compiles and
  // that the SwiftData tests run.
  // BEGIN EMBEDDING.md
  import Foundation
  import LibraryMerge
  import SwiftData

  /// The app's library as the engine's destination: one fetch, inserts, one save().
  final class SwiftDataDestination: MigrationDestination {
    let context: ModelContext

    init(context: ModelContext) { self.context = context }

    func currentLibrary() throws(DestinationError) -> CurrentLibrary {
      let (profile, categories) = try profileAndCategories()
      return Self.library(profile: profile, categories: categories)
    }

    func applyImport(_ plan: (CurrentLibrary) -> ImportPlan) throws(DestinationError)
      -> ImportPlan
    {
      // One read: the plan's category handles are positions in `existing`.
      let (found, existing) = try profileAndCategories()
      let planned = plan(Self.library(profile: found, categories: existing))
      guard !planned.isEmpty else { return planned }
      // 2.0.1 → 3.0.2: the store is new and empty; the import makes the one Profile.
      let profile =
        found
        ?? {
          let made = Profile()
          context.insert(made)
          return made
        }()
      let now = Date()
      let created = planned.newCategories.map { new in
        let category = DittoCategory(
          title: new.title, sortOrder: Int(new.sortOrder), modifiedAt: now)
        context.insert(category)
        category.profile = profile
        return category
      }
      for ditto in planned.dittos {
        let parent: DittoCategory
        switch ditto.target {
        case .existing(let id): parent = existing[Int(id.rawValue)]
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
      return planned
    }

    /// The first Profile (the one the app shows) and its categories in display order.
    private func profileAndCategories() throws(DestinationError) -> (Profile?, [DittoCategory]) {
      do {
        var descriptor = FetchDescriptor<Profile>()
        descriptor.fetchLimit = 1
        guard let profile = try context.fetch(descriptor).first else { return (nil, []) }
        return (profile, (profile.categories ?? []).sorted { $0.sortOrder < $1.sortOrder })
      } catch {
        throw DestinationError(.readFailed, file: "ModelContext", reason: "\(error)")
      }
    }

    /// What the merge needs: titles, texts and the largest ditto `sortOrder` of each category.
    private static func library(profile: Profile?, categories: [DittoCategory]) -> CurrentLibrary {
      CurrentLibrary(
        hasProfile: profile != nil,
        categories: categories.enumerated().map { index, category in
          let dittos = category.dittos ?? []
          return CurrentCategory(
            id: CategoryID(Int64(index)), title: category.title,
            sortOrder: Int64(category.sortOrder), texts: dittos.map(\.text),
            largestDittoSortOrder: dittos.map { Int64($0.sortOrder) }.max())
        })
    }
  }
// END EMBEDDING.md
#endif
