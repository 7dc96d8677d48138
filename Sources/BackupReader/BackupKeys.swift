import BackupCrypto
import Foundation
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The unlocked class keys of an encrypted backup, and what they open.
///
/// `ManifestKey` and each file's `EncryptionKey` are a 4-byte little-endian protection class followed by
/// a key wrapped (RFC 3394) with that class's key. `Manifest.db` and the files are AES-256-CBC with a
/// zero IV; the padding is removed by the file's recorded `Size` when known, else by PKCS#7.
package struct BackupKeys: Sendable {
  /// Unwrapped class keys by protection class.
  let classKeys: [UInt32: [UInt8]]

  /// Unlocks `backup`'s keybag with `password` (slow by design: PBKDF2 with many iterations).
  ///
  /// - Throws: ``BackupError``: `.wrongPassword`, `.malformed` (no or bad keybag), `.decryptionFailed`.
  package static func unlock(_ backup: Backup, password: [UInt8]) throws(BackupError) -> BackupKeys
  {
    let file = backup.path + "/Manifest.plist"
    guard let keyBag = backup.metadata.keyBag else {
      throw .malformed(file: file, reason: "the backup is encrypted but has no BackupKeyBag")
    }
    let bag = try KeyBag(keyBag, file: file)
    return BackupKeys(
      classKeys: try bag.unlock(password: password, backup: backup.path, file: file))
  }

  /// Unwraps a `ManifestKey` or `EncryptionKey` value.
  ///
  /// - Throws: ``BackupError/decryptionFailed(file:reason:)`` naming `file`.
  package func unwrap(_ value: [UInt8], file: String) throws(BackupError) -> [UInt8] {
    guard value.count >= 4 + 24 else {
      throw .decryptionFailed(file: file, reason: "a wrapped key of \(value.count) bytes")
    }
    let protectionClass = value.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard let classKey = classKeys[protectionClass] else {
      throw .decryptionFailed(file: file, reason: "no key for protection class \(protectionClass)")
    }
    do {
      return try AESKeyWrap.unwrap(Array(value.dropFirst(4)), kek: classKey)
    } catch {
      throw .decryptionFailed(file: file, reason: error.description)
    }
  }

  /// Decrypts `backup`'s `Manifest.db` into a new file at `destination`.
  ///
  /// - Throws: ``BackupError``.
  package func decryptManifest(of backup: Backup, to destination: String) throws(BackupError) {
    guard let manifestKey = backup.metadata.manifestKey else {
      throw .decryptionFailed(
        file: backup.path + "/Manifest.plist", reason: "the backup has no ManifestKey")
    }
    let key = try unwrap(manifestKey, file: backup.path + "/Manifest.plist")
    let source: ReadOnlyFile
    do {
      source = try ReadOnlyFile(path: backup.manifestPath)
    } catch .access(let error) where error.isNotFound {
      throw .notABackup(path: backup.path, reason: "no Manifest.db")
    } catch {
      throw .unreadable(file: backup.manifestPath, reason: error.description)
    }
    do {
      _ = try DecryptingCopy.copy(source, to: destination, key: key, plaintextSize: nil)
    } catch let error as BackupError {
      throw error
    } catch {
      throw .decryptionFailed(file: backup.manifestPath, reason: "\(error)")
    }
  }
}

/// Streams an AES-256-CBC file into its plaintext, in chunks, removing the padding at the end.
enum DecryptingCopy {
  static let chunkSize = 1 << 20

  /// Decrypts `source` into a new file at `destination` (created exclusively, mode 0600).
  ///
  /// - Parameter plaintextSize: the size the manifest records; the output is cut to it when it lies
  ///   within the last block, else PKCS#7 padding is removed when valid.
  /// - Returns: the bytes written.
  /// - Throws: ``FileAccessError`` or ``BackupError/decryptionFailed(file:reason:)``.
  static func copy(
    _ source: ReadOnlyFile, to destination: String, key: [UInt8], plaintextSize: Int64?
  ) throws -> Int64 {
    let cryptor: AESCBCCryptor
    do {
      cryptor = try AESCBCCryptor(key: key, isEncrypting: false)
    } catch {
      throw BackupError.decryptionFailed(file: source.path, reason: error.description)
    }
    // A new file only; on failure only this partial output is removed (if still ours).
    let created = try CreatedFile(path: destination)
    do {
      let written = try decrypt(
        source, into: created.descriptor, destination: destination, cryptor: cryptor,
        plaintextSize: plaintextSize)
      created.close()
      return written
    } catch {
      created.discard()
      throw error
    }
  }

  private static func decrypt(
    _ source: ReadOnlyFile, into output: Int32, destination: String, cryptor: AESCBCCryptor,
    plaintextSize: Int64?
  ) throws -> Int64 {
    var written: Int64 = 0
    var held: [UInt8] = []  // the last block, kept until we know whether it holds padding
    var offset: Int64 = 0
    while true {
      let chunk = try source.read(count: chunkSize, at: offset)
      if chunk.isEmpty { break }
      offset += Int64(chunk.count)
      do {
        held += try cryptor.update(chunk)
      } catch {
        throw BackupError.decryptionFailed(file: source.path, reason: error.description)
      }
      if held.count > 16 {
        let ready = held.count - 16
        try write(held[..<ready], to: output, path: destination)
        written += Int64(ready)
        held.removeFirst(ready)
      }
    }
    do {
      held += try cryptor.finish()
    } catch {
      throw BackupError.decryptionFailed(file: source.path, reason: error.description)
    }
    let keep: Int
    if let plaintextSize, plaintextSize >= written, plaintextSize - written <= Int64(held.count) {
      keep = Int(plaintextSize - written)
    } else if let pad = held.last, pad >= 1, pad <= 16, Int(pad) <= held.count,
      held.suffix(Int(pad)).allSatisfy({ $0 == pad })
    {
      keep = held.count - Int(pad)
    } else {
      keep = held.count
    }
    try write(held[..<keep], to: output, path: destination)
    return written + Int64(keep)
  }

  private static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, path: String)
    throws(FileAccessError)
  {
    var offset = 0
    let count = bytes.count
    while offset < count {
      let put = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.write(descriptor, raw.baseAddress! + offset, count - offset)
        #else
          Darwin.write(descriptor, raw.baseAddress! + offset, count - offset)
        #endif
      }
      if put < 0 {
        if errno == EINTR { continue }
        throw FileAccessError(path: path, operation: "write", code: errno)
      }
      offset += put
    }
  }
}

/// The contents of an encrypted backup: each stored file decrypted with its own key.
package struct EncryptedContentReader: BackupContentReader {
  package let keys: BackupKeys

  package init(keys: BackupKeys) {
    self.keys = keys
  }

  package func copy(_ entry: ManifestEntry, from source: ReadOnlyFile, to destination: String)
    throws -> Int64
  {
    guard let wrapped = entry.record?.encryptionKey else {
      // Empty files have no key and no ciphertext.
      guard source.size == 0 else {
        throw BackupError.decryptionFailed(
          file: source.path, reason: "the manifest has no EncryptionKey for this file")
      }
      return try source.copy(to: destination)
    }
    let key = try keys.unwrap(wrapped, file: source.path)
    return try DecryptingCopy.copy(
      source, to: destination, key: key, plaintextSize: entry.expectedBytes)
  }
}
