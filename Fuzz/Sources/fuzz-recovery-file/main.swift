import DittoStore
import Foundation
import FuzzSupport
import LegacyMigration
import LibraryMerge
import RecoveryFile
import Telemetry

// A `.dittorecovery` file from a stranger (AirDropped, opened from Files): input = the file and its
// `-wal` (SplitInput). Read as the app reads it: its metadata record (RecoveryFileInfo), then
// `recoverNow(from:)`'s whole manual path, previewed against a library that is not there (as
// against an empty one). Invariants: a file the user picked is never "nothing on disk", and every
// attempt ends in an outcome.
let scratch = Scratch()

/// No flags: the manual path reads them only to report them.
struct NoFlags: MigrationFlagStore {
  func readFlags() throws(FlagStoreError) -> MigrationFlags { MigrationFlags() }
  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {}
}

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "picked.dittorecovery")
  do {
    _ = try RecoveryFileInfo.read(path: path)
  } catch {
    // RecoveryFileError: unreadable or malformed, named. An answer.
  }
  let migrator = LegacyDataMigrator(
    layout: ContainerLayout(container: scratch.path + "/no-container"),
    destination: DittoStoreDestination(path: scratch.path + "/no-library/Ditto.store"),
    flags: NoFlags(), legacyDefaults: nil, logger: .disabled)
  let url = URL(fileURLWithPath: path)
  let report = FuzzDriver.blocking { await migrator.recoverNow(from: url, dryRun: true) }
  FuzzDriver.expect(report.outcome != .nothingOnDisk, "a picked file was nothing on disk")
  FuzzDriver.expect(report.isFromFile, "the report lost from=file")
  _ = (report.recoveryResult.message, report.previewMessage, report.telemetryLine)
}
