import LegacyStore
import LibraryMerge

/// A 2.x store open on its private snapshot, streamed into a merge as the reader walks it: one
/// category at a time, memory flat. The survey already read it to its end, so a failure here is the
/// private copy's (I/O), reported as the source's, never as the library's.
final class StoreSourceStream: MergeSourceStream {
  let kind: String
  let categoryTitles: [String]
  let dittoCount: Int
  private let reader: LegacyStoreReader
  /// Keeps the snapshot (and its connection) alive while the reader is used.
  private let store: CoreDataStore

  /// The store `reader` walks, offering `dittos` dittos (as the survey counted them).
  init(kind: String, store: CoreDataStore, reader: LegacyStoreReader, dittos: Int)
    throws(LegacyStoreError)
  {
    self.kind = kind
    dittoCount = dittos
    self.store = store
    self.reader = reader
    categoryTitles = try reader.categoryTitles()
  }

  func stream(_ visit: (MergeItem) throws(ImportFailure) -> Void) throws(ImportFailure) {
    do {
      try reader.walk { item in
        switch item {
        case .category(let title, _): try visit(.category(title: title))
        case .ditto(let ditto):
          try visit(.ditto(MergeDitto(text: ditto.text, useCount: ditto.useCount)))
        }
      }
    } catch let failure as ImportFailure {
      throw failure
    } catch let error as LegacyStoreError {
      throw .source(SourceReadFailure(error))
    } catch {
      throw .source(
        SourceReadFailure(LegacyStoreError.unreadable(file: store.file, reason: "\(error)")))
    }
  }

  /// Removes the snapshot now (it is removed anyway when the stream is released).
  func close() {
    store.snapshot.remove()
  }
}
