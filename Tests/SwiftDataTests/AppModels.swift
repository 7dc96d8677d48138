#if canImport(SwiftData)
  import Foundation
  import SwiftData

  // The app's SwiftData models, in the shape Ditto 3.x declares them (ditto-app-facts: Profile →
  // DittoCategory → DittoItem, display order by `sortOrder`, the app shows the first Profile).
  // Default values everywhere, as a model that may sync with CloudKit needs.

  @Model final class Profile {
    @Relationship(deleteRule: .cascade, inverse: \DittoCategory.profile)
    var categories: [DittoCategory]? = []

    init() {}
  }

  @Model final class DittoCategory {
    var title: String = ""
    var sortOrder: Int = 0
    var modifiedAt: Date = Date()
    var profile: Profile?
    @Relationship(deleteRule: .cascade, inverse: \DittoItem.category)
    var dittos: [DittoItem]? = []

    init(title: String, sortOrder: Int, modifiedAt: Date) {
      self.title = title
      self.sortOrder = sortOrder
      self.modifiedAt = modifiedAt
    }
  }

  @Model final class DittoItem {
    var text: String = ""
    var useCount: Int = 0
    var sortOrder: Int = 0
    var modifiedAt: Date = Date()
    var category: DittoCategory?

    init(text: String, useCount: Int, sortOrder: Int, modifiedAt: Date) {
      self.text = text
      self.useCount = useCount
      self.sortOrder = sortOrder
      self.modifiedAt = modifiedAt
    }
  }

  /// The schema the app opens `Ditto.store` with.
  let appSchema = Schema([Profile.self, DittoCategory.self, DittoItem.self])
#endif
