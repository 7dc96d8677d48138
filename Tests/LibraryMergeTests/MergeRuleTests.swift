import LibraryMerge
import Testing

/// The merge rules the seed and the app's facts state, one test each beyond `MergePlannerTests`:
/// categories by exact title, dittos by text within their category, order after what is there,
/// no cap for a migration and the app's cap of 8 for a CSV import.
@Suite struct MergeRuleTests {
  static func category(_ title: String, _ texts: [String], useCounts: [Int64]? = nil)
    -> MergeCategory
  {
    MergeCategory(
      title: title,
      dittos: texts.enumerated().map {
        MergeDitto(text: $0.element, useCount: useCounts?[$0.offset] ?? 0)
      })
  }

  static func existing(_ id: Int64, _ title: String, order: Int64, _ texts: [String])
    -> CurrentCategory
  {
    CurrentCategory(
      id: CategoryID(id), title: title, sortOrder: order, texts: texts,
      largestDittoSortOrder: texts.isEmpty ? nil : Int64(texts.count - 1))
  }

  @Test func titlesMatchExactlyNotIgnoringCaseOrSpaces() {
    let library = CurrentLibrary(
      hasProfile: true, categories: [Self.existing(1, "Work", order: 0, ["a"])])
    let source = MergeSource(
      kind: "coredata",
      categories: [Self.category("work", ["b"]), Self.category("Work ", ["c"])])
    let plan = MergePlanner.plan([source], into: library)
    #expect(plan.newCategories.map(\.title) == ["work", "Work "])
    #expect(!plan.dittos.contains { $0.target == .existing(CategoryID(1)) })
  }

  @Test func aTextHeldByAnotherCategoryIsNotADuplicate() {
    let library = CurrentLibrary(
      hasProfile: true, categories: [Self.existing(1, "Work", order: 0, ["hello"])])
    let source = MergeSource(kind: "coredata", categories: [Self.category("Home", ["hello"])])
    let plan = MergePlanner.plan([source], into: library)
    #expect(plan.counts.inserted == 1)
    #expect(plan.counts.skipped == 0)
    #expect(plan.dittos.map(\.target) == [.new(0)])
  }

  @Test func aTitleRepeatedInOneSourceFillsOneCategoryInOrder() {
    let source = MergeSource(
      kind: "coredata",
      categories: [
        Self.category("Work", ["a", "b"]), Self.category("Home", ["c"]),
        Self.category("Work", ["d"]),
      ])
    let plan = MergePlanner.plan([source], into: .empty)
    #expect(plan.newCategories.map(\.title) == ["Work", "Home"])
    let work = plan.dittos.filter { $0.target == .new(0) }
    #expect(work.map(\.text) == ["a", "b", "d"])
    #expect(work.map(\.sortOrder) == [0, 1, 2])
  }

  @Test func anExistingCategoryWithoutDittosReceivesFromOrderZero() {
    let library = CurrentLibrary(
      hasProfile: true, categories: [Self.existing(5, "Empty", order: 3, [])])
    let source = MergeSource(kind: "coredata", categories: [Self.category("Empty", ["x", "y"])])
    let plan = MergePlanner.plan([source], into: library)
    #expect(plan.newCategories.isEmpty)
    #expect(plan.dittos.map(\.sortOrder) == [0, 1])
    #expect(plan.dittos.allSatisfy { $0.target == .existing(CategoryID(5)) })
  }

  @Test func useCountsComeAlongWithEachDitto() {
    let source = MergeSource(
      kind: "coredata", categories: [Self.category("Work", ["a", "b"], useCounts: [7, 0])])
    let plan = MergePlanner.plan([source], into: .empty)
    #expect(plan.dittos.map(\.useCount) == [7, 0])
  }

  @Test func aMigrationHasNoCategoryCap() {
    let library = CurrentLibrary(
      hasProfile: true,
      categories: (0..<8).map { Self.existing(Int64($0), "C\($0)", order: Int64($0), []) })
    let source = MergeSource(
      kind: "coredata", categories: (0..<12).map { Self.category("New \($0)", ["t\($0)"]) })
    let plan = MergePlanner.plan([source], into: library)
    #expect(plan.newCategories.count == 12)
    #expect(plan.newCategories.map(\.sortOrder) == Array(8..<20).map(Int64.init))
    #expect(plan.counts.categoriesOverLimit == 0)
  }

  @Test func atTheCSVCapExistingTitlesStillReceiveTheirDittos() {
    let library = CurrentLibrary(
      hasProfile: true,
      categories: (0..<8).map { Self.existing(Int64($0), "C\($0)", order: Int64($0), ["old"]) })
    let source = MergeSource(
      kind: "csv",
      categories: [
        Self.category("C3", ["new", "old"]), Self.category("Ninth", ["x", "y"]),
      ])
    let plan = MergePlanner.plan([source], into: library, rules: .csvImport)
    #expect(plan.newCategories.isEmpty)
    #expect(plan.dittos.map(\.text) == ["new"])
    #expect(plan.dittos.first?.target == .existing(CategoryID(3)))
    #expect(plan.counts.skipped == 1)
    #expect(plan.counts.categoriesOverLimit == 1)
    #expect(plan.counts.dittosOverLimit == 2)
  }

  @Test func aLaterSourceAddsOnlyWhatEarlierOnesDidNotGive() {
    let store = MergeSource(kind: "coredata", categories: [Self.category("General", ["a", "b"])])
    let pending = MergeSource(kind: "pending", categories: [Self.category("General", ["b", "c"])])
    let version1 = MergeSource(kind: "v1", categories: [Self.category("General", ["c", "a", "d"])])
    let plan = MergePlanner.plan([store, pending, version1], into: .empty)
    #expect(plan.dittos.map(\.text) == ["a", "b", "c", "d"])
    #expect(plan.dittos.map(\.sortOrder) == [0, 1, 2, 3])
    #expect(plan.countsBySource.map(\.skipped) == [0, 1, 2])
  }
}
