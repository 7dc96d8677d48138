/// The merge of sources held in memory into a library held in memory, as one ``ImportPlan``: the
/// rules of ``LibraryMerger``, for previews, tests and small imports.
package enum MergePlanner {
  /// Plans the import of `sources` (in order) into `library`.
  package static func plan(
    _ sources: [MergeSource], into library: CurrentLibrary,
    rules: LibraryMerger.Rules = LibraryMerger.Rules()
  ) -> ImportPlan {
    let session = PlanSession(library: library)
    let result: LibraryMerger.Result
    do {
      result = try LibraryMerger.merge(sources, into: session, rules: rules)
    } catch {
      // In-memory sources and a PlanSession have nothing that can fail.
      preconditionFailure("an in-memory merge failed: \(error)")
    }
    var plan = session.plan
    plan.counts = result.counts
    plan.countsBySource = result.countsBySource
    plan.createsProfile = result.createsProfile
    return plan
  }
}
