/// Why reading legacy data failed in a way that says nothing about its bytes: the store may well be
/// fine, and a later attempt may read it. The raw values are the `reason=` field of the
/// `migration_outcome` line.
///
/// ```
/// migration_outcome source=auto outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=permission
/// ```
package enum TransientReason: String, Sendable, Equatable, CaseIterable {
  /// Not allowed to open the file, a sidecar or a folder on the way (EACCES, EPERM). On a device:
  /// the data is protected until the iPhone is unlocked.
  case permission
  /// Another process holds the file or a lock on it (EAGAIN, EBUSY, SQLite busy or locked).
  case busy
  /// An I/O error (EIO, SQLite's I/O and cannot-open errors): on a device, how a protected file
  /// read while it is locked can fail as well.
  case locked
  /// No room for the private snapshot.
  case noSpace = "no_space"
  /// The files kept changing while they were copied, or vanished between being found and read.
  case changing
  /// The legacy keys of the App Group defaults could not be read right now.
  case defaults
  /// Something that is not a regular file (a symbolic link, a folder, a FIFO, a socket) has the
  /// store's name, or a probed folder is a link: it is never followed or opened.
  case notAFile = "not_a_file"
  /// The attempt was cancelled (the task running it, e.g. the app going to the background) before
  /// it wrote anything.
  case cancelled
}

/// Whether a failure to read legacy data says something about the data.
package enum FailureKind: Sendable, Equatable {
  /// The data may be fine: try again later; it counts toward nothing.
  case transient(TransientReason)
  /// The bytes are what they are (not a database, damaged, not Ditto's): retrying gives the same
  /// answer; it counts toward the attempt cap.
  case permanent

  /// The reason of a transient failure, nil for a permanent one.
  package var transientReason: TransientReason? {
    if case .transient(let reason) = self { return reason }
    return nil
  }
}
