import LibraryMerge
import Testing

private func category(_ title: String, _ texts: [String]) -> MergeCategory {
  MergeCategory(title: title, dittos: texts.map { MergeDitto(text: $0) })
}

private func existing(
  _ id: Int64, _ title: String, order: Int64, _ texts: [String], largest: Int64? = nil
) -> CurrentCategory {
  CurrentCategory(
    id: CategoryID(id), title: title, sortOrder: order, texts: texts,
    largestDittoSortOrder: largest ?? (texts.isEmpty ? nil : Int64(texts.count - 1)))
}

@Suite struct MergePlannerTests {
  @Test func intoAnEmptyStoreCreatesOneProfileAndAppendsInOrder() {
    let source = MergeSource(
      kind: "coredata", categories: [category("Work", ["a", "b"]), category("Home", ["c"])])
    let plan = MergePlanner.plan([source], into: .empty)
    #expect(plan.createsProfile)
    #expect(
      plan.newCategories == [
        PlannedCategory(title: "Work", sortOrder: 0), PlannedCategory(title: "Home", sortOrder: 1),
      ])
    #expect(plan.dittos.map(\.text) == ["a", "b", "c"])
    #expect(plan.dittos.map(\.sortOrder) == [0, 1, 0])
    #expect(plan.dittos.map(\.target) == [.new(0), .new(0), .new(1)])
    #expect(plan.counts.inserted == 3)
    #expect(plan.counts.insertedCategories == 2)
    #expect(plan.counts.categoriesReceivingDittos == 2)
  }

  @Test func nothingToInsertCreatesNoProfile() {
    let plan = MergePlanner.plan([MergeSource(kind: "coredata", categories: [])], into: .empty)
    #expect(!plan.createsProfile)
    #expect(plan.isEmpty)
  }

  @Test func mergesByTitleIntoTheFirstSuchCategoryAndAppendsAfterTheLargestOrder() {
    let library = CurrentLibrary(
      hasProfile: true,
      categories: [
        existing(7, "Driving", order: 2, ["x"], largest: 9),
        existing(3, "Driving", order: 5, []),
        existing(4, "Business", order: 40, []),
      ])
    let source = MergeSource(
      kind: "coredata", categories: [category("Driving", ["x", "y"]), category("New", ["z"])])
    let plan = MergePlanner.plan([source], into: library)
    #expect(!plan.createsProfile)
    #expect(
      plan.dittos[0]
        == PlannedDitto(target: .existing(CategoryID(7)), text: "y", useCount: 0, sortOrder: 10))
    #expect(plan.newCategories == [PlannedCategory(title: "New", sortOrder: 41)])
    #expect(plan.counts.skipped == 1)
    #expect(plan.counts.inserted == 2)
  }

  @Test func repeatsInsideOneSourceAreKeptButNotAcrossSources() {
    let store = MergeSource(kind: "coredata", categories: [category("General", ["hi", "hi"])])
    let v1 = MergeSource(kind: "v1", categories: [category("General", ["hi", "new"])])
    let plan = MergePlanner.plan([store, v1], into: .empty)
    #expect(plan.dittos.map(\.text) == ["hi", "hi", "new"])
    #expect(plan.countsBySource.map(\.inserted) == [2, 1])
    #expect(plan.countsBySource.map(\.skipped) == [0, 1])
    #expect(plan.newCategories.count == 1)
  }

  @Test func canonicalEquivalenceDecidesEquality() {
    let decomposed = "cafe\u{301}"
    let library = CurrentLibrary(
      hasProfile: true, categories: [existing(1, "Caf\u{E9}s", order: 0, [decomposed])])
    let source = MergeSource(
      kind: "coredata", categories: [category("Cafe\u{301}s", ["caf\u{E9}", "tea"])])
    let plan = MergePlanner.plan([source], into: library)
    #expect(plan.newCategories.isEmpty)
    #expect(plan.dittos.map(\.text) == ["tea"])
    #expect(plan.counts.skipped == 1)
  }

  @Test func useCountsAreKept() {
    let source = MergeSource(
      kind: "coredata",
      categories: [MergeCategory(title: "A", dittos: [MergeDitto(text: "t", useCount: 12)])])
    #expect(MergePlanner.plan([source], into: .empty).dittos.first?.useCount == 12)
  }

  @Test func planningTwiceAgainstTheResultInsertsNothing() {
    let source = MergeSource(
      kind: "coredata", categories: [category("A", ["1", "2"]), category("B", ["3"])])
    let first = MergePlanner.plan([source], into: .empty)
    let after = CurrentLibrary(
      hasProfile: true,
      categories: first.newCategories.enumerated().map { index, planned in
        let texts = first.dittos.filter { $0.target == .new(index) }.map(\.text)
        return existing(Int64(index + 1), planned.title, order: planned.sortOrder, texts)
      })
    let second = MergePlanner.plan([source], into: after)
    #expect(second.isEmpty)
    #expect(second.counts.skipped == 3)
    #expect(second.counts.dittosRead == 3)
  }
}

/// A source that fails while it streams (its bytes stopped reading halfway): the merge stops with the
/// source's error, never the library's.
@Suite struct StreamedSourceFailureTests {
  struct Unreadable: Error, CustomStringConvertible {
    var description: String { "Ditto.sqlite: could not be read (I/O error)" }
  }

  struct FailingHalfway: MergeSourceStream {
    let kind = "coredata"
    let categoryTitles = ["Work"]
    let dittoCount = 2
    func stream(_ visit: (MergeItem) throws(ImportFailure) -> Void) throws(ImportFailure) {
      try visit(.category(title: "Work"))
      try visit(.ditto(MergeDitto(text: "first")))
      throw .source(SourceReadFailure(Unreadable()))
    }
  }

  @Test func aSourceThatStopsReadingIsTheSourcesFailure() {
    let session = PlanSession(library: .empty)
    do {
      _ = try LibraryMerger.merge([FailingHalfway()], into: session)
      Issue.record("a failing source merged")
    } catch {
      guard case .source(let failure) = error.reason else {
        Issue.record("reported as the library's: \(error)")
        return
      }
      #expect(failure.description.contains("could not be read"))
    }
  }

  @Test func theCategoryCapCountsWhatItLeavesOut() {
    let library = CurrentLibrary(
      hasProfile: true,
      categories: (0..<7).map {
        CurrentCategory(
          id: CategoryID(Int64($0)), title: "C\($0)", sortOrder: Int64($0), texts: [],
          largestDittoSortOrder: nil)
      })
    let source = MergeSource(
      kind: "csv",
      categories: [
        MergeCategory(title: "C1", dittos: [MergeDitto(text: "kept in an existing one")]),
        MergeCategory(title: "New A", dittos: [MergeDitto(text: "a")]),
        MergeCategory(title: "New B", dittos: [MergeDitto(text: "b1"), MergeDitto(text: "b2")]),
        MergeCategory(title: "New A", dittos: [MergeDitto(text: "a2")]),
      ])
    let plan = MergePlanner.plan([source], into: library, rules: .csvImport)
    #expect(plan.newCategories.map(\.title) == ["New A"])
    #expect(plan.counts.categoriesOverLimit == 1)
    #expect(plan.counts.dittosOverLimit == 2)
    #expect(plan.counts.inserted == 3)
    #expect(
      plan.counts.inserted + plan.counts.skipped + plan.counts.dittosOverLimit
        == plan.counts.dittosRead)
  }
}
