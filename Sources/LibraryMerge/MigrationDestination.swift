/// Where a migration puts what it recovered, as the engine drives it: a streaming import under one
/// exclusive hold.
///
/// Package-only: the app implements ``PlanApplyingDestination`` (one fetch, one save), which the
/// engine drives through ``PlanApplyingAdapter``; `ditto-recover`'s `Ditto.store` destination
/// streams into its file through this protocol. The engine never learns a path. A destination is `Sendable`: the migrator runs off the main actor and
/// calls it from its own task (a SwiftData destination holds the `ModelContainer`, which is
/// `Sendable`, and makes the `ModelContext` of each import on that task).
package protocol MigrationDestination: Sendable {
  /// The library as the app shows it, in outline (read-only).
  ///
  /// - Throws: ``DestinationError`` when the library cannot be read.
  func outline() throws(DestinationError) -> LibraryOutline

  /// Runs one import: `body` reads the library and inserts through the session, under one
  /// exclusive hold (a write transaction, one `save()`), so two imports at once never insert
  /// anything twice. Everything `body` inserted is kept when it returns, nothing when it throws.
  ///
  /// - Throws: ``ImportFailure``: `.library` when the library could not be read or written (the
  ///   library is then as it was), or what `body` threw, after undoing its inserts.
  func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result

  /// Runs `body` as ``applyImport(_:)`` would, against the library as it is, and writes nothing:
  /// the inserts are only counted (a preview).
  ///
  /// - Throws: ``ImportFailure`` as ``applyImport(_:)`` does.
  func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
}

/// Why an import stopped, in kinds that never mix: the library's fault, a legacy source's, or a
/// cancellation. A destination passes it on as it comes from the body it runs; it makes its own
/// failures from a ``DestinationError`` (``library(_:)``).
package struct ImportFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What stopped the import.
  package enum Reason: Sendable, Equatable {
    /// The library could not be read or written; nothing was changed.
    case library(DestinationError)
    /// A legacy source could not be read to its end while the import ran; nothing was changed.
    case source(SourceReadFailure)
    /// The task running the import was cancelled before anything was kept; nothing was changed.
    case cancelled
  }

  /// What stopped the import.
  package let reason: Reason

  /// The library could not be read or written; nothing was changed.
  package static func library(_ error: DestinationError) -> ImportFailure {
    ImportFailure(reason: .library(error))
  }

  /// A legacy source could not be read to its end while the import ran; nothing was changed.
  package static func source(_ failure: SourceReadFailure) -> ImportFailure {
    ImportFailure(reason: .source(failure))
  }

  /// The task running the import was cancelled before anything was kept; nothing was changed.
  package static let cancelled = ImportFailure(reason: .cancelled)

  /// The library's error, when the library is what failed.
  package var libraryError: DestinationError? {
    if case .library(let error) = reason { return error }
    return nil
  }

  package var description: String {
    switch reason {
    case .library(let error): error.description
    case .source(let failure): failure.description
    case .cancelled: "the import was cancelled before anything was written"
    }
  }
}

/// A legacy source that failed while it streamed into an import (its own error inside).
package struct SourceReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The reader's own error (a `LegacyStoreError` for a 2.x store).
  package var error: any Error & Sendable
  /// The reader's description of it: file and cause, no user content.
  package var description: String

  /// A failure to read a source, carrying its error.
  package init(_ error: some Error & Sendable & CustomStringConvertible) {
    self.error = error
    description = error.description
  }

  package static func == (lhs: SourceReadFailure, rhs: SourceReadFailure) -> Bool {
    lhs.description == rhs.description
  }
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

  /// What went wrong.
  public var kind: Kind
  /// The library file (or the destination's name, such as `ModelContext`).
  public var file: String
  /// Why, in words (no user content).
  public var reason: String
  /// A cause the package's own destinations name beyond ``kind``, for the advice a report gives
  /// (nil when there is none): told apart by case, never by the words of ``reason``.
  package var cause: Cause?

  /// A cause beyond the kind that calls for its own advice.
  package enum Cause: Sendable, Equatable {
    /// A library with iCloud sync tables and no Profile yet: its content has not arrived.
    case awaitingICloud
    /// The library file is read-only.
    case readOnly
  }

  /// An error of `kind` about the library `file`, for `reason`.
  public init(_ kind: Kind, file: String, reason: String) {
    self.kind = kind
    self.file = file
    self.reason = reason
  }

  /// An error of `kind` about the library `file`, for `reason`, whose cause is `cause`.
  package init(_ kind: Kind, file: String, reason: String, cause: Cause?) {
    self.init(kind, file: file, reason: reason)
    self.cause = cause
  }

  /// A short stable code for logs and JSON.
  package var code: String { kind.rawValue }

  public var description: String { "\(file): \(reason)" }
}
