import DittoStore
import FuzzSupport
import LibraryMerge

// A `Ditto.store` taken from a stranger's backup: input = the store and its `-wal` (SplitInput).
// The layout check and the reader (summary, content, outline), then an import previewed and
// applied as `recover` would (into this scratch copy). Invariants: an import that commits leaves a
// library the reader still reads, holding the new ditto; a refused or failed one leaves the main
// file's bytes as they were.
let scratch = Scratch()

/// One ditto in the category "Fuzz", as a merge would put it: into the category of that title if
/// the library has one, after its last ditto, unless that category already holds the text.
/// Returns whether it was inserted.
func merge(_ session: any ImportSession) throws(ImportFailure) -> Bool {
  do {
    return try insertOnce(session)
  } catch {
    throw .library(error)
  }
}

func insertOnce(_ session: any ImportSession) throws(DestinationError) -> Bool {
  let outline = session.outline
  let category: CategoryID
  let sortOrder: Int64
  if let existing = outline.categories.first(where: { $0.title == "Fuzz" }) {
    if try session.heldBeforeImport("fuzz ditto", in: existing.id) { return false }
    category = existing.id
    sortOrder = (existing.largestDittoSortOrder ?? -1) + 1
  } else {
    let last = outline.categories.map(\.sortOrder).max() ?? -1
    category = try session.insertCategory(title: "Fuzz", sortOrder: last + 1)
    sortOrder = 0
  }
  try session.insertDitto(text: "fuzz ditto", useCount: 1, sortOrder: sortOrder, in: category)
  return true
}

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "Ditto.store")
  do {
    _ = try DittoStoreFile.summary(at: path)
    _ = try DittoStoreFile.content(at: path)
    _ = try DittoStoreFile.currentLibrary(at: path)
  } catch {
    // DestinationError: refused or unreadable, named. An answer.
  }
  let destination = DittoStoreDestination(path: path)
  do {
    _ = try destination.previewImport(merge)
  } catch {
    // A library the preview cannot read: an answer.
  }
  let before = scratch.read("Ditto.store")
  do {
    let inserted = try destination.applyImport(merge)
    guard inserted else { return }
    let after = try DittoStoreFile.content(at: path)
    FuzzDriver.expect(
      after.categories.contains { $0.dittos.contains { $0.text == "fuzz ditto" } },
      "a committed import is not in the library")
  } catch {
    FuzzDriver.expect(
      scratch.read("Ditto.store") == before, "a refused or failed import changed the main file")
  }
}
