import SafeFiles

/// One legacy source an attempt looked at, and what came of it.
package struct LegacySourceReport: Sendable, Equatable {
  /// Which source.
  package enum Kind: String, Sendable, Equatable {
    /// The 2.x Core Data store.
    case coreData
    /// The keyboard's queue of additions in the App Group defaults.
    case pending
    /// 1.x content in the App Group defaults.
    case v1
    /// The App Group defaults file as a whole, reported (with ``error``) when it could not be read,
    /// so an unreadable file is never shown as "no defaults source".
    case defaults
  }

  /// Which source it is.
  package var kind: Kind
  /// The file it lives in (full path).
  package var path: String
  /// Categories and dittos it offered (0 when it could not be read).
  package var categories = 0
  /// Dittos it offered (0 when it could not be read).
  package var dittos = 0
  /// Why it could not be read, when so.
  package var error: String? { failure?.description }
  /// Why it could not be read, its file and reason apart.
  package var failure: FileProblem?

  /// A report of the source `kind` in the file at `path`, nothing counted yet.
  package init(kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }
}
