/// A destination's own handle for one of its categories (a `Z_PK`, an index into fetched objects…).
public struct CategoryID: Sendable, Hashable {
  /// The destination's own key of the category (a `Z_PK`, an index).
  public var rawValue: Int64

  /// The category whose destination key is `rawValue`.
  public init(_ rawValue: Int64) { self.rawValue = rawValue }
}

/// A category of the current library, as the merge needs it.
public struct CurrentCategory: Sendable, Equatable {
  /// The destination's handle for it.
  public var id: CategoryID
  /// Its title, as stored.
  public var title: String
  /// Its `sortOrder`.
  public var sortOrder: Int64
  /// The texts of its dittos (order does not matter to the merge).
  public var texts: [String]
  /// The largest `sortOrder` among its dittos; nil when it has none.
  public var largestDittoSortOrder: Int64?

  /// A category of the library: its key, title, sort order, the texts it holds and the largest sort
  /// order of its dittos (nil without any).
  public init(
    id: CategoryID, title: String, sortOrder: Int64, texts: [String],
    largestDittoSortOrder: Int64?
  ) {
    self.id = id
    self.title = title
    self.sortOrder = sortOrder
    self.texts = texts
    self.largestDittoSortOrder = largestDittoSortOrder
  }
}

/// The library the app shows: the first Profile's categories, in display order (`sortOrder`, then
/// the destination's own tie-breaker).
public struct CurrentLibrary: Sendable, Equatable {
  /// False when the store holds no Profile yet (the app creates the store, then migrates, then makes
  /// presets only if no Profile exists): an import then creates exactly one.
  public var hasProfile: Bool
  /// Its categories in display order.
  public var categories: [CurrentCategory]

  /// A library that has a Profile or not, with `categories` in display order.
  public init(hasProfile: Bool, categories: [CurrentCategory]) {
    self.hasProfile = hasProfile
    self.categories = categories
  }

  /// An empty library with no Profile.
  package static let empty = CurrentLibrary(hasProfile: false, categories: [])

  /// Number of dittos over all categories.
  package var dittoCount: Int { categories.reduce(0) { $0 + $1.texts.count } }
}

/// A category of the library in outline: what the merge needs to place new rows, no texts.
package struct OutlineCategory: Sendable, Equatable {
  /// The destination's handle for it.
  package var id: CategoryID
  /// Its title, as stored.
  package var title: String
  /// Its `sortOrder`.
  package var sortOrder: Int64
  /// How many dittos it holds.
  package var dittoCount: Int
  /// The largest `sortOrder` among its dittos; nil when it has none.
  package var largestDittoSortOrder: Int64?

  /// A category in outline: its key, title, sort order, how many dittos it holds and the largest
  /// sort order among them (nil without any).
  package init(
    id: CategoryID, title: String, sortOrder: Int64, dittoCount: Int, largestDittoSortOrder: Int64?
  ) {
    self.id = id
    self.title = title
    self.sortOrder = sortOrder
    self.dittoCount = dittoCount
    self.largestDittoSortOrder = largestDittoSortOrder
  }
}

/// The library the app shows, in outline: the first Profile's categories in display order, with
/// their counts but not their texts (those stay in the destination: see ``ImportSession``).
package struct LibraryOutline: Sendable, Equatable {
  /// False when the store holds no Profile yet: an import then creates exactly one.
  package var hasProfile: Bool
  /// Its categories in display order.
  package var categories: [OutlineCategory]

  /// An outline of a library that has a Profile or not, with `categories` in display order.
  package init(hasProfile: Bool, categories: [OutlineCategory]) {
    self.hasProfile = hasProfile
    self.categories = categories
  }

  /// An empty library with no Profile.
  package static let empty = LibraryOutline(hasProfile: false, categories: [])

  /// Number of dittos over all categories.
  package var dittoCount: Int { categories.reduce(0) { $0 + $1.dittoCount } }
}

extension CurrentLibrary {
  /// The same library without its texts.
  package var outline: LibraryOutline {
    LibraryOutline(
      hasProfile: hasProfile,
      categories: categories.map {
        OutlineCategory(
          id: $0.id, title: $0.title, sortOrder: $0.sortOrder, dittoCount: $0.texts.count,
          largestDittoSortOrder: $0.largestDittoSortOrder)
      })
  }
}
