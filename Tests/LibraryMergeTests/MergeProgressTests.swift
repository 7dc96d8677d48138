import LibraryMerge
import Testing

/// A session that counts how far the merge has gone tells it so: first what the sources offer,
/// then every ``LibraryMerger/progressStep`` dittos read, and once at the end.
@Suite struct MergeProgressTests {
  final class ReportingSession: ImportSession, MergeProgressReporting {
    let plan = PlanSession(library: .empty)
    var reports: [MergeProgress] = []
    var outline: LibraryOutline { plan.outline }
    var facts: LibraryFacts { plan.facts }
    func heldBeforeImport(_ text: String, in category: CategoryID) -> Bool {
      plan.heldBeforeImport(text, in: category)
    }
    func insertCategory(title: String, sortOrder: Int64) -> CategoryID {
      plan.insertCategory(title: title, sortOrder: sortOrder)
    }
    func insertDitto(text: String, useCount: Int64, sortOrder: Int64, in category: CategoryID) {
      plan.insertDitto(text: text, useCount: useCount, sortOrder: sortOrder, in: category)
    }
    func mergeProgressed(_ progress: MergeProgress) { reports.append(progress) }
  }

  @Test(arguments: [[0], [1], [1_023, 1], [1_024], [3_000, 2_500, 0], [5_000]])
  func theSessionIsToldWhatWasReadOfWhatIsOffered(sizes: [Int]) throws {
    let sources = sizes.enumerated().map { index, size in
      MergeSource(
        kind: "coredata",
        categories: [
          MergeCategory(
            title: "Category \(index % 2)",
            dittos: (0..<size).map { MergeDitto(text: "text \($0 % 700)") })
        ])
    }
    let offered = sizes.reduce(0, +)
    let session = ReportingSession()
    _ = try LibraryMerger.merge(sources, into: session)
    #expect(session.reports.first == MergeProgress(read: 0, offered: offered))
    #expect(session.reports.last == MergeProgress(read: offered, offered: offered))
    let steps = session.reports.dropFirst().dropLast().map(\.read)
    #expect(steps == Array(stride(from: 1_024, through: offered, by: LibraryMerger.progressStep)))
  }
}
