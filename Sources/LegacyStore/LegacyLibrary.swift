/// Where a category read from a legacy store came from.
package enum LegacyCategoryOrigin: Sendable, Equatable {
  /// A member of a profile's ordered `categories` (Z_PK of the profile).
  case profile(Int64)
  /// A category whose profile is NULL or missing: kept, after the profiles' categories.
  case withoutProfile
  /// The `Recovered` category holding dittos whose category is NULL or missing.
  case recovered
  /// A source other than the Core Data store (defaults, pending additions, salvage).
  case other(String)
}

/// One ditto as read: its text and its use count.
package struct LegacyDitto: Sendable, Equatable, Hashable {
  package var text: String
  package var useCount: Int64

  package init(text: String, useCount: Int64 = 0) {
    self.text = text
    self.useCount = useCount
  }
}

/// One category as read, its dittos in user order.
package struct LegacyCategory: Sendable, Equatable {
  package var title: String
  package var dittos: [LegacyDitto]
  package var origin: LegacyCategoryOrigin

  package init(title: String, dittos: [LegacyDitto] = [], origin: LegacyCategoryOrigin = .other(""))
  {
    self.title = title
    self.dittos = dittos
    self.origin = origin
  }
}

/// What a complete read of a legacy source produced: categories in user order.
///
/// Holding zero dittos means the source was read in full and is empty. A source that could not be read
/// is an error, never an empty `LegacyLibrary`.
package struct LegacyLibrary: Sendable, Equatable {
  package var categories: [LegacyCategory]
  /// Dittos whose text was NULL or empty: not imported, counted here.
  package var skippedEmptyTexts: Int

  package init(categories: [LegacyCategory] = [], skippedEmptyTexts: Int = 0) {
    self.categories = categories
    self.skippedEmptyTexts = skippedEmptyTexts
  }

  /// Number of dittos over all categories.
  package var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }

  /// True when the source holds no ditto (it may still hold empty categories).
  package var isEmpty: Bool { dittoCount == 0 }
}

/// One step of a streamed read: a category starts, or a ditto of the current category.
package enum LegacyItem: Sendable, Equatable {
  case category(title: String, origin: LegacyCategoryOrigin)
  case ditto(LegacyDitto)
}

/// Counts from a complete streamed read.
package struct LegacyReadSummary: Sendable, Equatable {
  package var profiles = 0
  package var categories = 0
  package var dittos = 0
  /// Dittos skipped because their text was NULL or empty.
  package var skippedEmptyTexts = 0
  /// Categories with a NULL or missing profile (kept, after the profiles' categories).
  package var categoriesWithoutProfile = 0
  /// Dittos with a NULL or missing category (kept, in `Recovered`).
  package var dittosWithoutCategory = 0

  package init() {}
}

extension LegacyLibrary {
  /// Collects a streamed read into a library.
  package init(collecting walk: ((LegacyItem) throws -> Void) throws -> LegacyReadSummary) rethrows
  {
    var categories: [LegacyCategory] = []
    let summary = try walk { item in
      switch item {
      case .category(let title, let origin):
        categories.append(LegacyCategory(title: title, origin: origin))
      case .ditto(let ditto):
        if categories.isEmpty {
          categories.append(LegacyCategory(title: "Recovered", origin: .recovered))
        }
        categories[categories.count - 1].dittos.append(ditto)
      }
    }
    self.init(categories: categories, skippedEmptyTexts: summary.skippedEmptyTexts)
  }
}
