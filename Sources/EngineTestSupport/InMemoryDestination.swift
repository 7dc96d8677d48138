import LibraryMerge

/// A library held in memory, as the app's `ModelContext` would hold it: for engine tests.
///
/// `failure`, when set, makes every apply throw it (nothing is kept), the way a destination that
/// rejects every insert would.
package final class InMemoryDestination: PlanApplyingDestination, @unchecked Sendable {
  /// One category: its title, sort order and dittos (text, use count, sort order).
  package struct Category: Equatable, Sendable {
    package var title: String
    package var sortOrder: Int64
    package var dittos: [(text: String, useCount: Int64, sortOrder: Int64)]

    package init(title: String, sortOrder: Int64, dittos: [(String, Int64, Int64)] = []) {
      self.title = title
      self.sortOrder = sortOrder
      self.dittos = dittos.map { (text: $0.0, useCount: $0.1, sortOrder: $0.2) }
    }

    package static func == (lhs: Category, rhs: Category) -> Bool {
      lhs.title == rhs.title && lhs.sortOrder == rhs.sortOrder
        && lhs.dittos.elementsEqual(rhs.dittos) { $0 == $1 }
    }
  }

  package private(set) var hasProfile: Bool
  package private(set) var categories: [Category]
  /// Thrown by every `applyImport` (and `currentLibrary` when `failsReads`).
  package var failure: DestinationError?
  package var failsReads = false
  /// Plans applied (the engine applies none for an import that inserts nothing).
  package private(set) var applied = 0

  package init(hasProfile: Bool = false, categories: [Category] = []) {
    self.hasProfile = hasProfile
    self.categories = categories
  }

  /// One import's hold: the library as read, applied back into this destination.
  package struct Hold: LibraryHold {
    let destination: InMemoryDestination
    package let library: CurrentLibrary

    package func apply(_ plan: ImportPlan) throws(DestinationError) {
      try destination.apply(plan)
    }
  }

  package func holdLibrary() throws(DestinationError) -> Hold {
    Hold(destination: self, library: try currentLibrary())
  }

  package func currentLibrary() throws(DestinationError) -> CurrentLibrary {
    if failsReads, let failure { throw failure }
    let ordered = categories.indices.sorted {
      (categories[$0].sortOrder, $0) < (categories[$1].sortOrder, $1)
    }
    return CurrentLibrary(
      hasProfile: hasProfile,
      categories: ordered.map { index in
        let category = categories[index]
        return CurrentCategory(
          id: CategoryID(Int64(index)), title: category.title, sortOrder: category.sortOrder,
          texts: category.dittos.map(\.text),
          largestDittoSortOrder: category.dittos.map(\.sortOrder).max())
      })
  }

  func apply(_ planned: ImportPlan) throws(DestinationError) {
    if let failure { throw failure }
    applied += 1
    if planned.createsProfile { hasProfile = true }
    let firstNew = categories.count
    for category in planned.newCategories {
      categories.append(Category(title: category.title, sortOrder: category.sortOrder))
    }
    for ditto in planned.dittos {
      let index: Int
      switch ditto.target {
      case .existing(let id): index = Int(id.rawValue)
      case .new(let offset): index = firstNew + offset
      }
      categories[index].dittos.append(
        (text: ditto.text, useCount: ditto.useCount, sortOrder: ditto.sortOrder))
    }
  }

  /// Titles and texts in display order.
  package var contents: [(String, [String])] {
    categories.enumerated().sorted {
      ($0.element.sortOrder, $0.offset) < ($1.element.sortOrder, $1.offset)
    }
    .map { entry in
      (entry.element.title, entry.element.dittos.sorted { $0.sortOrder < $1.sortOrder }.map(\.text))
    }
  }
}

/// Flags held in memory; `failure` makes every read and write throw it.
package final class InMemoryFlagStore: MigrationFlagStore, @unchecked Sendable {
  /// One call made to the store, in order.
  package enum Call: Equatable, Sendable {
    case read
    case write(MigrationFlags)
  }

  package var flags: MigrationFlags
  package var failure: FlagStoreError?
  /// Every call, reads and writes, failed ones included.
  package private(set) var calls: [Call] = []

  package init(_ flags: MigrationFlags = MigrationFlags()) { self.flags = flags }

  /// Write calls made, failed ones included.
  package var writes: Int {
    calls.filter {
      if case .write = $0 { return true }
      return false
    }.count
  }

  package func readFlags() throws(FlagStoreError) -> MigrationFlags {
    calls.append(.read)
    if let failure { throw failure }
    return flags
  }

  package func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    calls.append(.write(flags))
    if let failure { throw failure }
    self.flags = flags
  }
}
