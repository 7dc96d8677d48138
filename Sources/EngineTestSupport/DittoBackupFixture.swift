import Foundation
import LegacyStore
import PropertyLists
import StoreFixtures

/// A synthetic unencrypted backup of a device with Ditto 2.x data, built with ``BackupBuilder``.
///
/// The App Group domain holds a 2.x store whose rows are only in `-wal` (with `-shm`), the App Group
/// defaults with a 1.x `dittos` list and the keyboard's pending additions, and folder rows; the app's
/// own domain holds its preferences; unrelated domains hold decoys named like Ditto's files.
package enum DittoBackupFixture {
  /// The 2.x store's content: 2 categories of 3 dittos.
  package static let store = LegacyStoreSpec(
    categories: [
      .init(title: "Work 💼", dittos: [.init(text: "w1"), .init(text: "w2"), .init(text: "w3")]),
      .init(title: "Family", dittos: [.init(text: "f1"), .init(text: "f2"), .init(text: "f3")]),
    ])
  /// The App Group defaults: a 1.x list (→ "General") and dittos the keyboard queued for one category.
  package static var defaults: [String: PropertyListValue] {
    [
      "dittos": ["1.x first", "1.x second"],
      "pendingCategories": ["Keyboard new"],
      "pendingDittos": ["Keyboard new": ["k1"]],
      "someAppKey": 42,
    ]
  }
  /// What a recovery imports: 4 categories, 9 dittos.
  package static let expectedCategories = 4
  package static let expectedDittos = 9

  /// Builds the backup at `root` (a `<udid>` folder) dated `date`.
  ///
  /// - Parameters:
  ///   - includesDitto: false leaves Ditto's domains out (a backup of a device without Ditto).
  ///   - encryption: encrypts the backup (files, manifest, keybag in Manifest.plist).
  ///   - library: the Ditto 3.x library in the App Group domain; nil for a device that never ran 3.x.
  ///   - storeFiles: the store's files the backup holds, by suffix (`["-wal"]`: a device where 3.0.0
  ///     deleted the main file and left its `-wal`).
  @discardableResult
  package static func build(
    at root: String, date: Date, deviceName: String = "Test iPhone", includesDitto: Bool = true,
    storeSpec: LegacyStoreSpec = store, encryption: BackupEncryption? = nil,
    library: SwiftDataStoreSpec? = .empty, storeFiles: [String] = ["", "-wal", "-shm"]
  ) throws -> BackupBuilder {
    let builder = try BackupBuilder(root: root, encryption: encryption)
    try builder.writeStandardPlists(deviceName: deviceName, date: date)
    if includesDitto {
      let group = "AppDomainGroup-group.io.kern.ditto"
      try builder.addFolder(domain: group, relativePath: "")
      try builder.addFolder(domain: group, relativePath: "Library")
      try builder.addFolder(domain: group, relativePath: "Library/Preferences")
      let scratch = try TemporaryDirectory("backup-store")
      try LegacyStoreWriter.write(
        storeSpec, to: scratch.appending("Ditto.sqlite"), journal: .walOnly)
      for suffix in storeFiles {
        let bytes = try Data(
          contentsOf: URL(fileURLWithPath: scratch.appending("Ditto.sqlite" + suffix)))
        try builder.addFile(
          domain: group, relativePath: "Ditto.sqlite" + suffix, contents: Array(bytes))
      }
      if let library {
        // A device that ran Ditto 3.x: its library, as the app created it.
        try SwiftDataStoreWriter.write(library, to: scratch.appending("Ditto.store"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.appending("Ditto.store")))
        try builder.addFile(domain: group, relativePath: "Ditto.store", contents: Array(bytes))
      }
      let plist = Data(
        PropertyListWriter.encode(.dictionary(PropertyListDictionary(defaults)), format: .binary))
      try builder.addFile(
        domain: group, relativePath: "Library/Preferences/group.io.kern.ditto.plist",
        contents: Array(plist))
      // As real backups spell it: the bundle id is io.kern.Ditto.
      let app = "AppDomain-io.kern.Ditto"
      try builder.addFolder(domain: app, relativePath: "")
      try builder.addFolder(domain: app, relativePath: "Documents")
      let appPlist = Data(PropertyListWriter.encode(["launchCount": 12], format: .binary))
      try builder.addFile(
        domain: app, relativePath: "Library/Preferences/io.kern.Ditto.plist",
        contents: Array(appPlist))
    }
    // Decoys: other apps' files named like Ditto's must never be picked up.
    try builder.addFile(
      domain: "AppDomain-com.example.notes", relativePath: "Ditto.sqlite",
      contents: Array("not ours".utf8))
    try builder.addFile(
      domain: "AppDomainGroup-group.io.kern.ditto.widgets", relativePath: "Ditto.sqlite",
      contents: Array("not ours either".utf8))
    try builder.addFile(
      domain: "HomeDomain", relativePath: "Library/SMS/sms.db", contents: Array("sms".utf8))
    try builder.writeManifest()
    return builder
  }
}
