import BackupReader
import FuzzSupport

// A backup's property lists over hostile bytes: input = one plist, written as the backup's
// `Info.plist`, `Manifest.plist` and `Status.plist` (each reader takes its own keys from it), read
// by BackupMetadata(folder:), then the `BackupKeyBag` it holds, if any, parsed by KeyBag (not
// unlocked: the iteration counts are the file's to choose, up to KeyBag.maximumIterations).
let scratch = Scratch()

FuzzDriver.run { bytes in
  scratch.clear()
  for name in ["Info.plist", "Manifest.plist", "Status.plist"] { scratch.write(bytes, to: name) }
  let metadata = BackupMetadata(folder: scratch.path)
  _ = (metadata.isSnapshotUnfinished, metadata.problems.count)
  if let keyBag = metadata.keyBag {
    do {
      _ = try KeyBag(keyBag, file: "Manifest.plist").classKeys.count
    } catch {
      // BackupError.malformed: reported to the user as a damaged backup.
    }
  }
}
