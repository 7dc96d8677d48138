import BackupCrypto
import Foundation
import LegacyStore
import PropertyLists
import SQLiteDB
import SafeFiles

/// Writes synthetic Finder/iTunes backup folders: plists, `Manifest.db` with the real schema, stored
/// files at `<first two hex>/<fileID>`, and an NSKeyedArchiver `MBFile` blob per row.
///
/// File IDs are 40 hex digits derived from `domain-relativePath` with a non-cryptographic hash: the
/// reader looks rows up in `Manifest.db` and never computes an ID, so they need not be SHA-1.
package final class BackupBuilder {
  /// One row of the `Files` table.
  package struct Row {
    package var fileID: String
    package var domain: String?
    package var relativePath: String?
    package var flags: Int64?
    package var blob: [UInt8]?

    package init(
      fileID: String, domain: String?, relativePath: String?, flags: Int64?, blob: [UInt8]?
    ) {
      self.fileID = fileID
      self.domain = domain
      self.relativePath = relativePath
      self.flags = flags
      self.blob = blob
    }
  }

  /// The backup folder (`…/Backup/<udid>`).
  package let root: String
  package private(set) var rows: [Row] = []
  /// When set, the backup is encrypted: stored files and `Manifest.db` are AES-256-CBC, and
  /// `Manifest.plist` holds the keybag and the manifest key.
  package private(set) var encryption: BackupEncryption?

  /// Creates `root` (and its parents).
  package init(root: String, encryption: BackupEncryption? = nil) throws {
    self.root = root
    self.encryption = encryption
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  // MARK: - Plists

  /// Writes `Info.plist` (XML by default, as Finder does).
  package func writeInfo(
    _ values: [String: PropertyListValue], format: PropertyListFormat = .xml
  ) throws {
    try writePlist(values, named: "Info.plist", format: format)
  }

  /// Writes `Manifest.plist` (binary by default).
  package func writeManifestPlist(
    _ values: [String: PropertyListValue], format: PropertyListFormat = .binary
  ) throws {
    try writePlist(values, named: "Manifest.plist", format: format)
  }

  /// Writes `Status.plist` (binary by default).
  package func writeStatus(
    _ values: [String: PropertyListValue], format: PropertyListFormat = .binary
  ) throws {
    try writePlist(values, named: "Status.plist", format: format)
  }

  /// The three plists of a finished, unencrypted backup of `deviceName`.
  package func writeStandardPlists(
    deviceName: String = "Test iPhone", date: Date, iosVersion: String = "17.5.1",
    isEncrypted: Bool = false
  ) throws {
    try writeInfo([
      "Device Name": .string(deviceName), "Display Name": .string(deviceName),
      "Last Backup Date": .date(date), "Product Version": .string(iosVersion),
      "Product Type": "iPhone14,2", "Build Version": "21F90",
      "Unique Identifier": .string((root as NSString).lastPathComponent.uppercased()),
      "Installed Applications": ["io.kern.ditto"],
    ])
    var manifest: [String: PropertyListValue] = [
      "IsEncrypted": .bool(isEncrypted || encryption != nil), "WasPasscodeSet": true,
      "Version": "10.0", "Date": .date(date),
      "Lockdown": [
        "DeviceName": .string(deviceName), "ProductVersion": .string(iosVersion),
        "ProductType": "iPhone14,2",
      ],
      "Applications": ["io.kern.ditto": ["CFBundleVersion": "2.0.1"], "group.io.kern.ditto": [:]],
    ]
    if let encryption {
      manifest["BackupKeyBag"] = .data(try encryption.keyBag())
      manifest["ManifestKey"] = .data(try encryption.wrappedManifestKey())
    }
    try writeManifestPlist(manifest)
    try writeStatus([
      "SnapshotState": "finished", "IsFullBackup": false, "BackupState": "new",
      "Date": .date(date), "Version": "3.3",
    ])
  }

  /// Writes raw bytes at `relative` inside the backup folder.
  package func writeBytes(_ bytes: [UInt8], at relative: String) throws {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // A new file only: a backup under construction never has a file written over.
    try Data(bytes).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
  }

  private func writePlist(
    _ values: [String: PropertyListValue], named name: String,
    format: PropertyListFormat
  ) throws {
    try writeBytes(
      PropertyListWriter.encode(.dictionary(PropertyListDictionary(values)), format: format),
      at: name)
  }

  // MARK: - Rows and stored files

  /// Adds a regular file: its row (flags 1, an MBFile blob with its size and mode 0100644) and its
  /// stored contents at `<id[0..<2]>/<id>`. Returns the file ID.
  @discardableResult
  package func addFile(
    domain: String, relativePath: String, contents: [UInt8], blob: [UInt8]? = nil,
    storesContents: Bool = true
  ) throws -> String {
    let fileID = Self.fileID(domain: domain, relativePath: relativePath)
    var fields = MBFileFields(
      size: Int64(contents.count), mode: 0o100644, lastModified: 1_600_000_000,
      relativePath: relativePath)
    var stored = contents
    if var encryption, !contents.isEmpty {
      let key = encryption.makeFileKey()
      self.encryption = encryption
      fields.protectionClass = Int64(encryption.fileClass)
      fields.encryptionKey = try encryption.wrapped(key, protectionClass: encryption.fileClass)
      stored = try AESCBC.encrypt(contents, key: key, addsPKCS7Padding: true)
    }
    let record = try blob ?? Self.archive(fields)
    rows.append(
      Row(fileID: fileID, domain: domain, relativePath: relativePath, flags: 1, blob: record))
    if storesContents {
      try writeBytes(stored, at: String(fileID.prefix(2)) + "/" + fileID)
    }
    return fileID
  }

  /// Adds a folder row (flags 2, mode 040755, size 0); no stored file.
  package func addFolder(domain: String, relativePath: String) throws {
    let fileID = Self.fileID(domain: domain, relativePath: relativePath)
    let record = try Self.archive(
      MBFileFields(
        size: 0, mode: 0o40755, lastModified: 1_600_000_000, relativePath: relativePath))
    rows.append(
      Row(fileID: fileID, domain: domain, relativePath: relativePath, flags: 2, blob: record))
  }

  /// Adds a row as given (for malformed rows).
  package func addRow(_ row: Row) {
    rows.append(row)
  }

  /// Writes `Manifest.db` with the schema of a Finder backup and every row added so far (encrypted
  /// with the manifest key when the backup is).
  package func writeManifest(to name: String = "Manifest.db") throws {
    guard let encryption else {
      try writePlainManifest(to: root + "/" + name)
      return
    }
    let scratch = try TemporaryDirectory("manifest-plain")
    try writePlainManifest(to: scratch.appending("Manifest.db"))
    let plain = try Data(contentsOf: URL(fileURLWithPath: scratch.appending("Manifest.db")))
    try writeBytes(
      try AESCBC.encrypt(Array(plain), key: encryption.manifestKey, addsPKCS7Padding: true),
      at: name)
  }

  private func writePlainManifest(to path: String) throws {
    let database = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try database.execute(sql: Self.manifestSchema)
    try database.write(mapError: { $0 as any Error }) { () throws in
      let insert = try database.makeStatement(
        sql: "INSERT INTO Files (fileID, domain, relativePath, flags, file) VALUES (?, ?, ?, ?, ?)")
      for row in rows {
        try insert.bind(
          .text(row.fileID), row.domain.map(SQLValue.text) ?? .null,
          row.relativePath.map(SQLValue.text) ?? .null, row.flags.map(SQLValue.integer) ?? .null,
          row.blob.map(SQLValue.blob) ?? .null)
        try insert.run()
      }
    }
    try database.close()
  }

  /// `.schema` of a Finder backup's Manifest.db (reference §3).
  package static let manifestSchema = """
    CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB);
    CREATE INDEX FilesDomainIdx ON Files(domain);
    CREATE INDEX FilesRelativePathIdx ON Files(relativePath);
    CREATE INDEX FilesFlagsIdx ON Files(flags);
    CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB);
    """

  /// 40 hex digits from `domain-relativePath` (FNV-1a based; not SHA-1).
  package static func fileID(domain: String, relativePath: String) -> String {
    let bytes = Array((domain + "-" + relativePath).utf8)
    var text = ""
    for seed in UInt64(0)..<3 {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ seed &* 0x9E37_79B9_7F4A_7C15
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      let hex = String(hash, radix: 16)
      text += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return String(text.prefix(40))
  }

  // MARK: - MBFile blobs

  /// The keys of an MBFile record; nil keys are left out of the archive.
  package struct MBFileFields {
    package var size: Int64?
    package var mode: Int64?
    package var lastModified: Int64?
    package var relativePath: String?
    package var protectionClass: Int64?
    package var encryptionKey: [UInt8]?

    package init(
      size: Int64? = nil, mode: Int64? = nil, lastModified: Int64? = nil,
      relativePath: String? = nil, protectionClass: Int64? = nil, encryptionKey: [UInt8]? = nil
    ) {
      self.size = size
      self.mode = mode
      self.lastModified = lastModified
      self.relativePath = relativePath
      self.protectionClass = protectionClass
      self.encryptionKey = encryptionKey
    }
  }

  /// An MBFile blob written by Foundation's NSKeyedArchiver (binary plist, `$top.root` a real UID).
  package static func archive(_ fields: MBFileFields) throws -> [UInt8] {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(MBFileArchiveObject(fields), forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return Array(archiver.encodedData)
  }
}

/// The object NSKeyedArchiver encodes as an MBFile record.
final class MBFileArchiveObject: NSObject, NSCoding {
  let fields: BackupBuilder.MBFileFields

  init(_ fields: BackupBuilder.MBFileFields) {
    self.fields = fields
  }

  init?(coder: NSCoder) {
    return nil
  }

  func encode(with coder: NSCoder) {
    if let size = fields.size { coder.encode(size, forKey: "Size") }
    if let mode = fields.mode { coder.encode(mode, forKey: "Mode") }
    if let lastModified = fields.lastModified { coder.encode(lastModified, forKey: "LastModified") }
    if let protectionClass = fields.protectionClass {
      coder.encode(protectionClass, forKey: "ProtectionClass")
    }
    if let relativePath = fields.relativePath {
      coder.encode(relativePath as NSString, forKey: "RelativePath")
    }
    if let key = fields.encryptionKey {
      coder.encode(NSMutableData(data: Data(key)), forKey: "EncryptionKey")
    }
  }
}
