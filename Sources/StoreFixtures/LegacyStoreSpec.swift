/// What a synthetic Ditto 2.x store holds, and how its rows are laid out.
///
/// Categories and dittos are listed in user order; the writer turns that order into sparse Core Data
/// order keys and (optionally) shuffles primary keys so that a reader relying on `Z_PK` order fails.
package struct LegacyStoreSpec: Sendable, Equatable {
  /// A ditto row. `text` nil writes NULL (the reader skips it); `useCount` nil writes NULL (reads as 0).
  package struct Ditto: Sendable, Equatable {
    package var text: String?
    package var useCount: Int64?
    /// Explicit order key; nil lets the writer number the list.
    package var orderKey: Int64?
    /// Write NULL as the order key (the reader sorts such rows last).
    package var hasNullOrderKey = false

    package init(text: String?, useCount: Int64? = 0, orderKey: Int64? = nil) {
      self.text = text
      self.useCount = useCount
      self.orderKey = orderKey
    }
  }

  /// A category row with its dittos.
  package struct Category: Sendable, Equatable {
    /// nil writes NULL (the reader shows "Untitled").
    package var title: String?
    package var dittos: [Ditto]
    /// 1-based profile number; nil writes a category without a profile.
    package var profile: Int?
    /// Explicit order key; nil lets the writer number the list.
    package var orderKey: Int64?

    package init(title: String?, dittos: [Ditto] = [], profile: Int? = 1, orderKey: Int64? = nil) {
      self.title = title
      self.dittos = dittos
      self.profile = profile
      self.orderKey = orderKey
    }
  }

  /// How the model's era shows in the file.
  package enum Variant: Sendable, Equatable {
    /// iOS 9+: `Z_MODELCACHE` present, framework 641.
    case ios9
    /// iOS 8: no `Z_MODELCACHE`, framework 519.
    case ios8
  }

  package var categories: [Category]
  /// Dittos whose category is NULL (the reader puts them in "Recovered").
  package var dittosWithoutCategory: [Ditto]
  package var profileCount: Int
  package var variant: Variant
  /// Assign primary keys in a shuffled order (seeded) instead of list order.
  package var shufflesPrimaryKeys: Bool
  /// First order key and step for numbered lists (Core Data appends at 2048, +1024).
  package var firstOrderKey: Int64
  package var orderKeyStep: Int64

  package init(
    categories: [Category], dittosWithoutCategory: [Ditto] = [], profileCount: Int = 1,
    variant: Variant = .ios9, shufflesPrimaryKeys: Bool = true, firstOrderKey: Int64 = 2048,
    orderKeyStep: Int64 = 1024
  ) {
    self.categories = categories
    self.dittosWithoutCategory = dittosWithoutCategory
    self.profileCount = profileCount
    self.variant = variant
    self.shufflesPrimaryKeys = shufflesPrimaryKeys
    self.firstOrderKey = firstOrderKey
    self.orderKeyStep = orderKeyStep
  }

  /// Number of dittos with a non-empty text (what a reader imports).
  package var readableDittoCount: Int {
    (categories.flatMap(\.dittos) + dittosWithoutCategory).filter { !($0.text ?? "").isEmpty }.count
  }
}
