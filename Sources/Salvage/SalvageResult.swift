import LegacyStore

/// What a salvage run should look for beyond the live rows.
public struct SalvageOptions: Sendable {
  /// Also carve deleted rows out of free pages, freeblocks and superseded page images.
  /// They are listed in ``SalvageResult/deleted`` and never put in the library.
  public var includeDeleted: Bool

  public init(includeDeleted: Bool = false) {
    self.includeDeleted = includeDeleted
  }
}

/// Where salvaged rows came from.
public enum SalvageSourceKind: String, Sendable {
  /// Pages read from the main database file.
  case main
  /// Pages taken from the newest committed frames of the `-wal`.
  case wal
  /// Free space: freelist pages, freeblocks, superseded page images (deleted rows).
  case freelist
}

/// One source's counts: pages read from it and ditto rows decoded from them.
public struct SalvageSource: Sendable, Equatable {
  public var kind: SalvageSourceKind
  /// Pages read from this source (pointer-map pages excluded; for `freelist`, the free pages).
  public var pages: Int
  /// Ditto rows decoded from those pages (for `freelist`, deleted dittos found).
  public var rows: Int

  public init(kind: SalvageSourceKind, pages: Int, rows: Int) {
    self.kind = kind
    self.pages = pages
    self.rows = rows
  }
}

/// What salvage recovered from a store SQLite may no longer open.
///
/// An empty ``library`` means a Ditto store was decoded and holds no dittos; when nothing at all
/// could be decoded, ``Salvager/salvage(path:options:)`` throws instead.
public struct SalvageResult: Sendable {
  /// Live rows in reader order: SQLite's reading, plus the decoded rows it missed.
  public var library: LegacyLibrary
  /// Per-source counts: `main` when a non-empty main file exists, `wal` when the `-wal` holds
  /// committed frames, `freelist` with ``SalvageOptions/includeDeleted``.
  public var sources: [SalvageSource]
  /// Deleted dittos found in free space (only with ``SalvageOptions/includeDeleted``).
  public var deleted: [LegacyDitto]
  /// True when SQLite itself opened the store and read its Ditto tables (salvage then only
  /// adds rows SQLite could not reach).
  public var usedSQLite: Bool
  /// What was assumed or skipped, for logs: counts and codes, never user text.
  public var notes: [String]

  public init(
    library: LegacyLibrary, sources: [SalvageSource], deleted: [LegacyDitto], usedSQLite: Bool,
    notes: [String]
  ) {
    self.library = library
    self.sources = sources
    self.deleted = deleted
    self.usedSQLite = usedSQLite
    self.notes = notes
  }
}
