import SafeFiles

/// What the files of a store look like from outside, cheaply: for the main file, its `-wal` and
/// its `-journal`, their identity, size, modification and status-change times, and the header bytes
/// SQLite changes on every commit (the main file's change counter and page count, the `-wal`'s
/// salts and checkpoint sequence, the journal's header). Two equal fingerprints taken around a copy
/// mean no writer committed, checkpointed or restarted the `-wal` in between, even when the clock
/// the file system stamps times with is coarser than the copy took.
struct StoreFingerprint: Equatable {
  private var files: [File?]

  private struct File: Equatable {
    var status: FileStatus
    var header: [UInt8]
  }

  /// The fingerprint of the store at `path`.
  ///
  /// - Throws: ``SnapshotError`` when the main file is missing or is not a regular file, or when
  ///   a file cannot be examined (permissions, I/O).
  init(of path: String) throws(SnapshotError) {
    files = []
    for (suffix, headerBytes) in [("", 100), ("-wal", 32), ("-journal", 28)] {
      let file = path + suffix
      let status: FileStatus?
      do {
        status = try FileStatus.of(path: file)
      } catch {
        throw SnapshotError.from(error, file: file)
      }
      guard let status else {
        if suffix.isEmpty { throw .notFound(file: path) }
        files.append(nil)
        continue
      }
      guard status.kind == .regular else {
        if suffix.isEmpty { throw .notARegularFile(file: path, kind: status.kind) }
        files.append(File(status: status, header: []))
        continue
      }
      let opened: ReadOnlyFile
      do {
        opened = try ReadOnlyFile(path: file)
      } catch {
        throw SnapshotError.from(error, file: file)
      }
      let header: [UInt8]
      do {
        header = try opened.read(count: headerBytes, at: 0)
      } catch {
        throw SnapshotError.from(error, file: file)
      }
      files.append(File(status: status, header: header))
    }
  }
}
