import ContainerFiles
import FuzzSupport
import LegacyMigration
import PropertyLists

// The App Group defaults over a hostile plist: input = `group.io.kern.ditto.plist` (any format).
// load() and DefaultsLegacyContent (the 1.x list, the 1.x pair, the keyboard's pending keys), the
// flag readers, then update() as the migrator sets its flag (on the scratch copy).
//
// Invariant: after a successful update, the file reads back, the flag reads as set and every other
// key is still there.
let scratch = Scratch()

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
  let content = DefaultsLegacyContent(values: values.mapValues(\.plainValue))
  _ = (content.isEmpty, content.problems, content.skippedEmptyTexts)
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
