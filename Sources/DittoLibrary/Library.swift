/// A ditto in the current library.
public struct LibraryDitto: Sendable, Equatable {
  public var text: String
  public var useCount: Int64
  /// Position within its category, 0-based, gaps allowed.
  public var sortOrder: Int64
  /// Seconds since 1970 of the last change.
  public var modifiedAt: Double

  public init(text: String, useCount: Int64, sortOrder: Int64, modifiedAt: Double) {
    self.text = text
    self.useCount = useCount
    self.sortOrder = sortOrder
    self.modifiedAt = modifiedAt
  }
}

/// A category in the current library, its dittos in order.
public struct LibraryCategory: Sendable, Equatable {
  public var title: String
  /// Position within the profile, 0-based, gaps allowed.
  public var sortOrder: Int64
  /// Seconds since 1970 of the last change.
  public var modifiedAt: Double
  public var dittos: [LibraryDitto]

  public init(title: String, sortOrder: Int64, modifiedAt: Double, dittos: [LibraryDitto] = []) {
    self.title = title
    self.sortOrder = sortOrder
    self.modifiedAt = modifiedAt
    self.dittos = dittos
  }
}

/// The whole current library (one profile), as loaded into memory.
public struct Library: Sendable, Equatable {
  public var categories: [LibraryCategory]

  public init(categories: [LibraryCategory] = []) {
    self.categories = categories
  }

  /// Number of dittos over all categories.
  public var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }
}

/// Counts of one import (or of its preview).
///
/// `inserted + skipped == dittosRead` always holds.
public struct ImportCounts: Sendable, Equatable {
  /// Categories offered by the source.
  public var categoriesRead = 0
  /// Dittos offered by the source.
  public var dittosRead = 0
  /// Categories created (the others merged into an existing one with the same title).
  public var insertedCategories = 0
  /// Dittos added.
  public var inserted = 0
  /// Dittos not added because their category already held the same text.
  public var skipped = 0
  /// Categories (new or existing) that receive at least one new ditto.
  public var categoriesReceivingDittos = 0

  public init() {}
}
