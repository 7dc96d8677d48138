/// The merge rules, as the app itself would merge, applied while the sources stream by.
///
/// 1. A source category whose title equals a library category's title (the first such, in display
///    order) merges into it; so does a later source category with the title of one this import
///    created. Other categories are appended after the library's largest `sortOrder`, in source
///    order (with ``Rules/maximumCategories``, only while the library holds fewer than that many;
///    the dittos of a category that could not be created are counted, not imported).
/// 2. A ditto is skipped when its category already held an equal text before this import, or
///    received it from an earlier source of the same attempt. Repeats of a text inside one source are
///    kept, as the user had them.
/// 3. New dittos are appended after the largest `sortOrder` of their category, with their use counts.
///
/// Titles and texts compare as Swift `String`s do: by canonical equivalence (a decomposed "café"
/// equals the precomposed one).
///
/// MEMORY. Nothing of a source is held: each category is resolved when it starts and each ditto is
/// decided when it comes. What stays is the library's outline, the targets by title, and, only for
/// titles a later source names again (the keyboard's queue, the 1.x list), the texts earlier sources
/// gave them: rule 2 needs those, and the destination cannot tell them from its own rows. Whether a
/// category held a text before the import is the destination's to answer
/// (``ImportSession/heldBeforeImport(_:in:)``), from its own storage.
package enum LibraryMerger {
  /// Options a caller may set; the defaults are the migrator's (upstream's migrator has no cap).
  package struct Rules: Sendable, Equatable {
    /// New categories are created only while the library (with those this import created) holds
    /// fewer than this many; nil: no cap. The app's own CSV import uses 8.
    package var maximumCategories: Int?

    /// Rules that create new categories only while the library holds fewer than `maximumCategories`
    /// (nil: no limit).
    package init(maximumCategories: Int? = nil) {
      self.maximumCategories = maximumCategories
    }

    /// The app's CSV import: at most 8 categories (`maxCategories`).
    package static let csvImport = Rules(maximumCategories: 8)
  }

  /// What one merge did.
  package struct Result: Sendable, Equatable {
    /// Totals over every source.
    package var counts = ImportCounts()
    /// The same counts per source, in the order the sources were given.
    package var countsBySource: [ImportCounts] = []
    /// True when the library had no Profile and the merge inserted something: one was created.
    package var createsProfile = false
    /// Titles of the categories not created because of ``Rules/maximumCategories`` (user text:
    /// never for a public log line).
    package var refusedCategoryTitles: [String] = []

    /// A merge that has done nothing yet.
    package init() {}
  }

  /// Merges `sources` (in order) into the library `session` holds.
  ///
  /// - Throws: ``ImportFailure``: a source that could not be read to its end, the library's error,
  ///   or ``ImportFailure/cancelled`` when the task running it is cancelled (checked before each
  ///   source and once more after the last, before the destination keeps anything); the
  ///   destination then undoes what was inserted.
  package static func merge(
    _ sources: [any MergeSourceStream], into session: any ImportSession, rules: Rules = Rules()
  ) throws(ImportFailure) -> Result {
    var state = State(outline: session.outline, rules: rules)
    var result = Result()
    let reporting = session as? any MergeProgressReporting
    var progress = MergeProgress(read: 0, offered: sources.reduce(0) { $0 + $1.dittoCount })
    reporting?.mergeProgressed(progress)
    // Texts need remembering only for titles a later source names again.
    var laterTitles = [Set<String>](repeating: [], count: sources.count)
    var seen = Set<String>()
    for index in sources.indices.reversed() {
      laterTitles[index] = seen
      seen.formUnion(sources[index].categoryTitles)
    }
    for (index, source) in sources.enumerated() {
      if Task.isCancelled { throw .cancelled }
      var counts = ImportCounts()
      var receivedNow: [CategoryID: Set<String>] = [:]
      var current: Target?
      var remember = false
      var categoryStarted = false
      // The current category's next ditto order and whether it already counted as receiving: kept
      // here while its dittos stream (one category at a time), handed back when it changes.
      var currentOrder: Int64?
      var currentReceiving = false
      // Whether the current category may already hold a text: it held texts before this import, or
      // an earlier source gave it some (fixed while a source streams). A category this import
      // created is asked nothing.
      var currentMayHold = false
      func leaveCategory() {
        if let target = current, let order = currentOrder { state.nextOrder[target.id] = order }
        currentOrder = nil
        currentReceiving = false
      }
      try source.stream { (item) throws(ImportFailure) in
        switch item {
        case .category(let title):
          leaveCategory()
          counts.categoriesRead += 1
          current = try state.target(for: title, session: session, counts: &counts, result: &result)
          currentMayHold = current.map(state.mayHold) ?? false
          remember = laterTitles[index].contains(title)
          categoryStarted = true
        case .ditto(let ditto):
          if !categoryStarted {
            // A source always names a category first; one that does not is read as the reader
            // reads dittos without a category.
            leaveCategory()
            counts.categoriesRead += 1
            current = try state.target(
              for: recoveredTitle, session: session, counts: &counts, result: &result)
            currentMayHold = current.map(state.mayHold) ?? false
            categoryStarted = true
          }
          counts.dittosRead += 1
          progress.read += 1
          if progress.read % progressStep == 0 { reporting?.mergeProgressed(progress) }
          guard let target = current else {
            counts.dittosOverLimit += 1
            return
          }
          if currentMayHold, let held = try state.holds(ditto.text, in: target, session: session) {
            counts.skipped += 1
            if held == .library {
              counts.alreadyInLibrary += 1
              // A later source naming it again reads it twice: counted once as the library's.
              if remember { receivedNow[target.id, default: []].insert(ditto.text) }
            }
            return
          }
          let order = currentOrder ?? state.nextDittoOrder(in: target)
          do throws(DestinationError) {
            try session.insertDitto(
              text: ditto.text, useCount: ditto.useCount, sortOrder: order, in: target.id)
          } catch {
            throw .library(error)
          }
          currentOrder = order + 1
          counts.inserted += 1
          if remember { receivedNow[target.id, default: []].insert(ditto.text) }
          if !currentReceiving {
            currentReceiving = true
            if state.receiving.insert(target.id).inserted {
              result.counts.categoriesReceivingDittos += 1
            }
          }
        }
      }
      leaveCategory()
      for (target, texts) in receivedNow { state.received[target, default: []].formUnion(texts) }
      result.countsBySource.append(counts)
      result.counts.add(counts)
    }
    reporting?.mergeProgressed(progress)
    if Task.isCancelled { throw .cancelled }
    result.createsProfile = !state.outline.hasProfile && state.insertedAnything
    return result
  }

  /// How many dittos the merge reads between two reports to a ``MergeProgressReporting`` session.
  package static let progressStep = 1024

  /// The title of the category dittos without one go to (as the 2.x reader names it).
  static let recoveredTitle = "Recovered"

  /// Where a category's dittos go.
  struct Target {
    var id: CategoryID
    /// False for a category this import created: it held nothing before.
    var existedBefore: Bool
  }

  /// What the merge knows while it walks the sources.
  private struct State {
    let outline: LibraryOutline
    let rules: Rules
    /// The first category (in display order) with each title, existing or created.
    var byTitle: [String: Target] = [:]
    /// The outline's index of each existing category.
    var existing: [CategoryID: Int] = [:]
    /// Texts earlier sources of this attempt added to each category (revisited titles only).
    var received: [CategoryID: Set<String>] = [:]
    /// Categories that received at least one ditto.
    var receiving = Set<CategoryID>()
    var nextOrder: [CategoryID: Int64] = [:]
    var nextCategoryOrder: Int64
    var categoryCount: Int
    var insertedAnything = false

    init(outline: LibraryOutline, rules: Rules) {
      self.outline = outline
      self.rules = rules
      for (index, category) in outline.categories.enumerated() {
        existing[category.id] = index
        if byTitle[category.title] == nil {
          byTitle[category.title] = Target(id: category.id, existedBefore: true)
        }
      }
      nextCategoryOrder = (outline.categories.map(\.sortOrder).max() ?? -1) + 1
      categoryCount = outline.categories.count
    }

    /// The target of a source category titled `title`, created when the library has none (nil
    /// when the cap forbids creating it).
    mutating func target(
      for title: String, session: any ImportSession, counts: inout ImportCounts,
      result: inout Result
    ) throws(ImportFailure) -> Target? {
      if let target = byTitle[title] { return target }
      if let maximum = rules.maximumCategories, categoryCount >= maximum {
        counts.categoriesOverLimit += 1
        result.refusedCategoryTitles.append(title)
        return nil
      }
      let id: CategoryID
      do {
        id = try session.insertCategory(title: title, sortOrder: nextCategoryOrder)
      } catch {
        throw .library(error)
      }
      nextCategoryOrder += 1
      categoryCount += 1
      insertedAnything = true
      counts.insertedCategories += 1
      let target = Target(id: id, existedBefore: false)
      byTitle[title] = target
      return target
    }

    /// Where a text the target already holds came from.
    enum Holder {
      /// The library held it before this import.
      case library
      /// An earlier source of this import brought it.
      case earlierSource
    }

    /// False when `target` cannot hold any text yet: this import created it and no earlier source
    /// gave it one (``holds(_:in:session:)`` would answer nil for every text).
    func mayHold(_ target: Target) -> Bool {
      target.existedBefore || received[target.id] != nil
    }

    /// Who already holds `text` in `target`, if anyone.
    func holds(_ text: String, in target: Target, session: any ImportSession)
      throws(ImportFailure) -> Holder?
    {
      if !received.isEmpty, received[target.id]?.contains(text) == true { return .earlierSource }
      guard target.existedBefore else { return nil }
      do {
        return try session.heldBeforeImport(text, in: target.id) ? .library : nil
      } catch {
        throw .library(error)
      }
    }

    mutating func nextDittoOrder(in target: Target) -> Int64 {
      insertedAnything = true
      let order: Int64
      if let next = nextOrder[target.id] {
        order = next
      } else if let index = existing[target.id], target.existedBefore {
        order = (outline.categories[index].largestDittoSortOrder ?? -1) + 1
      } else {
        order = 0
      }
      nextOrder[target.id] = order + 1
      return order
    }
  }
}
