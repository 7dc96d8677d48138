import FuzzSupport
import LegacyStore

// The legacy reader over a hostile store: input = `Ditto.sqlite` and its `-wal` (SplitInput).
// CoreDataStore (entities, row counts, metadata plist) and LegacyStoreReader (the whole 2.x walk) on
// one snapshot, as `inspect` and `migrate` use them. A thrown LegacyStoreError is an answer.
let scratch = Scratch()

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "Ditto.sqlite")
  do {
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    _ = (store.journalMode, store.textEncoding, store.storeUUID, store.storeType)
    for entity in store.entities { _ = try store.rowCount(of: entity) }
    _ = try LegacyStoreReader(store: store).read()
  } catch {
    // LegacyStoreError: "could not read", named and explained. Exactly what a hostile file should
    // get.
  }
}
