#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import COpenSSL
#endif

/// AES-CBC (NIST SP 800-38A §6.2) without padding, from the system's crypto library.
///
/// Backups encrypt `Manifest.db` and every file with AES-256-CBC and a zero IV; padding is handled by
/// the caller (the last block is only known at the end of a stream).
package enum AESCBC {
  /// Sixteen zero bytes: the IV backups use.
  package static let zeroIV = [UInt8](repeating: 0, count: 16)

  /// Encrypts `plaintext` (a multiple of 16 bytes unless `addsPKCS7Padding`).
  ///
  /// - Throws: ``CryptoError``.
  package static func encrypt(
    _ plaintext: [UInt8], key: [UInt8], iv: [UInt8] = zeroIV, addsPKCS7Padding: Bool = false
  ) throws(CryptoError) -> [UInt8] {
    var input = plaintext
    if addsPKCS7Padding {
      let pad = 16 - input.count % 16
      input += [UInt8](repeating: UInt8(pad), count: pad)
    }
    let cryptor = try AESCBCCryptor(key: key, iv: iv, isEncrypting: true)
    return try cryptor.update(input) + cryptor.finish()
  }

  /// Decrypts `ciphertext` (a multiple of 16 bytes); the padding, if any, is left in place.
  ///
  /// - Throws: ``CryptoError``.
  package static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8] = zeroIV)
    throws(CryptoError) -> [UInt8]
  {
    let cryptor = try AESCBCCryptor(key: key, iv: iv, isEncrypting: false)
    return try cryptor.update(ciphertext) + cryptor.finish()
  }
}

/// A streaming AES-CBC encryptor or decryptor without padding: feed chunks of any size, then finish.
package final class AESCBCCryptor {
  #if canImport(CommonCrypto)
    private let cryptor: CCCryptorRef
  #else
    private let context: UnsafeMutableRawPointer
  #endif
  private var pending = 0

  /// Starts a stream with `key` (16, 24 or 32 bytes) and a 16-byte `iv`.
  ///
  /// - Throws: ``CryptoError/invalidInput(_:)`` for key or IV sizes.
  package init(key: [UInt8], iv: [UInt8] = AESCBC.zeroIV, isEncrypting: Bool) throws(CryptoError) {
    guard [16, 24, 32].contains(key.count) else {
      throw .invalidInput("an AES key of \(key.count) bytes")
    }
    guard iv.count == 16 else { throw .invalidInput("an IV of \(iv.count) bytes") }
    #if canImport(CommonCrypto)
      var made: CCCryptorRef?
      let status = key.withUnsafeBufferPointer { keyBytes in
        iv.withUnsafeBufferPointer { ivBytes in
          CCCryptorCreate(
            CCOperation(isEncrypting ? kCCEncrypt : kCCDecrypt), CCAlgorithm(kCCAlgorithmAES),
            CCOptions(0), keyBytes.baseAddress, keyBytes.count, ivBytes.baseAddress, &made)
        }
      }
      guard status == Int32(kCCSuccess), let made else {
        throw .failed(operation: "AES-CBC setup")
      }
      cryptor = made
    #else
      try CryptoLibrary.load()
      guard let made = ditto_cipher_context_new() else {
        throw .failed(operation: "EVP_CIPHER_CTX_new")
      }
      let initialized = key.withUnsafeBufferPointer { keyBytes in
        iv.withUnsafeBufferPointer { ivBytes in
          ditto_cipher_init(
            made, 0, keyBytes.baseAddress, Int32(keyBytes.count), ivBytes.baseAddress,
            isEncrypting ? 1 : 0)
        }
      }
      guard initialized == 1 else {
        ditto_cipher_context_free(made)
        throw .failed(operation: "AES-CBC setup")
      }
      context = made
    #endif
  }

  deinit {
    #if canImport(CommonCrypto)
      CCCryptorRelease(cryptor)
    #else
      ditto_cipher_context_free(context)
    #endif
  }

  /// Processes `input`; returns the whole blocks done so far (a partial block waits for more input).
  ///
  /// - Throws: ``CryptoError``.
  package func update(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
    // withUnsafeBytes rethrows untyped errors; carry the typed one out in a Result.
    let result = input.withUnsafeBytes { raw in
      Result { () throws(CryptoError) in try update(raw) }
    }
    return try result.get()
  }

  /// Processes the bytes at `input` (see ``update(_:)-([UInt8])``).
  package func update(_ input: UnsafeRawBufferPointer) throws(CryptoError) -> [UInt8] {
    guard input.count > 0 else { return [] }
    var output = [UInt8](repeating: 0, count: input.count + 32)
    var written = 0
    #if canImport(CommonCrypto)
      let status = output.withUnsafeMutableBytes { out in
        CCCryptorUpdate(
          cryptor, input.baseAddress, input.count, out.baseAddress, out.count, &written)
      }
      guard status == Int32(kCCSuccess) else { throw .failed(operation: "AES-CBC") }
    #else
      guard input.count <= Int(Int32.max) - 32 else { throw .invalidInput("a chunk too large") }
      var length: Int32 = 0
      let status = output.withUnsafeMutableBytes { out in
        ditto_cipher_update(
          context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
          input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
      }
      guard status == 1 else { throw .failed(operation: "AES-CBC") }
      written = Int(length)
    #endif
    pending = (pending + input.count) % 16
    output.removeSubrange(written...)
    return output
  }

  /// Ends the stream.
  ///
  /// - Throws: ``CryptoError/invalidInput(_:)`` when the input was not a whole number of blocks.
  package func finish() throws(CryptoError) -> [UInt8] {
    guard pending == 0 else {
      throw .invalidInput("the data is not a whole number of 16-byte AES blocks")
    }
    var output = [UInt8](repeating: 0, count: 32)
    var written = 0
    #if canImport(CommonCrypto)
      let status = output.withUnsafeMutableBytes { out in
        CCCryptorFinal(cryptor, out.baseAddress, out.count, &written)
      }
      guard status == Int32(kCCSuccess) else { throw .failed(operation: "AES-CBC") }
    #else
      var length: Int32 = 0
      let status = output.withUnsafeMutableBytes { out in
        ditto_cipher_final(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
      }
      guard status == 1 else { throw .failed(operation: "AES-CBC") }
      written = Int(length)
    #endif
    return Array(output.prefix(written))
  }
}

@available(*, unavailable)
extension AESCBCCryptor: Sendable {}
