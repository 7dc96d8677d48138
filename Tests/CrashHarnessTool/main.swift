// A test-only `migrate` that kills itself (SIGKILL) at one stage of an attempt, for the crash harness:
// the shipped ditto-recover has no such switch.
//
//   crash-harness-tool <container> <stage>
//   stage: in-transaction (inside the write transaction, before the first row is written)
//          committed      (the import committed; the flag is not written yet)
//          flag-written   (the flag was written)
//
//   crash-harness-tool <container> defaults-before-first-unlock
//     no kill: the App Group defaults answer as UserDefaults does before the first unlock (no
//     legacy key, flags at their defaults) while the preferences file on disk is whatever the test
//     left there; prints the telemetry line and `flag-writes=N` (the permission tests run it as a
//     user who may not read that file).
import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists
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

/// The App Group defaults as `UserDefaults` answers them before the first unlock: defaults.
final class DefaultsBeforeFirstUnlock: MigrationFlagStore, LegacyDefaultsSource, @unchecked Sendable
{
  private let lock = NSLock()
  private var written = 0
  var writes: Int {
    lock.lock()
    defer { lock.unlock() }
    return written
  }
  func readFlags() throws(FlagStoreError) -> MigrationFlags { MigrationFlags() }
  func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    lock.lock()
    written += 1
    lock.unlock()
  }
  var legacySourceName: String { "UserDefaults(group.io.kern.ditto)" }
  func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? { nil }
}

let layout = ContainerLayout(container: arguments[1])
if stage == "defaults-before-first-unlock" {
  let defaults = DefaultsBeforeFirstUnlock()
  let migrator = LegacyDataMigrator(
    layout: layout, destination: DittoStoreDestination(path: layout.defaultLibraryPath),
    defaults: defaults, logger: .disabled)
  let report = migrator.migrateIfNeededBlocking().report
  print(report?.telemetryLine ?? "already_complete")
  print("flag-writes=\(defaults.writes)")
  exit(0)
}
let migrator = LegacyDataMigrator(
  layout: layout, destination: KillingDestination(path: layout.defaultLibraryPath),
  flags: KillingFlags(path: layout.defaultsPath),
  legacyDefaults: AppGroupDefaults(path: layout.defaultsPath), logger: .disabled)
switch migrator.migrateIfNeededBlocking() {
case .alreadyComplete: print("already_complete")
case .attempted(let report): print(report.outcome.rawValue)
}
