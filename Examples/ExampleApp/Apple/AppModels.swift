#if canImport(SwiftData)
  // BEGIN EMBEDDING.md models
  import Foundation
  import SwiftData

  // The app's SwiftData models, in the shape Ditto 3.x declares them (Profile → DittoCategory →
  // DittoItem, display order by `sortOrder`, the app shows the first Profile). Default values
  // everywhere, as a model that may sync with CloudKit needs.

  @Model public final class Profile {
    @Relationship(deleteRule: .cascade, inverse: \DittoCategory.profile)
    public var categories: [DittoCategory]? = []

    public init() {}
  }

  @Model public final class DittoCategory {
    public var title: String = ""
    public var sortOrder: Int = 0
    public var modifiedAt: Date = Date()
    public var profile: Profile?
    @Relationship(deleteRule: .cascade, inverse: \DittoItem.category)
    public var dittos: [DittoItem]? = []

    public init(title: String, sortOrder: Int, modifiedAt: Date) {
      self.title = title
      self.sortOrder = sortOrder
      self.modifiedAt = modifiedAt
    }
  }

  @Model public final class DittoItem {
    public var text: String = ""
    public var useCount: Int = 0
    public var sortOrder: Int = 0
    public var modifiedAt: Date = Date()
    public var category: DittoCategory?

    public init(text: String, useCount: Int, sortOrder: Int, modifiedAt: Date) {
      self.text = text
      self.useCount = useCount
      self.sortOrder = sortOrder
      self.modifiedAt = modifiedAt
    }
  }

  /// The schema the app opens `Ditto.store` with. Made on each use: a `Schema` is not `Sendable`,
  /// so no global holds one.
  public enum AppSchema {
    public static var current: Schema {
      Schema([Profile.self, DittoCategory.self, DittoItem.self])
    }
  }

  /// The app's own preset step, after the migration settled: the four presets when there is no
  /// Profile yet.
  @MainActor
  public func createPresetsIfThereIsNoProfile(in context: ModelContext) {
    var descriptor = FetchDescriptor<Profile>()
    descriptor.fetchLimit = 1
    do {
      guard try context.fetchCount(descriptor) == 0 else { return }
    } catch {
      return  // the library cannot be read now: presets wait for the next launch
    }
    let profile = Profile()
    context.insert(profile)
    for (index, title) in ["Instructions", "Driving", "Business", "Dating"].enumerated() {
      let category = DittoCategory(title: title, sortOrder: index, modifiedAt: Date())
      context.insert(category)
      category.profile = profile
    }
    do {
      try context.save()
    } catch {
      context.rollback()  // no presets rather than half of them; the next launch tries again
    }
  }
// END EMBEDDING.md models
#endif
