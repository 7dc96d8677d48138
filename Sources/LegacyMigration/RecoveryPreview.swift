import Telemetry

/// What an attempt would take from a survey, worked out in one place: the sources in import order,
/// how many categories and dittos they hold (each ditto once, as the merge counts them), what of it
/// salvage rebuilds, and what salvage found only in `-wal` frames never committed (left out unless
/// asked for). Nothing is read or written: it is arithmetic over ``LegacySurvey``.
///
/// `status`'s `recoverable`, `migrate`'s salvage line, the recovery file's "`--salvage` would add"
/// and the nearby copies' counts all read it, so they cannot disagree.
package struct RecoveryPreview: Sendable, Equatable {
  /// The sources, in the order the attempt imports them.
  package let sources: [LegacySurvey.Source]
  /// Categories the sources hold, each once.
  package let categories: Int
  /// Dittos the sources hold, each once: what an import into a library without them adds.
  package let dittos: Int
  /// Of the sources, the dittos salvage rebuilds from bytes SQLite cannot read.
  package let salvagedDittos: Int
  /// Dittos salvage found only in frames never committed, in every file salvaged.
  package let neverCommitted: Int
  /// The files (as named in their root) whose salvage found dittos only in frames never
  /// committed.
  package let neverCommittedFiles: [String]

  /// True when some of the dittos are rebuilt by salvage.
  package var isSalvaged: Bool {
    sources.contains {
      if case .salvage = $0.origin { return true }
      return false
    }
  }

  /// The files salvage rebuilds from, then those holding dittos only in frames never committed
  /// (each once, as named in their root).
  package var salvageFiles: [String] {
    var files = neverCommittedFiles
    for source in sources {
      guard case .salvage(let candidate) = source.origin else { continue }
      if !files.contains(candidate.relativePath) { files.insert(candidate.relativePath, at: 0) }
    }
    return files
  }

  /// Each source as named in the container (`Ditto.sqlite-wal`, `keyboard additions`).
  package var sourceNames: [String] {
    sources.map { source in
      switch source.origin {
      case .store(let candidate), .salvage(let candidate): candidate.relativePath
      case .neverCommitted(let candidate): candidate.relativePath + " (never committed)"
      case .defaults: source.kind == .pending ? "keyboard additions" : "1.x dittos"
      }
    }
  }

  init(_ survey: LegacySurvey, for trigger: MigrationSource) {
    sources = survey.sources(for: trigger)
    // Several sources that overlap (one store in two places) are counted as the merge counts
    // them.
    categories = survey.distinct?.categories ?? sources.reduce(0) { $0 + $1.categories }
    dittos = survey.distinct?.dittos ?? sources.reduce(0) { $0 + $1.dittos }
    salvagedDittos = sources.reduce(0) { total, source in
      if case .salvage = source.origin { return total + source.dittos }
      return total
    }
    neverCommitted = survey.neverCommittedDittos
    neverCommittedFiles =
      survey.stores.filter { ($0.salvage?.neverCommitted ?? 0) > 0 || $0.neverCommitted > 0 }
      .map(\.candidate.relativePath)
      + survey.loneWALs.filter { ($0.salvage?.neverCommitted ?? 0) > 0 }
      .map(\.candidate.relativePath)
  }
}

extension LegacySurvey {
  /// What an attempt from `trigger` would take from what this survey read (see
  /// ``RecoveryPreview``); `.manual` is what Recover Old Dittos takes.
  package func preview(for trigger: MigrationSource) -> RecoveryPreview {
    RecoveryPreview(self, for: trigger)
  }
}
