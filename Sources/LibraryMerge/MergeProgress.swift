/// How far a merge has gone: the dittos its sources offer, and how many of them it has read.
package struct MergeProgress: Sendable, Equatable {
  /// Dittos read so far (imported or skipped).
  package var read: Int
  /// Dittos the sources offer in all, as their survey counted them.
  package var offered: Int

  package init(read: Int, offered: Int) {
    self.read = read
    self.offered = offered
  }
}

/// A session that shows how far a merge has gone (the tool's progress line): when it conforms,
/// the merge tells it what the sources offer before the first ditto, then how many it has read,
/// every ``LibraryMerger/progressStep`` dittos and once at the end. Package-only: a session of the
/// app's need not know.
package protocol MergeProgressReporting: AnyObject {
  /// The merge has read `progress.read` of the `progress.offered` dittos.
  func mergeProgressed(_ progress: MergeProgress)
}
