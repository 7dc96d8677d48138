import FuzzSupport
import LegacyStore
import StoreFixtures

// The legacy reader over a hostile store: input = `Ditto.sqlite` and its `-wal` (SplitInput).
// CoreDataStore (entities, row counts, metadata plist) and LegacyStoreReader (the whole 2.x walk) on
// one snapshot, as `inspect` and `migrate` use them. A thrown LegacyStoreError is an answer.
//
// Invariant: the survey's pass (`count()`) and the walk that follows (a small store's held rows,
// replayed) give what a reader that walks through SQLite alone gives, item for item and count for
// count, whenever both read the store.
let scratch = Scratch()

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "Ditto.sqlite")
  do {
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    _ = (store.journalMode, store.textEncoding, store.storeUUID, store.storeType)
    for entity in store.entities { _ = try store.rowCount(of: entity) }
    _ = try LegacyStoreReader(store: store).read()
    let counted = try LegacyStoreReader(store: store)
    let summary = try counted.count()
    let replayed = try WalkTranscript.of(counted)
    let walked = try WalkTranscript.of(try LegacyStoreReader(store: store))
    FuzzDriver.expect(replayed.0 == walked.0, "the replayed walk differs from SQLite's")
    FuzzDriver.expect(replayed.1 == walked.1, "the replayed walk's counts differ from SQLite's")
    FuzzDriver.expect(summary == walked.1, "the survey's counts differ from the walk's")
  } catch {
    // LegacyStoreError: "could not read", named and explained. Exactly what a hostile file should
    // get.
  }
}
