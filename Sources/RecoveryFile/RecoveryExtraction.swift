import ContainerFiles
import LegacyMigration
import LibraryMerge
import Telemetry

/// Gathers what a recovery file holds from a container, with the engine's reading side (the same
/// survey and sources an attempt uses): the store a migration imports and every other store that
/// reads and holds dittos, read on their snapshots, the App Group defaults' keyboard additions and
/// 1.x list, and, only when asked, rows salvage rebuilds;
/// then streams them into a new file as a recovery into an empty library would merge them.
///
/// No flag is read or written, no library is opened, and no `migration_outcome` line is emitted
/// (this is no attempt on a device): one `extract:` line at info level says how it ended.
package final class RecoveryExtraction {
  /// The legacy side: the survey and the sources, open on their snapshots until released.
  package let sources: LegacySources
  /// Whose rules chose the sources (a manual attempt salvages, an automatic one does not).
  package let trigger: MigrationSource
  private let logger: EngineLogger

  /// Surveys `layout` and opens the sources a recovery file holds.
  ///
  /// - Parameters:
  ///   - layout: the container copy's places.
  ///   - includesSalvage: also take dittos salvage rebuilds from stores SQLite cannot read and from
  ///     a lone `-wal` (the manual path's rule); without it an unreadable store stays unreadable.
  ///   - logger: info-level lines only.
  package init(
    layout: ContainerLayout, includesSalvage: Bool, includesNeverCommitted: Bool = false,
    logger: EngineLogger
  ) {
    trigger = includesSalvage ? .manual : .auto
    self.logger = logger
    // Every store that reads goes into the file (the chosen one first), as "Recover Old Dittos"
    // takes them: what holds dittos is never left behind.
    sources = LegacySources.gather(
      layout, defaults: AppGroupDefaults(path: layout.defaultsPath),
      selecting: SourceSelection(
        salvaging: includesSalvage, everyStore: true,
        includesNeverCommitted: includesSalvage && includesNeverCommitted),
      logger: logger)
  }

  deinit { sources.close() }

  /// Dittos the sources offer (what the file would hold, before texts repeated across sources are
  /// merged).
  package var offeredDittos: Int { sources.offered.dittos }

  /// Dittos `--salvage` would add: what salvage rebuilds where nothing reads as it is (a store
  /// SQLite cannot read, a lone `-wal`), read now on private snapshots; 0 when salvage was already
  /// included or there is nothing to salvage. Writes nothing.
  package func dittosSalvageWouldAdd() -> Int { salvageWouldAdd().dittos }

  /// What `--salvage` would add (committed dittos), and the dittos salvage finds only in frames
  /// never committed (which only `--include-never-committed` adds). Writes nothing.
  ///
  /// - Parameter salvaged: a survey of the same place that salvaged already (the search nearby
  ///   made one), read instead of salvaging again.
  package func salvageWouldAdd(given salvaged: LegacySurvey? = nil) -> (
    dittos: Int, neverCommitted: Int
  ) {
    guard trigger == .auto else { return (0, sources.survey.neverCommittedDittos) }
    guard let layout = sources.survey.layout else { return (0, 0) }
    let survey = sources.survey
    let unreadable = survey.stores.contains {
      if case .failed = $0.content { return true }
      return false
    }
    guard unreadable || survey.loneWALs.contains(where: \.mayHoldData) else { return (0, 0) }
    func added(_ salvaged: LegacySurvey) -> (dittos: Int, neverCommitted: Int) {
      let preview = salvaged.preview(for: .manual)
      return (preview.salvagedDittos, preview.neverCommitted)
    }
    if let salvaged, salvaged.layout == layout { return added(salvaged) }
    let salvaging = LegacySources.gather(layout, defaults: nil, for: .manual, logger: .disabled)
    defer { salvaging.close() }
    return added(salvaging.survey)
  }

  /// The engine's report of the read, before anything is written (counts as offered).
  package var readReport: MigrationReport { report(counts: offeredCounts) }

  /// Writes the file (see ``RecoveryFileWriter/write(_:info:to:)``).
  ///
  /// - Returns: `info` with its counts, and the engine's report (outcome, sources, counts as
  ///   merged into an empty library).
  /// - Throws: ``RecoveryFileError``.
  package func write(
    info: RecoveryFileInfo, to out: String, progress: ((MergeProgress) -> Void)? = nil
  ) throws(RecoveryFileError) -> (
    info: RecoveryFileInfo, report: MigrationReport
  ) {
    var info = info
    info.salvaged = sources.read.salvaged
    let included = sources.read.neverCommittedIncluded
    info.neverCommitted = included > 0 ? included : nil
    let written = try RecoveryFileWriter.write(
      sources.streams, info: info, to: out, progress: progress)
    info = written.info
    let report = report(counts: written.merge.counts)
    logger.info(
      "extract: outcome=\(report.outcome.rawValue, privacy: .public) categories=\(info.categories) dittos=\(info.dittos)"
    )
    return (info, report)
  }

  private var offeredCounts: ImportCounts {
    var counts = ImportCounts()
    counts.categoriesRead = sources.offered.categories
    counts.dittosRead = offeredDittos
    return counts
  }

  private func report(counts: ImportCounts) -> MigrationReport {
    MigrationReport(
      trigger: trigger, read: sources.read, merge: MergeRecord(counts: counts), isDryRun: false)
  }
}
