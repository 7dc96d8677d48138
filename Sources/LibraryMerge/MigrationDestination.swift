/// Where a migration puts what it recovered: the app's library.
///
/// The app implements it over its SwiftData `ModelContext` (see `docs/EMBEDDING.md`);
/// `ditto-recover` over a `Ditto.store` file. The engine never learns a path.
public protocol MigrationDestination {
  /// The library as the app shows it (read-only).
  ///
  /// - Throws: ``DestinationError`` when the library cannot be read.
  func currentLibrary() throws(DestinationError) -> CurrentLibrary

  /// Applies one import atomically: reads the library, asks `plan` what to insert against it, and
  /// inserts all of it or nothing.
  ///
  /// Reading and writing happen under one exclusive hold (a write transaction, one `save()`), so
  /// two imports at once never insert anything twice. `plan` is pure and may be called once.
  ///
  /// - Returns: the plan that was applied.
  /// - Throws: ``DestinationError``; the library is then as it was.
  func applyImport(_ plan: (CurrentLibrary) -> ImportPlan) throws(DestinationError) -> ImportPlan
}

/// Why the library could not be read or written. Never about legacy data.
public struct DestinationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, as a stable code.
  public enum Kind: String, Sendable, Equatable {
    /// There is no library yet (a device that never ran 3.x).
    case noLibrary = "no_library"
    /// The file is not a library this engine may write (not a Ditto 3.x store, unknown schema).
    case refused = "library_refused"
    /// Reading the library failed.
    case readFailed = "library_read_failed"
    /// Writing failed (disk full, I/O error, still locked after the busy timeout); rolled back.
    case writeFailed = "library_write_failed"
  }

  public var kind: Kind
  /// The library file (or the destination's name, such as `ModelContext`).
  public var file: String
  /// Why, in words (no user content).
  public var reason: String

  public init(_ kind: Kind, file: String, reason: String) {
    self.kind = kind
    self.file = file
    self.reason = reason
  }

  /// A short stable code for logs and JSON.
  public var code: String { kind.rawValue }

  public var description: String { "\(file): \(reason)" }
}
