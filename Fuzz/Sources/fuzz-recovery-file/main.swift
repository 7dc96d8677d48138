import Foundation
import FuzzSupport
import LegacyMigration
import LibraryMerge
import PropertyLists
import RecoveryFile
import Telemetry

// A `.dittorecovery` file from a stranger (AirDropped, opened from Files): input = the file and its
// `-wal` (SplitInput). Read as the app reads it: its metadata record (RecoveryFileInfo), then
// `recoverNow(from:)`'s whole manual path against a library that is not there, previewed then
// attempted. Invariants: a file the user picked is never "nothing on disk", a preview logs no
// outcome line and an attempt exactly one, marked from=file.
let scratch = Scratch()

/// No flags and no legacy defaults: the manual path reads the flags only to report them.
struct NoDefaults: MigrationFlagStore, LegacyDefaultsSource {
  var legacySourceName: String { "none" }
  func readFlags() throws(FlagStoreError) -> MigrationFlags { MigrationFlags() }
  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {}
  func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? { nil }
}

/// A library that is not there (as the app's would be before its container exists): every import
/// ends as a library error, after the whole legacy side was read.
struct MissingLibrary: PlanApplyingDestination {
  struct Hold: LibraryHold {
    var library: CurrentLibrary { CurrentLibrary(hasProfile: false, categories: []) }
    func apply(_ plan: ImportPlan) throws(DestinationError) {}
  }
  func holdLibrary() throws(DestinationError) -> Hold {
    throw DestinationError(
      .noLibrary, file: "Ditto.store", reason: "no library in this scratch folder")
  }
}

/// Keeps the `migration_outcome` lines the attempt logs, as the seed's telemetry reads them.
final class OutcomeLines: LogHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func log(_ record: LogRecord) {
    let line = record.message.rendered()
    guard line.hasPrefix("migration_outcome") else { return }
    lock.withLock { lines.append(line) }
  }
  func take() -> [String] {
    lock.withLock {
      defer { lines = [] }
      return lines
    }
  }
}
let outcomeLines = OutcomeLines()

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "picked.dittorecovery")
  do {
    _ = try RecoveryFileInfo.read(path: path)
  } catch {
    // RecoveryFileError: unreadable or malformed, named. An answer.
  }
  let migrator = LegacyDataMigrator(
    layout: ContainerLayout(container: scratch.path + "/no-container"),
    destination: MissingLibrary(),
    defaults: NoDefaults(), logger: EngineLogger.legacyDataMigrator(handler: outcomeLines))
  let url = URL(fileURLWithPath: path)
  let report = FuzzDriver.blocking { await migrator.recoverNow(from: url, dryRun: true) }
  FuzzDriver.expect(report.outcome != .nothingOnDisk, "a picked file was nothing on disk")
  FuzzDriver.expect(outcomeLines.take().isEmpty, "a preview logged a migration_outcome line")
  _ = (report.recoveryResult.message, report.previewMessage, report.technicalDetail)
  let attempt = FuzzDriver.blocking { await migrator.recoverNow(from: url) }
  FuzzDriver.expect(attempt.outcome != .nothingOnDisk, "a picked file was nothing on disk")
  let lines = outcomeLines.take()
  FuzzDriver.expect(lines.count == 1, "\(lines.count) migration_outcome lines for one attempt")
  FuzzDriver.expect(
    lines.allSatisfy { $0.contains(" from=file") }, "the outcome line lost from=file")
}
