import BackupReader
import FuzzSupport

// A backup's Manifest.db over hostile bytes: input = `Manifest.db` and its `-wal` (SplitInput).
// ManifestDatabase (private copy, untrusted-reader connection) lists Ditto's rows and decodes each
// row's MBFile blob; each entry's kind and path checks are evaluated as the rebuild does.
//
// Invariant: a relativePath the checks let through stays below its folder at the byte level.
let scratch = Scratch()

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "Manifest.db")
  let listing: ManifestListing
  do {
    listing = try ManifestDatabase(path: path).dittoListing()
  } catch {
    return  // BackupError: the backup is reported as unreadable.
  }
  _ = (listing.hasDittoStore, listing.files.count)
  for entry in listing.entries {
    _ = (entry.kind, entry.expectedBytes, entry.fileIDProblem, entry.storedPath)
    if entry.relativePathProblem == nil, let escape = PathCheck.escape(entry.relativePath) {
      FuzzDriver.fail(
        "relativePath \(Array(entry.relativePath.utf8)) accepted, but it has \(escape)")
    }
  }
}
