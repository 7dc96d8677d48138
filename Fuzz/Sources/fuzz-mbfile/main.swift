import BackupReader
import FuzzSupport

// The MBFile decoder (the `file` column of Manifest.db) over hostile bytes: input = one keyed
// archive (binary or XML plist). A thrown MBFileError is an answer.
FuzzDriver.run { bytes in
  do {
    let record = try MBFileRecord.decode(bytes)
    _ = EntryKind(mode: record.mode, flags: nil)
    if let size = record.size { FuzzDriver.expect(size >= 0, "negative Size \(size)") }
  } catch {
    // MBFileError: the row is reported with this reason.
  }
}
