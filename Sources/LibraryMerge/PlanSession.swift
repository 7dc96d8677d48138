#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An import collected in memory: membership answered from the library's texts, inserts recorded
/// as an ``ImportPlan`` (for a library the caller already holds in memory: the app's `ModelContext`,
/// tests).
package final class PlanSession: ImportSession {
  /// The library the plan is made against.
  package let library: CurrentLibrary
  package let outline: LibraryOutline
  package let facts: LibraryFacts
  /// What the merge inserted so far.
  package private(set) var plan = ImportPlan()

  /// Handles of the categories this plan creates, beyond every existing one's.
  private let firstNewID: Int64
  /// The outline's index of each existing category.
  private let existing: [CategoryID: Int]
  /// Texts each existing category held, by their exact UTF-8 bytes, built when first asked: a
  /// byte-equal text is an equal one, found without Unicode normalization.
  private var exactTexts: [CategoryID: Set<ExactText>] = [:]
  /// The same texts as `String`s (canonical equivalence), built only when a text is not found byte
  /// for byte.
  private var texts: [CategoryID: Set<String>] = [:]

  /// A session that plans against `library` (facts about it in `facts`) and writes nothing.
  package init(library: CurrentLibrary, facts: LibraryFacts = LibraryFacts()) {
    self.library = library
    self.facts = facts
    outline = library.outline
    firstNewID = (library.categories.map(\.id.rawValue).max() ?? 0) + 1
    var existing: [CategoryID: Int] = [:]
    for (index, category) in library.categories.enumerated() where existing[category.id] == nil {
      existing[category.id] = index
    }
    self.existing = existing
  }

  package func heldBeforeImport(_ text: String, in category: CategoryID) -> Bool {
    guard let index = existing[category] else { return false }
    if exactTexts[category] == nil {
      exactTexts[category] = Set(library.categories[index].texts.lazy.map(ExactText.init))
    }
    if exactTexts[category]?.contains(ExactText(text)) == true { return true }
    if texts[category] == nil { texts[category] = Set(library.categories[index].texts) }
    return texts[category]?.contains(text) == true
  }

  package func insertCategory(title: String, sortOrder: Int64) -> CategoryID {
    plan.newCategories.append(PlannedCategory(title: title, sortOrder: sortOrder))
    plan.createsProfile = !library.hasProfile
    return CategoryID(firstNewID + Int64(plan.newCategories.count - 1))
  }

  package func insertDitto(text: String, useCount: Int64, sortOrder: Int64, in category: CategoryID)
  {
    let newIndex = category.rawValue - firstNewID
    // A handle past every existing one's is a new category's (no lookup per ditto).
    let target: PlannedTarget =
      newIndex >= 0 && newIndex < plan.newCategories.count && existing[category] == nil
      ? .new(Int(newIndex)) : .existing(category)
    plan.dittos.append(
      PlannedDitto(target: target, text: text, useCount: useCount, sortOrder: sortOrder))
    if !plan.createsProfile, !library.hasProfile { plan.createsProfile = true }
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
