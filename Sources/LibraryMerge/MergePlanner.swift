#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The merge rules, as the app itself would merge: a pure function from the sources and the current
/// library to an ``ImportPlan``.
///
/// 1. A source category whose title equals a library category's title (the first such, in display
///    order) merges into it; so does a later source category with the title of one this plan
///    creates. Other categories are appended after the library's largest `sortOrder`, in source order.
/// 2. A ditto is skipped when its category already held an equal text before this import, or
///    received it from an earlier source of the same attempt. Repeats of a text inside one source are
///    kept, as the user had them.
/// 3. New dittos are appended after the largest `sortOrder` of their category, with their use counts.
///
/// Titles and texts compare as Swift `String`s do: by canonical equivalence (a decomposed "café"
/// equals the precomposed one).
public enum MergePlanner {
  /// Plans the import of `sources` (in order) into `library`.
  public static func plan(_ sources: [MergeSource], into library: CurrentLibrary) -> ImportPlan {
    var state = State(library: library)
    var plan = ImportPlan()
    // Texts need remembering only for titles a later source offers again.
    var laterTitles: [Set<String>] = Array(repeating: [], count: sources.count)
    var seen = Set<String>()
    for index in sources.indices.reversed() {
      laterTitles[index] = seen
      for category in sources[index].categories { seen.insert(category.title) }
    }
    var receiving = Set<PlannedTarget>()
    for (index, source) in sources.enumerated() {
      var counts = ImportCounts()
      var receivedNow: [PlannedTarget: Set<String>] = [:]
      for category in source.categories {
        counts.categoriesRead += 1
        let target = state.target(for: category.title, plan: &plan, counts: &counts)
        let remember = laterTitles[index].contains(category.title)
        for ditto in category.dittos {
          counts.dittosRead += 1
          if state.holds(ditto.text, in: target) {
            counts.skipped += 1
            continue
          }
          plan.dittos.append(
            PlannedDitto(
              target: target, text: ditto.text, useCount: ditto.useCount,
              sortOrder: state.nextDittoOrder(in: target)))
          counts.inserted += 1
          if remember { receivedNow[target, default: []].insert(ditto.text) }
          if receiving.insert(target).inserted { plan.counts.categoriesReceivingDittos += 1 }
        }
      }
      for (target, texts) in receivedNow { state.received[target, default: []].formUnion(texts) }
      plan.countsBySource.append(counts)
      plan.counts.categoriesRead += counts.categoriesRead
      plan.counts.dittosRead += counts.dittosRead
      plan.counts.insertedCategories += counts.insertedCategories
      plan.counts.inserted += counts.inserted
      plan.counts.skipped += counts.skipped
    }
    plan.createsProfile = !library.hasProfile && !plan.isEmpty
    return plan
  }

  /// What the planner knows while it walks the sources.
  private struct State {
    let library: CurrentLibrary
    /// The first category (in display order) with each title, existing or planned.
    var byTitle: [String: PlannedTarget] = [:]
    /// Library categories by handle.
    var existing: [CategoryID: Int] = [:]
    /// Texts each existing category held before the import, by their exact UTF-8 bytes, built when
    /// first needed: a byte-equal text is an equal one, found without Unicode normalization.
    var exactTexts: [CategoryID: Set<ExactText>] = [:]
    /// The same texts as `String`s (canonical equivalence), built only when a text is not found
    /// byte for byte.
    var texts: [CategoryID: Set<String>] = [:]
    /// Texts earlier sources of this attempt added to each category.
    var received: [PlannedTarget: Set<String>] = [:]
    var nextOrder: [PlannedTarget: Int64] = [:]
    var nextCategoryOrder: Int64

    init(library: CurrentLibrary) {
      self.library = library
      for (index, category) in library.categories.enumerated() {
        existing[category.id] = index
        if byTitle[category.title] == nil { byTitle[category.title] = .existing(category.id) }
      }
      nextCategoryOrder = (library.categories.map(\.sortOrder).max() ?? -1) + 1
    }

    mutating func target(
      for title: String, plan: inout ImportPlan, counts: inout ImportCounts
    ) -> PlannedTarget {
      if let target = byTitle[title] { return target }
      let target = PlannedTarget.new(plan.newCategories.count)
      plan.newCategories.append(PlannedCategory(title: title, sortOrder: nextCategoryOrder))
      nextCategoryOrder += 1
      counts.insertedCategories += 1
      byTitle[title] = target
      return target
    }

    mutating func holds(_ text: String, in target: PlannedTarget) -> Bool {
      if received[target]?.contains(text) == true { return true }
      guard case .existing(let id) = target, let index = existing[id] else { return false }
      if exactTexts[id] == nil {
        exactTexts[id] = Set(library.categories[index].texts.lazy.map(ExactText.init))
      }
      if exactTexts[id]?.contains(ExactText(text)) == true { return true }
      if texts[id] == nil { texts[id] = Set(library.categories[index].texts) }
      return texts[id]?.contains(text) == true
    }

    mutating func nextDittoOrder(in target: PlannedTarget) -> Int64 {
      let order: Int64
      if let next = nextOrder[target] {
        order = next
      } else if case .existing(let id) = target, let index = existing[id] {
        order = (library.categories[index].largestDittoSortOrder ?? -1) + 1
      } else {
        order = 0
      }
      nextOrder[target] = order + 1
      return order
    }
  }
}

/// A text compared by its exact UTF-8 bytes: hashing it needs no Unicode normalization (a `String`
/// hashes its NFC form, which for texts with accents or emoji costs more than the rest of the
/// planning). Byte-equal texts are canonically equivalent; the converse does not hold, so a miss
/// falls back to comparing `String`s.
struct ExactText: Hashable {
  var text: String

  init(_ text: String) { self.text = text }

  func hash(into hasher: inout Hasher) {
    var copy = text
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    var left = lhs.text
    var right = rhs.text
    return left.withUTF8 { a in
      right.withUTF8 { b in
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
  }
}
