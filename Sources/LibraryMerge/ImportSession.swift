/// One import in progress, inside the destination's exclusive hold (or, for a preview, against the
/// library as it is, writing nothing).
///
/// The engine's merge reads the outline once, asks which texts a category held before
/// the import, and inserts as the sources stream by; the destination keeps every insert or none.
/// Texts stay in the destination: a library of a million dittos is never held in memory to be merged
/// into.
package protocol ImportSession: AnyObject {
  /// The library when the import began.
  var outline: LibraryOutline { get }

  /// What the engine reports about the library (iCloud sync tables, persistent history).
  var facts: LibraryFacts { get }

  /// True when `category` (one of ``outline``'s) held a text equal to `text`, as Swift compares
  /// strings (canonical equivalence), before this import began. Rows this import inserted never
  /// count.
  ///
  /// - Throws: ``DestinationError`` when the library cannot be read.
  func heldBeforeImport(_ text: String, in category: CategoryID) throws(DestinationError) -> Bool

  /// Creates a category after the library's last; the Profile too when the library has none.
  ///
  /// - Returns: its handle, for the dittos that follow.
  /// - Throws: ``DestinationError``; the whole import is then undone.
  func insertCategory(title: String, sortOrder: Int64) throws(DestinationError) -> CategoryID

  /// Appends one ditto to `category` (an existing one, or one this import created); the Profile
  /// too when the library has none.
  ///
  /// - Throws: ``DestinationError``; the whole import is then undone.
  func insertDitto(
    text: String, useCount: Int64, sortOrder: Int64, in category: CategoryID
  ) throws(DestinationError)
}

/// What a destination says about its library, for the report: facts the app or a support engineer
/// acts on, never content.
public struct LibraryFacts: Sendable, Equatable {
  /// The store has iCloud (CloudKit mirroring) tables. They stay after a user turns sync off, so
  /// this says the library *can* sync, not that it does.
  public var hasCloudKitTables: Bool
  /// The store keeps persistent history (new rows are recorded in it).
  public var keepsHistory: Bool

  /// What a library is: whether it has iCloud mirroring tables and whether it keeps persistent
  /// history.
  public init(hasCloudKitTables: Bool = false, keepsHistory: Bool = false) {
    self.hasCloudKitTables = hasCloudKitTables
    self.keepsHistory = keepsHistory
  }
}
