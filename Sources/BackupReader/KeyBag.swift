import BackupCrypto

// THE BACKUP KEYBAG (Manifest.plist BackupKeyBag; facts: shared/reference/ios-backup-format.md §6.2)
//
// A sequence of TLV records, no header:
//
//   OFFSET  SIZE  DESCRIPTION
//   0       4     tag, four ASCII letters (UUID, CLAS, WPKY, …)
//   4       4     length of the value, big-endian
//   8       n     value; a 4-byte value is a big-endian integer
//
//   TAG    WHERE         MEANING
//   UUID   first         the keybag's UUID; every later UUID starts a class-key record
//   SALT   header        salt of the PBKDF2-HMAC-SHA1 step            (required)
//   ITER   header        its iteration count                          (required)
//   DPSL   header        salt of the PBKDF2-HMAC-SHA256 step          (iOS 10.2 on; both or neither)
//   DPIC   header        its iteration count
//   CLAS   class record  the protection class (1, 2, 3, …)
//   WRAP   class record  bit 2 (value 2): wrapped with the password-derived key
//   WPKY   class record  the class key wrapped with AES key wrap (RFC 3394)
//
// Unlocking: key = DPSL ? PBKDF2-SHA256(password, DPSL, DPIC, 32) : password; then
// KEK = PBKDF2-SHA1(key, SALT, ITER, 32); then each class key whose WRAP has bit 2 is unwrapped with KEK.
// A failed integrity check means the password is wrong: BackupError.wrongPassword. A record that runs
// past the end, a 4-byte tag with another length, or missing SALT/ITER gives BackupError.malformed.

/// The parsed backup keybag.
package struct KeyBag: Sendable, Equatable {
  /// One class-key record.
  package struct ClassKey: Sendable, Equatable {
    package var protectionClass: UInt32
    package var wrap: UInt32
    package var wrappedKey: [UInt8]
  }

  package var salt: [UInt8]
  package var iterations: UInt32
  package var doubleProtectionSalt: [UInt8]?
  package var doubleProtectionIterations: UInt32?
  package var classKeys: [ClassKey]

  /// Iteration counts above this are refused: a hostile file must not make us spin for hours.
  package static let maximumIterations: UInt32 = 100_000_000

  /// Parses `bytes`; `file` names the source in errors.
  ///
  /// - Throws: ``BackupError/malformed(file:reason:)``.
  package init(_ bytes: [UInt8], file: String) throws(BackupError) {
    var header: [String: [UInt8]] = [:]
    var records: [[String: [UInt8]]] = []
    var sawUUID = false
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= 8 else {
        throw .malformed(file: file, reason: "the keybag ends inside a record header")
      }
      let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let length = Int(Self.bigEndian(bytes[offset + 4..<offset + 8]))
      offset += 8
      guard length <= bytes.count - offset else {
        throw .malformed(file: file, reason: "the keybag's \(tag) record runs past its end")
      }
      let value = Array(bytes[offset..<offset + length])
      offset += length
      if tag == "UUID" {
        if sawUUID { records.append([:]) }
        sawUUID = true
      }
      if records.isEmpty {
        header[tag] = value
      } else {
        records[records.count - 1][tag] = value
      }
    }
    func integer(_ value: [UInt8]?, _ tag: String) throws(BackupError) -> UInt32? {
      guard let value else { return nil }
      guard value.count == 4 else {
        throw .malformed(file: file, reason: "the keybag's \(tag) is \(value.count) bytes, not 4")
      }
      return Self.bigEndian(value[...])
    }
    guard let salt = header["SALT"], let iterations = try integer(header["ITER"], "ITER") else {
      throw .malformed(file: file, reason: "the keybag has no SALT or ITER")
    }
    self.salt = salt
    self.iterations = iterations
    doubleProtectionSalt = header["DPSL"]
    doubleProtectionIterations = try integer(header["DPIC"], "DPIC")
    guard (doubleProtectionSalt == nil) == (doubleProtectionIterations == nil) else {
      throw .malformed(file: file, reason: "the keybag has only one of DPSL and DPIC")
    }
    for count in [iterations, doubleProtectionIterations ?? 1]
    where count < 1 || count > Self.maximumIterations {
      throw .malformed(file: file, reason: "the keybag asks for \(count) PBKDF2 iterations")
    }
    var keys: [ClassKey] = []
    for record in records {
      guard let protectionClass = try integer(record["CLAS"], "CLAS"),
        let wrappedKey = record["WPKY"]
      else { continue }
      keys.append(
        ClassKey(
          protectionClass: protectionClass, wrap: try integer(record["WRAP"], "WRAP") ?? 0,
          wrappedKey: wrappedKey))
    }
    classKeys = keys
  }

  /// Derives the key-encryption key from `password` and unwraps every password-wrapped class key.
  ///
  /// - Throws: ``BackupError/wrongPassword(backup:)`` when the integrity check fails;
  ///   ``BackupError/decryptionFailed(file:reason:)`` when no class key is password-wrapped.
  package func unlock(password: [UInt8], backup: String, file: String) throws(BackupError)
    -> [UInt32: [UInt8]]
  {
    do {
      var passcodeKey = password
      if let doubleProtectionSalt, let doubleProtectionIterations {
        passcodeKey = try PBKDF2.derive(
          .sha256, password: password, salt: doubleProtectionSalt,
          iterations: Int(doubleProtectionIterations), length: 32)
      }
      let kek = try PBKDF2.derive(
        .sha1, password: passcodeKey, salt: salt, iterations: Int(iterations), length: 32)
      var unwrapped: [UInt32: [UInt8]] = [:]
      for key in classKeys where key.wrap & 2 != 0 {
        unwrapped[key.protectionClass] = try AESKeyWrap.unwrap(key.wrappedKey, kek: kek)
      }
      guard !unwrapped.isEmpty else {
        throw BackupError.decryptionFailed(
          file: file, reason: "the keybag holds no password-protected class key")
      }
      return unwrapped
    } catch let error as BackupError {
      throw error
    } catch CryptoError.integrityCheckFailed {
      throw .wrongPassword(backup: backup)
    } catch {
      throw .decryptionFailed(file: file, reason: "\(error)")
    }
  }

  static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reduce(0) { $0 << 8 | UInt32($1) }
  }
}
