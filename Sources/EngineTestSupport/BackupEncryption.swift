import BackupCrypto
import Foundation
import StoreFixtures

/// The encrypt side of an encrypted backup, for tests: a keybag for `password`, class keys, the
/// manifest key, per-file keys, all made with the same primitives the reader uses to decrypt.
///
/// Iteration counts are small so tests stay fast (real backups use DPIC = 10,000,000).
package struct BackupEncryption: Sendable {
  package var password: String
  package var doubleProtectionIterations: UInt32 = 1_000
  package var iterations: UInt32 = 10
  /// Protection class of the manifest key and of every file.
  package var manifestClass: UInt32 = 4
  package var fileClass: UInt32 = 3
  let salt: [UInt8]
  let doubleProtectionSalt: [UInt8]
  let classKeys: [UInt32: [UInt8]]
  let manifestKey: [UInt8]
  private var random: SeededGenerator

  package init(password: String, seed: UInt64 = 7) {
    self.password = password
    random = SeededGenerator(seed: seed)
    salt = Self.bytes(20, &random)
    doubleProtectionSalt = Self.bytes(20, &random)
    var keys: [UInt32: [UInt8]] = [:]
    for protectionClass in UInt32(1)...11 { keys[protectionClass] = Self.bytes(32, &random) }
    classKeys = keys
    manifestKey = Self.bytes(32, &random)
  }

  static func bytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
  }

  /// A new 32-byte file key.
  mutating func makeFileKey() -> [UInt8] { Self.bytes(32, &random) }

  /// The key-encryption key `password` gives (PBKDF2-SHA256, then PBKDF2-SHA1).
  func keyEncryptionKey(password: String) throws -> [UInt8] {
    let first = try PBKDF2.derive(
      .sha256, password: Array(password.utf8), salt: doubleProtectionSalt,
      iterations: Int(doubleProtectionIterations), length: 32)
    return try PBKDF2.derive(
      .sha1, password: first, salt: salt, iterations: Int(iterations), length: 32)
  }

  /// `BackupKeyBag`: header records, then one record per class key wrapped with the password's KEK.
  package func keyBag() throws -> [UInt8] {
    let kek = try keyEncryptionKey(password: password)
    var bag: [UInt8] = []
    func record(_ tag: String, _ value: [UInt8]) {
      bag += Array(tag.utf8) + Self.bigEndian(UInt32(value.count)) + value
    }
    record("VERS", Self.bigEndian(3))
    record("TYPE", Self.bigEndian(1))
    record("UUID", Array(repeating: 0xAA, count: 16))
    record("HMCK", Array(repeating: 0, count: 40))
    record("WRAP", Self.bigEndian(0))
    record("SALT", salt)
    record("ITER", Self.bigEndian(iterations))
    record("DPWT", Self.bigEndian(1))
    record("DPIC", Self.bigEndian(doubleProtectionIterations))
    record("DPSL", doubleProtectionSalt)
    for protectionClass in classKeys.keys.sorted() {
      record("UUID", Array(repeating: UInt8(protectionClass), count: 16))
      record("CLAS", Self.bigEndian(protectionClass))
      record("WRAP", Self.bigEndian(2))
      record("KTYP", Self.bigEndian(0))
      record("WPKY", try AESKeyWrap.wrap(classKeys[protectionClass] ?? [], kek: kek))
    }
    return bag
  }

  /// `ManifestKey`: the class (4 bytes, little-endian) and the manifest key wrapped with that class key.
  package func wrappedManifestKey() throws -> [UInt8] {
    try wrapped(manifestKey, protectionClass: manifestClass)
  }

  /// A key wrapped the way `EncryptionKey` and `ManifestKey` hold it.
  package func wrapped(_ key: [UInt8], protectionClass: UInt32) throws -> [UInt8] {
    Self.littleEndian(protectionClass)
      + (try AESKeyWrap.wrap(key, kek: classKeys[protectionClass] ?? []))
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  static func littleEndian(_ value: UInt32) -> [UInt8] {
    Array(bigEndian(value).reversed())
  }
}
