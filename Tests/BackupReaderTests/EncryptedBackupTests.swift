import BackupCrypto
import BackupReader
import EngineTestSupport
import Foundation
import Testing

/// Encrypted backups: the keybag, the password, the manifest and the files, built with the same
/// primitives on the encrypt side.
@Suite struct EncryptedBackupTests {
  static let password = "correct horse battery staple"

  func encryptedBackup(_ folder: TemporaryDirectory) throws -> BackupBuilder {
    try DittoBackupFixture.build(
      at: folder.appending("udid"), date: ManifestTests.date,
      encryption: BackupEncryption(password: Self.password))
  }

  @Test func theKeyBagParses() throws {
    let bag = try KeyBag(try BackupEncryption(password: "x").keyBag(), file: "Manifest.plist")
    #expect(bag.iterations == 10)
    #expect(bag.doubleProtectionIterations == 1_000)
    #expect(bag.salt.count == 20)
    #expect(bag.doubleProtectionSalt?.count == 20)
    #expect(bag.classKeys.map(\.protectionClass) == Array(1...11))
    #expect(bag.classKeys.allSatisfy { $0.wrap == 2 && $0.wrappedKey.count == 40 })
  }

  @Test func theRightPasswordUnlocksAndAWrongOneIsSaidToBeWrong() throws {
    let bag = try KeyBag(try BackupEncryption(password: "right").keyBag(), file: "M")
    let keys = try bag.unlock(password: Array("right".utf8), backup: "B", file: "M")
    #expect(keys.count == 11)
    #expect(throws: BackupError.wrongPassword(backup: "B")) {
      try bag.unlock(password: Array("wrong".utf8), backup: "B", file: "M")
    }
  }

  @Test(arguments: [
    ([UInt8]([0x53, 0x41, 0x4C])), Array("SALT".utf8) + [0, 0, 0, 200, 1, 2],
    Array("ITER".utf8) + [0, 0, 0, 2, 0, 1],
    Array("SALT".utf8) + [0, 0, 0, 1, 9] + Array("ITER".utf8) + [
      0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF,
    ],
    Array("UUID".utf8) + [0, 0, 0, 0],
  ])
  func malformedKeyBagsAreRefused(bytes: [UInt8]) {
    let error = #expect(throws: BackupError.self) { try KeyBag(bytes, file: "Manifest.plist") }
    #expect(error?.code == "malformed")
  }

  @Test func withoutAPasswordItIsEncrypted() throws {
    let folder = try TemporaryDirectory("enc")
    let builder = try encryptedBackup(folder)
    let header = try Data(contentsOf: URL(fileURLWithPath: builder.root + "/Manifest.db")).prefix(
      16)
    #expect(Array(header) != Array("SQLite format 3\0".utf8))
    let error = #expect(throws: BackupError.self) { try Backup(path: builder.root).readListing() }
    #expect(error?.code == "encrypted")
  }

  @Test func theRightPasswordListsAndRebuildsEveryFile() throws {
    let folder = try TemporaryDirectory("enc")
    let builder = try encryptedBackup(folder)
    let before = try FileHashes(of: builder.root)
    let summary = BackupSummary(path: builder.root, password: Array(Self.password.utf8))
    let listing = try summary.listing.get()
    #expect(summary.keys != nil)
    #expect(listing.files.count == 6)
    #expect(listing.files.allSatisfy { $0.record?.encryptionKey?.count == 44 })
    let out = folder.appending("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let report = BackupRebuilder(backup: summary.backup, output: out).rebuild(
      listing, contents: summary.contentReader)
    #expect(report.files.map(\.status) == Array(repeating: .copied, count: 6))
    let defaults = try Data(
      contentsOf: URL(
        fileURLWithPath: out
          + "/AppDomainGroup-group.io.kern.ditto/Library/Preferences/group.io.kern.ditto.plist"))
    var format = PropertyListSerialization.PropertyListFormat.binary
    let values =
      try PropertyListSerialization.propertyList(
        from: defaults, options: [], format: &format) as? [String: Any]
    #expect(values?["someAppKey"] as? Int == 42)
    let store = try Data(
      contentsOf: URL(fileURLWithPath: out + "/AppDomainGroup-group.io.kern.ditto/Ditto.sqlite"))
    #expect(Array(store.prefix(16)) == Array("SQLite format 3\0".utf8))
    #expect(try FileHashes(of: builder.root) == before)
  }

  @Test func aWrongPasswordIsSaidToBeWrong() throws {
    let folder = try TemporaryDirectory("enc")
    let builder = try encryptedBackup(folder)
    let summary = BackupSummary(path: builder.root, password: Array("Tr0ub4dor&3".utf8))
    #expect(summary.error == .wrongPassword(backup: builder.root))
    #expect(summary.error?.description.contains("wrong password") == true)
  }

  @Test(arguments: [0, 1, 15, 16, 17, 32, 100_000])
  func plaintextSizesAroundTheBlockSizeComeBackExactly(size: Int) throws {
    let folder = try TemporaryDirectory("enc-sizes")
    let builder = try BackupBuilder(
      root: folder.appending("udid"), encryption: BackupEncryption(password: "p"))
    try builder.writeStandardPlists(date: ManifestTests.date)
    let contents = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try builder.addFile(domain: DittoDomain.appGroupDomain, relativePath: "f", contents: contents)
    try builder.writeManifest()
    let summary = BackupSummary(path: builder.root, password: Array("p".utf8))
    let out = folder.appending("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let report = BackupRebuilder(backup: summary.backup, output: out).rebuild(
      try summary.listing.get(), contents: summary.contentReader)
    #expect(report.files.first?.status == .copied)
    let rebuilt = try Data(
      contentsOf: URL(fileURLWithPath: out + "/AppDomainGroup-group.io.kern.ditto/f"))
    #expect(Array(rebuilt) == contents)
  }

  @Test func withoutARecordedSizeThePKCS7PaddingIsRemoved() throws {
    let folder = try TemporaryDirectory("enc-pad")
    let encryption = BackupEncryption(password: "p")
    let builder = try BackupBuilder(root: folder.appending("udid"), encryption: encryption)
    try builder.writeStandardPlists(date: ManifestTests.date)
    let fileKey = [UInt8](repeating: 5, count: 32)
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "nosize", contents: [],
      blob: try BackupBuilder.archive(
        .init(
          mode: 0o100644, protectionClass: 3,
          encryptionKey: try encryption.wrapped(fileKey, protectionClass: 3))),
      storesContents: false)
    let id = BackupBuilder.fileID(domain: DittoDomain.appGroupDomain, relativePath: "nosize")
    try builder.writeBytes(
      try AESCBC.encrypt(Array("hello".utf8), key: fileKey, addsPKCS7Padding: true),
      at: String(id.prefix(2)) + "/" + id)
    try builder.writeManifest()
    let summary = BackupSummary(path: builder.root, password: Array("p".utf8))
    let out = folder.appending("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let report = BackupRebuilder(backup: summary.backup, output: out).rebuild(
      try summary.listing.get(), contents: summary.contentReader)
    #expect(report.files.first?.status == .copied)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: out + "/AppDomainGroup-group.io.kern.ditto/nosize"))
        == Data("hello".utf8))
  }

  @Test func aFileKeyOfAnotherClassOrDamagedFailsThatFileOnly() throws {
    let folder = try TemporaryDirectory("enc-bad")
    let encryption = BackupEncryption(password: "p")
    let builder = try BackupBuilder(root: folder.appending("udid"), encryption: encryption)
    try builder.writeStandardPlists(date: ManifestTests.date)
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "bad-class",
      contents: Array(repeating: 1, count: 16),
      blob: try BackupBuilder.archive(
        .init(
          size: 16, mode: 0o100644, encryptionKey: [99, 0, 0, 0] + Array(repeating: 0, count: 40))))
    try builder.addFile(
      domain: DittoDomain.appGroupDomain, relativePath: "good", contents: [1, 2, 3])
    try builder.writeManifest()
    let summary = BackupSummary(path: builder.root, password: Array("p".utf8))
    let out = folder.appending("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let report = BackupRebuilder(backup: summary.backup, output: out).rebuild(
      try summary.listing.get(), contents: summary.contentReader)
    #expect(report.files.map(\.status) == [.failed, .copied])
    #expect(report.files.first?.reason?.contains("no key for protection class 99") == true)
    #expect(
      !FileManager.default.fileExists(atPath: out + "/AppDomainGroup-group.io.kern.ditto/bad-class")
    )
  }
}
