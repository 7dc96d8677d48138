// A test-only `migrate` that kills itself (SIGKILL) at one stage of an attempt, for the crash harness:
// the shipped ditto-recover has no such switch.
//
//   crash-harness-tool <container> <stage>
//   stage: in-transaction (inside the write transaction, before the first row is written)
//          committed      (the import committed; the flag is not written yet)
//          flag-written   (the flag was written)
import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import LibraryMerge
import Telemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: crash-harness-tool <container> <stage>\n".utf8))
  exit(64)
}
let stage = arguments[2]

func die(at point: String) {
  if point == stage { kill(getpid(), SIGKILL) }
}

final class KillingDestination: MigrationDestination {
  let base: DittoStoreDestination
  init(path: String) { base = DittoStoreDestination(path: path) }

  func outline() throws(DestinationError) -> LibraryOutline { try base.outline() }

  func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    try base.previewImport(body)
  }

  func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    let result = try base.applyImport { (session) throws(ImportFailure) in
      die(at: "in-transaction")
      return try body(session)
    }
    die(at: "committed")
    return result
  }
}

final class KillingFlags: MigrationFlagStore {
  let base: AppGroupDefaults
  init(path: String) { base = AppGroupDefaults(path: path) }

  func readFlags() throws(FlagStoreError) -> MigrationFlags { try base.readFlags() }

  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    try base.writeFlags(flags)
    die(at: "flag-written")
  }
}

let layout = ContainerLayout(container: arguments[1])
let migrator = LegacyDataMigrator(
  layout: layout, destination: KillingDestination(path: layout.defaultLibraryPath),
  flags: KillingFlags(path: layout.defaultsPath),
  legacyDefaults: AppGroupDefaults(path: layout.defaultsPath), logger: .disabled)
switch migrator.migrateIfNeeded() {
case .alreadyComplete: print("already_complete")
case .attempted(let report): print(report.outcome.rawValue)
}
