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
// Invariant: the update succeeds unless the file holds a string no rewrite could keep (an unpaired
// surrogate, refused by name); after it, the file reads back, the flag reads as set, and every
// other key is still there with its value, by its UTF-16 code units and in its place.
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
  let values: PropertyListDictionary
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
    let keepsEveryUnit: Bool
    do {
      _ = try PropertyListReader.decode(bytes, unpairedSurrogates: .refused)
      keepsEveryUnit = true
    } catch let error as PropertyListError {
      keepsEveryUnit = error.kind != .unpairedSurrogate
    } catch {
      FuzzDriver.fail("the reader threw something that is not a PropertyListError: \(error)")
    }
    FuzzDriver.expect(!keepsEveryUnit, "a file that reads could not be updated: \(error)")
    return
  }
  do {
    guard let updated = try defaults.load() else { FuzzDriver.fail("the file vanished") }
    FuzzDriver.expect(try defaults.isMigrationComplete(), "the flag was written but reads as unset")
    let format = try PropertyListReader.decode(bytes).format
    let kept = values.filter { $0.key != AppGroupDefaults.completionKey }
    for (key, value) in kept {
      FuzzDriver.expect(
        updated[key].map { PropertyListRoundTrip.same($0, value, as: format) } ?? false,
        "update() lost or changed a key")
    }
    let order = updated.keys.filter { $0 != AppGroupDefaults.completionKey }
    FuzzDriver.expect(
      order.map { Array($0.utf16) } == kept.map { Array($0.key.utf16) },
      "update() reordered the keys")
  } catch {
    FuzzDriver.fail("update() left a file that cannot be read back: \(error)")
  }
}

/// Log records are not what is fuzzed.
struct DiscardOutput: LogHandler {
  func log(_ record: LogRecord) {}
}
