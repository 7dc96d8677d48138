import DittoStore
import FuzzSupport
import LibraryMerge

// A `Ditto.store` taken from a stranger's backup: input = the store and its `-wal` (SplitInput).
// The layout check and the reader (summary, content, outline), then an import previewed and
// applied as `recover` would (into this scratch copy). Invariants: an import that commits leaves a
// library the reader still reads, holding the new ditto; a refused or failed one leaves the main
// file's bytes as they were.
let scratch = Scratch()
let source = MergeSource(
  kind: "fuzz",
  categories: [
    MergeCategory(title: "Fuzz", dittos: [MergeDitto(text: "fuzz ditto", useCount: 1)])
  ])

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
  func merge(_ session: any ImportSession) throws(ImportFailure) -> LibraryMerger.Result {
    try LibraryMerger.merge([source], into: session)
  }
  do {
    _ = try destination.previewImport(merge)
  } catch {
    // A library the preview cannot read: an answer.
  }
  let before = scratch.read("Ditto.store")
  do {
    let result = try destination.applyImport(merge)
    guard result.counts.inserted > 0 else { return }
    let after = try DittoStoreFile.content(at: path)
    FuzzDriver.expect(
      after.categories.contains { $0.dittos.contains { $0.text == "fuzz ditto" } },
      "a committed import is not in the library")
  } catch {
    FuzzDriver.expect(
      scratch.read("Ditto.store") == before, "a refused or failed import changed the main file")
  }
}
