import LibraryMerge

/// Seconds between 1970-01-01 and 2001-01-01 (UTC): a Cocoa date + this = a Unix time.
package let cocoaEpochOffset: Double = 978_307_200

/// One ditto of a Ditto 3.x library (a `DittoItem` row).
package struct DittoStoreItem: Sendable, Equatable {
  /// Its `Z_PK`.
  package var id: Int64
  /// `ZTEXT` (NULL reads as "", the model's default).
  package var text: String
  /// `ZUSECOUNT` (NULL reads as 0).
  package var useCount: Int64
  /// `ZSORTORDER` (NULL reads as 0).
  package var sortOrder: Int64
  /// `ZMODIFIEDAT` in Cocoa seconds (REAL or INTEGER in the file); nil when NULL.
  package var modifiedAt: Double?

  package init(id: Int64, text: String, useCount: Int64, sortOrder: Int64, modifiedAt: Double?) {
    self.id = id
    self.text = text
    self.useCount = useCount
    self.sortOrder = sortOrder
    self.modifiedAt = modifiedAt
  }
}

/// One category of a Ditto 3.x library (a `DittoCategory` row) with its dittos in display order.
package struct DittoStoreCategory: Sendable, Equatable {
  /// Its `Z_PK`.
  package var id: Int64
  /// `ZTITLE` (NULL reads as "").
  package var title: String
  /// `ZSORTORDER` (NULL reads as 0).
  package var sortOrder: Int64
  /// `ZMODIFIEDAT` in Cocoa seconds; nil when NULL.
  package var modifiedAt: Double?
  /// Its dittos by `ZSORTORDER`, then `Z_PK`.
  package var dittos: [DittoStoreItem]

  package init(
    id: Int64, title: String, sortOrder: Int64, modifiedAt: Double?, dittos: [DittoStoreItem]
  ) {
    self.id = id
    self.title = title
    self.sortOrder = sortOrder
    self.modifiedAt = modifiedAt
    self.dittos = dittos
  }
}

/// The library the app shows: the first Profile (lowest `Z_PK`), its categories by `ZSORTORDER`
/// then `Z_PK`, each with its own dittos likewise.
package struct DittoStoreContent: Sendable, Equatable {
  /// `Z_PK` of the first Profile; nil when the store holds none.
  package var profileID: Int64?
  /// Number of Profile rows (the app shows only the first).
  package var profileCount: Int
  /// The first Profile's categories in display order.
  package var categories: [DittoStoreCategory]

  package init(profileID: Int64?, profileCount: Int, categories: [DittoStoreCategory]) {
    self.profileID = profileID
    self.profileCount = profileCount
    self.categories = categories
  }

  /// Number of dittos over all categories.
  package var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }

  /// The library as the merge planner needs it (category handles are `Z_PK`s).
  package var currentLibrary: CurrentLibrary {
    CurrentLibrary(
      hasProfile: profileID != nil,
      categories: categories.map { category in
        CurrentCategory(
          id: CategoryID(category.id), title: category.title, sortOrder: category.sortOrder,
          texts: category.dittos.map(\.text),
          largestDittoSortOrder: category.dittos.map(\.sortOrder).max())
      })
  }
}

/// What `status --json` says about a library file.
package struct DittoStoreSummary: Sendable, Equatable, Codable {
  /// The file, as given.
  package var path: String
  /// False when nothing exists at `path` (every count is then 0).
  package var exists: Bool
  /// Categories the app shows.
  package var categories: Int
  /// Dittos the app shows.
  package var dittos: Int
  /// True when the persistent-history tables are present.
  package var history: Bool
  /// True when CloudKit mirroring tables (`ANSCK*`) are present: the app exports new rows to iCloud.
  package var cloudKit: Bool
  /// Profile rows.
  package var profiles: Int
  /// `Z_PRIMARYKEY.Z_MAX` by entity name (history and CloudKit entities included).
  package var zMax: [String: Int64]
  /// Rows of `ATRANSACTION` (0 without history).
  package var historyTransactions: Int
  /// Rows of `ACHANGE` (0 without history).
  package var historyChanges: Int
  /// Why an import into this file would be refused although it reads; nil when it would be accepted.
  package var writeRefusal: String?

  package init(
    path: String, exists: Bool, categories: Int = 0, dittos: Int = 0, history: Bool = false,
    cloudKit: Bool = false, profiles: Int = 0, zMax: [String: Int64] = [:],
    historyTransactions: Int = 0, historyChanges: Int = 0, writeRefusal: String? = nil
  ) {
    self.path = path
    self.exists = exists
    self.categories = categories
    self.dittos = dittos
    self.history = history
    self.cloudKit = cloudKit
    self.profiles = profiles
    self.zMax = zMax
    self.historyTransactions = historyTransactions
    self.historyChanges = historyChanges
    self.writeRefusal = writeRefusal
  }
}
