/// Counts of one import (or of its preview).
///
/// `inserted + skipped + dittosOverLimit == dittosRead` always holds.
public struct ImportCounts: Sendable, Equatable {
  /// Categories offered by the sources.
  public package(set) var categoriesRead = 0
  /// Dittos offered by the sources.
  public package(set) var dittosRead = 0
  /// Categories created (the others merged into an existing one with the same title).
  public package(set) var insertedCategories = 0
  /// Dittos added.
  public package(set) var inserted = 0
  /// Dittos not added because their category already held the same text.
  public package(set) var skipped = 0
  /// Of ``skipped``, the dittos the library held before this import; the rest were read more than
  /// once (the same store in two places, or overlapping stores) and added once.
  public package(set) var alreadyInLibrary = 0
  /// Categories (new or existing) that receive at least one new ditto.
  public package(set) var categoriesReceivingDittos = 0
  /// Categories not created because the library already held the most it may (the merge rules'
  /// category limit: the CSV import's; a migration has none).
  public package(set) var categoriesOverLimit = 0
  /// Dittos of those categories, not imported.
  public package(set) var dittosOverLimit = 0

  /// All counts zero.
  package init() {}

  /// Adds another source's counts (`categoriesReceivingDittos` is the merge's own total).
  mutating func add(_ other: ImportCounts) {
    categoriesRead += other.categoriesRead
    dittosRead += other.dittosRead
    insertedCategories += other.insertedCategories
    inserted += other.inserted
    skipped += other.skipped
    alreadyInLibrary += other.alreadyInLibrary
    categoriesOverLimit += other.categoriesOverLimit
    dittosOverLimit += other.dittosOverLimit
  }
}

/// Where a planned ditto goes.
public enum PlannedTarget: Sendable, Hashable {
  /// An existing category of the library.
  case existing(CategoryID)
  /// The plan's `newCategories[index]`.
  case new(Int)
}

/// A category the import creates, appended after the library's last.
public struct PlannedCategory: Sendable, Equatable {
  /// Its title.
  public var title: String
  /// Its sort order: after every category already in the library.
  public var sortOrder: Int64

  /// A new category titled `title` at `sortOrder`.
  package init(title: String, sortOrder: Int64) {
    self.title = title
    self.sortOrder = sortOrder
  }
}

/// A ditto the import inserts.
public struct PlannedDitto: Sendable, Equatable {
  /// The category it goes to.
  public var target: PlannedTarget
  /// Its text.
  public var text: String
  /// Its use count, kept from the source.
  public var useCount: Int64
  /// Its sort order: after every ditto already in its category.
  public var sortOrder: Int64

  /// A new ditto with `text` and `useCount`, for `target` at `sortOrder`.
  package init(target: PlannedTarget, text: String, useCount: Int64, sortOrder: Int64) {
    self.target = target
    self.text = text
    self.useCount = useCount
    self.sortOrder = sortOrder
  }
}

/// Everything one import inserts into a library, decided before anything is written.
///
/// A destination applies it whole or not at all; it never updates or deletes an existing row.
public struct ImportPlan: Sendable, Equatable {
  /// True when the library has no Profile and the plan inserts something: exactly one is created.
  public var createsProfile = false
  /// Categories to create, in the order they are appended.
  public var newCategories: [PlannedCategory] = []
  /// Dittos to insert, in source order.
  public var dittos: [PlannedDitto] = []
  /// Totals over every source.
  package var counts = ImportCounts()
  /// The same counts per source, in the order the sources were given.
  package var countsBySource: [ImportCounts] = []

  /// A plan that inserts nothing.
  package init() {}

  /// True when applying the plan writes nothing.
  public var isEmpty: Bool { newCategories.isEmpty && dittos.isEmpty }
}
