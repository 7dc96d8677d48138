import Foundation
import LegacyStore
import SQLiteDB
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Property lists from files we did not write: what Foundation cannot survive is refused first.
@Suite struct UntrustedPropertyListTests {
  static let setRefusal = PropertyListDecodingError(
    "a binary property list holding a set, which is not supported")

  @Test(arguments: [HostilePropertyLists.dictionaryWithSet, HostilePropertyLists.topLevelSet])
  func aSetIsRefusedBeforeFoundationParsesIt(bytes: [UInt8]) {
    #expect(throws: Self.setRefusal) { try UntrustedPropertyList.decode(bytes) }
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
  func ordinaryPlistsDecodeWithTheirFormat(format: PropertyListSerialization.PropertyListFormat)
    throws
  {
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["k": ["v"], "n": 1], format: format, options: 0)
    let decoded = try UntrustedPropertyList.decode(Array(data))
    #expect(decoded.format == format)
    #expect((decoded.value as? [String: Any])?["n"] as? Int == 1)
  }

  /// Trailers that do not fit: nothing is scanned, Foundation refuses the file.
  @Test(arguments: [
    Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32),
    Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 40),
    Array(HostilePropertyLists.topLevelSet.dropLast(9)) + [0xFF] + [UInt8](repeating: 0, count: 8),
  ])
  func damagedBinaryPlistsAreNotPropertyLists(bytes: [UInt8]) {
    #expect(throws: PropertyListDecodingError("not a property list")) {
      try UntrustedPropertyList.decode(bytes)
    }
  }

  @Test func aStoreWhoseMetadataPlistHoldsASetIsStillRead() throws {
    let folder = try TemporaryDirectory("metadata-set")
    let path = folder.appending("Ditto.sqlite")
    let spec = FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 4)
    try LegacyStoreWriter.write(spec, to: path, journal: .delete)
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWrite)
    do {
      let update = try database.makeStatement(sql: "UPDATE Z_METADATA SET Z_PLIST = ?")
      try update.bind(.blob(HostilePropertyLists.dictionaryWithSet))
      try update.run()
    }
    try database.close()
    let store = try CoreDataStore(path: path)
    defer { store.snapshot.remove() }
    #expect(store.storeType == nil)
    #expect(store.storeUUID != nil)
    #expect(try LegacyStoreReader(store: store).read().dittoCount == 2)
  }
}
