import ContainerFiles
import FuzzSupport
import LegacyMigration
import LibraryMerge
import PropertyLists
import Telemetry

// The App Group defaults over a hostile plist: input = `group.io.kern.ditto.plist` (any format).
// load(), the legacy keys as the migrator reads them (the 1.x list, the 1.x pair, the keyboard's
// pending keys: hasRecoverableLegacyData through the public API), the flag readers, then update()
// as the migrator sets its flag (on the scratch copy).
//
// Invariant: after a successful update, the file reads back, the flag reads as set and every other
// key is still there.
let scratch = Scratch()

/// An empty library: the legacy side is what is fuzzed.
struct EmptyLibrary: PlanApplyingDestination {
  struct Hold: LibraryHold {
    var library: CurrentLibrary { CurrentLibrary(hasProfile: false, categories: []) }
    func apply(_ plan: ImportPlan) throws(DestinationError) {}
  }
  func holdLibrary() throws(DestinationError) -> Hold { Hold() }
}

FuzzDriver.run { bytes in
  scratch.clear()
  let defaults = AppGroupDefaults(path: scratch.write(bytes, to: AppGroupDefaults.fileName))
  let values: [String: PropertyListValue]
  do {
    guard let loaded = try defaults.load() else { FuzzDriver.fail("the file vanished") }
    values = loaded
    _ = try defaults.isMigrationComplete()
    _ = try defaults.attempts()
  } catch {
    return  // DefaultsError.unreadable: the file is left as it is.
  }
  let migrator = LegacyDataMigrator(
    layout: ContainerLayout(container: scratch.path + "/no-container"),
    destination: EmptyLibrary(), defaults: defaults,
    logger: EngineLogger.legacyDataMigrator(handler: DiscardOutput()))
  _ = migrator.hasRecoverableLegacyData()
  do {
    try defaults.update([AppGroupDefaults.completionKey: true])
  } catch {
    FuzzDriver.fail("a file that reads could not be updated: \(error)")
  }
  do {
    guard let updated = try defaults.load() else { FuzzDriver.fail("the file vanished") }
    FuzzDriver.expect(try defaults.isMigrationComplete(), "the flag was written but reads as unset")
    let lost = Set(values.keys).subtracting(updated.keys)
    FuzzDriver.expect(lost.isEmpty, "update() lost \(lost.count) keys")
  } catch {
    FuzzDriver.fail("update() left a file that cannot be read back: \(error)")
  }
}

/// Log records are not what is fuzzed.
struct DiscardOutput: LogHandler {
  func log(_ record: LogRecord) {}
}
