import Foundation
import LibraryMerge

/// A library shared by several imports, each holding it as its own SwiftData `ModelContext` would:
/// it fetches what was saved when the import begins, and saves its inserts at the end, whatever
/// another import saved in between. Nothing merges two imports' plans: two imports planned against
/// the same fetch both insert, as two contexts would (a second Profile, every ditto twice). For
/// the race tests of attempts that run at once.
package final class TwoContextLibrary: PlanApplyingDestination, @unchecked Sendable {
  /// A saved category.
  package struct Category: Sendable, Equatable {
    package var title: String
    package var sortOrder: Int64
    package var texts: [String]
  }

  private let lock = NSLock()
  private var saved: [Category] = []
  private var savedProfiles = 0
  /// How long an import takes between its fetch and its save (the window two imports race in).
  private let saveDelayMicroseconds: UInt32

  package init(saveDelayMicroseconds: UInt32 = 2_000) {
    self.saveDelayMicroseconds = saveDelayMicroseconds
  }

  /// Profiles saved (the app's store must never hold more than one).
  package var profiles: Int { locked { savedProfiles } }

  /// Categories saved, in order.
  package var categories: [Category] { locked { saved } }

  /// One import's context: the library as fetched when it began.
  package struct Context: LibraryHold {
    let owner: TwoContextLibrary
    package let library: CurrentLibrary

    package func apply(_ plan: ImportPlan) throws(DestinationError) {
      owner.save(plan)
    }
  }

  package func holdLibrary() throws(DestinationError) -> Context {
    let (profiles, categories) = locked { (savedProfiles, saved) }
    return Context(
      owner: self,
      library: CurrentLibrary(
        hasProfile: profiles > 0,
        categories: categories.enumerated().map { index, category in
          CurrentCategory(
            id: CategoryID(Int64(index)), title: category.title, sortOrder: category.sortOrder,
            texts: category.texts, largestDittoSortOrder: Int64(category.texts.count - 1))
        }))
  }

  private func save(_ plan: ImportPlan) {
    usleep(saveDelayMicroseconds)
    locked {
      if plan.createsProfile { savedProfiles += 1 }
      let firstNew = saved.count
      for category in plan.newCategories {
        saved.append(Category(title: category.title, sortOrder: category.sortOrder, texts: []))
      }
      for ditto in plan.dittos {
        switch ditto.target {
        case .existing(let id): saved[Int(id.rawValue)].texts.append(ditto.text)
        case .new(let offset): saved[firstNew + offset].texts.append(ditto.text)
        }
      }
    }
  }

  private func locked<Value>(_ body: () -> Value) -> Value {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}

/// Flags shared by several migrators, as the App Group defaults are: safe from any thread.
package final class SharedFlagStore: MigrationFlagStore, @unchecked Sendable {
  private let lock = NSLock()
  private var flags = MigrationFlags()

  package init() {}

  package func readFlags() throws(FlagStoreError) -> MigrationFlags {
    lock.lock()
    defer { lock.unlock() }
    return flags
  }

  package func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    lock.lock()
    defer { lock.unlock() }
    self.flags = flags
  }
}
