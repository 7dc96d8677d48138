import ContainerFiles
import LegacyMigration
import LibraryMerge
import Telemetry

/// Gathers what a recovery file holds by running the engine's reading side on a container: the
/// chosen 2.x store read in full (its `-wal` applied), the App Group defaults' keyboard additions and
/// 1.x list, and, only when asked, salvaged rows; merged as a recovery into an empty library would.
///
/// Nothing is written anywhere: the destination only records the plan, and the flag store keeps
/// nothing. The engine's `migration_outcome` line is not emitted (this is no attempt on a device);
/// one `extract:` line at info level says how reading ended.
public enum RecoveryExtractor {
  /// What was gathered.
  public struct Extraction: Sendable {
    /// The engine's report of the read (outcome, sources, errors, counts against an empty library).
    public var report: MigrationReport
    /// The categories the file holds, in order, each with its dittos in order.
    public var categories: [MergeCategory]

    /// Number of dittos over all categories.
    public var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }

    /// The sources as the metadata record lists them.
    public var sourceCounts: [RecoveryFileInfo.SourceCount] {
      report.sources.filter { $0.error == nil }.map {
        RecoveryFileInfo.SourceCount(
          kind: $0.kind.rawValue, categories: $0.categories, dittos: $0.dittos)
      }
    }
  }

  /// Reads everything recoverable in `layout`.
  ///
  /// - Parameter includesSalvage: also rebuild dittos from stores SQLite cannot read and from a lone
  ///   `-wal` (the manual path's rule); without it, an unreadable store stays unreadable.
  public static func extract(
    layout: ContainerLayout, includesSalvage: Bool, logger: EngineLogger
  ) -> Extraction {
    let capture = PlanCapture()
    var quiet = logger
    quiet.handler = WithoutOutcomeLines(wrapped: logger.handler)
    let migrator = LegacyDataMigrator(
      layout: layout, destination: capture, flags: KeepNothingFlags(),
      legacyDefaults: AppGroupDefaults(path: layout.defaultsPath), logger: quiet)
    let report: MigrationReport
    if includesSalvage {
      report = migrator.recoverNow()
    } else {
      // The automatic path reads exactly what the manual one does, without salvage.
      switch migrator.migrateIfNeeded() {
      case .attempted(let attempted): report = attempted
      case .alreadyComplete: report = MigrationReport(source: .auto, outcome: .nothingOnDisk)
      }
    }
    let categories = capture.plan.map(Self.categories(of:)) ?? []
    logger.info(
      "extract: outcome=\(report.outcome.rawValue, privacy: .public) categories=\(categories.count) dittos=\(categories.reduce(0) { $0 + $1.dittos.count })"
    )
    return Extraction(report: report, categories: categories)
  }

  /// The categories a plan against an empty library creates, with their dittos in order.
  static func categories(of plan: ImportPlan) -> [MergeCategory] {
    // The planner numbers each category's dittos in the order it appends them: source order.
    var categories = plan.newCategories.map { MergeCategory(title: $0.title) }
    for ditto in plan.dittos {
      guard case .new(let index) = ditto.target, categories.indices.contains(index) else {
        continue  // an empty library has no existing category
      }
      categories[index].dittos.append(MergeDitto(text: ditto.text, useCount: ditto.useCount))
    }
    return categories
  }
}

/// A destination that holds nothing and records the plan it is asked to apply.
final class PlanCapture: MigrationDestination {
  private(set) var plan: ImportPlan?

  func currentLibrary() throws(DestinationError) -> CurrentLibrary { .empty }

  func applyImport(_ plan: (CurrentLibrary) -> ImportPlan) throws(DestinationError) -> ImportPlan {
    let planned = plan(.empty)
    self.plan = planned
    return planned
  }
}

/// Flags that are never set and never stored.
struct KeepNothingFlags: MigrationFlagStore {
  func readFlags() throws(FlagStoreError) -> MigrationFlags { MigrationFlags() }
  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {}
}

/// Passes every record on but the `migration_outcome` line.
struct WithoutOutcomeLines: LogHandler {
  let wrapped: any LogHandler

  func log(_ record: LogRecord) {
    if record.message.rendered(redactingPrivate: true).hasPrefix("migration_outcome ") { return }
    wrapped.log(record)
  }
}
