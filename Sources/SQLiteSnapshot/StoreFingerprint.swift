import SafeFiles

/// What the files of a store look like from outside, cheaply: for the main file, its `-wal` and
/// its `-journal`, their identity, size, modification and status-change times, and the header bytes
/// SQLite changes on every commit (the main file's change counter and page count, the `-wal`'s
/// salts and checkpoint sequence, the journal's header). Two equal fingerprints taken around a copy
/// mean no writer committed, checkpointed or restarted the `-wal` in between, even when the clock
/// the file system stamps times with is coarser than the copy took.
struct StoreFingerprint: Equatable {
  private var files: [File?]
  /// True when the files the paths name are exactly the ones opened (given to the initializer):
  /// none appeared, went or was replaced since. A copy made from those descriptors is then a copy
  /// of the files the fingerprint describes.
  private(set) var matchesOpened = true

  private struct File: Equatable {
    var status: FileStatus
    var header: [UInt8]
  }

  /// The fingerprint of the store at `path`, each file's header read through `opened` (its
  /// descriptor, by suffix) when it holds that file, so a snapshot opens each file once; a file
  /// not in `opened` is opened here.
  ///
  /// - Throws: ``SnapshotError`` when the main file is missing or is not a regular file, or when
  ///   a file cannot be examined (permissions, I/O).
  init(of path: String, opened: [String: ReadOnlyFile] = [:]) throws(SnapshotError) {
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
        if opened[suffix] != nil { matchesOpened = false }
        files.append(nil)
        continue
      }
      guard status.kind == .regular else {
        if suffix.isEmpty { throw .notARegularFile(file: path, kind: status.kind) }
        if opened[suffix] != nil { matchesOpened = false }
        files.append(File(status: status, header: []))
        continue
      }
      let header: [UInt8]
      do {
        // The descriptor already held, while the path still names what it reads; else a new one.
        if let held = opened[suffix], try held.status().identity == status.identity {
          header = try held.read(count: headerBytes, at: 0)
        } else {
          matchesOpened = false
          header = try ReadOnlyFile(path: file).read(count: headerBytes, at: 0)
        }
      } catch let error as FileAccessError {
        throw SnapshotError.from(error, file: file)
      } catch let error as SafeFileError {
        throw SnapshotError.from(error, file: file)
      } catch {
        throw .ioError(file: file, reason: "\(error)")
      }
      files.append(File(status: status, header: header))
    }
  }
}
