import DittoLibrary
import FuzzSupport
import LegacyStore

// The migrator's fast path over a hostile store: DittoStoreReader plans the categories,
// makeBulkSource turns the plan into SQL, and LibraryStore.importItems(bulk:) ATTACHes the store's
// snapshot to the library's connection and copies with INSERT … SELECT. Input = `Ditto.sqlite`
// and its `-wal` (SplitInput), imported into a new library each time.
//
// Invariant: the bulk import and the row-by-row import of the same walk (the fallback, and what the
// bulk path promises to equal) end with the same counts and the same content: titles, texts and use
// counts in order (sort keys may have gaps, timestamps differ).
let scratch = Scratch()

struct Imported: Equatable {
  var counts: ImportCounts
  var content: [[String]]
}

func importInto(_ path: String, _ body: (LibraryStore) throws -> ImportCounts) -> Imported? {
  do {
    let library = try LibraryStore(path: path)
    let counts = try body(library)
    let content = try library.load().categories.map { category in
      [category.title] + category.dittos.map { "\($0.useCount) \($0.text)" }
    }
    try library.close()
    return Imported(counts: counts, content: content)
  } catch {
    return nil
  }
}

FuzzDriver.run { bytes in
  scratch.clear()
  let input = SplitInput(bytes)
  let path = scratch.write(input.first, to: "Ditto.sqlite")
  if let wal = input.second { scratch.write(wal, to: "Ditto.sqlite-wal") }
  let store: CoreDataStore
  let reader: DittoStoreReader
  let source: DittoBulkSource?
  do {
    store = try CoreDataStore(path: path)
    reader = try DittoStoreReader(store: store)
    source = try reader.makeBulkSource()
  } catch {
    return
  }
  defer { store.snapshot.remove() }
  guard let source else { return }
  let bulk = importInto(scratch.file("bulk.sqlite")) { try $0.importItems(bulk: source) }
  let walked = importInto(scratch.file("walk.sqlite")) { library in
    try library.importItems { sink in try reader.walk(sink) }
  }
  guard let bulk, let walked else { return }
  FuzzDriver.expect(
    bulk.counts == walked.counts, "bulk counts \(bulk.counts) != walk counts \(walked.counts)")
  if bulk.content != walked.content {
    let index =
      bulk.content.indices.first {
        $0 >= walked.content.count || bulk.content[$0] != walked.content[$0]
      } ?? bulk.content.count
    let bulkCategory = bulk.content.dropFirst(index).prefix(1)
    let walkedCategory = walked.content.dropFirst(index).prefix(1)
    FuzzDriver.fail(
      "bulk and walk imports differ at category \(index): \(bulkCategory) vs \(walkedCategory)")
  }
}
