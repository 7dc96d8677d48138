#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import COpenSSL
#endif

/// AES Key Wrap (RFC 3394) with the default initial value `A6A6A6A6A6A6A6A6`, from the system's crypto
/// library.
///
/// Backups wrap each class key with the key-encryption key derived from the password, and the manifest
/// key and every file key with a class key. Unwrapping checks the initial value: a wrong key gives
/// ``CryptoError/integrityCheckFailed``, which is how a wrong password shows.
package enum AESKeyWrap {
  /// Unwraps `wrapped` (n+1 64-bit blocks) with `kek` (16, 24 or 32 bytes).
  ///
  /// - Throws: ``CryptoError/integrityCheckFailed`` when the key is wrong; `.invalidInput` for sizes.
  package static func unwrap(_ wrapped: [UInt8], kek: [UInt8]) throws(CryptoError) -> [UInt8] {
    try check(kek: kek)
    guard wrapped.count >= 24, wrapped.count % 8 == 0 else {
      throw .invalidInput("a wrapped key of \(wrapped.count) bytes")
    }
    return try run(wrapped, kek: kek, isWrapping: false)
  }

  /// Wraps `key` (at least 16 bytes, a multiple of 8) with `kek`.
  ///
  /// - Throws: ``CryptoError``.
  package static func wrap(_ key: [UInt8], kek: [UInt8]) throws(CryptoError) -> [UInt8] {
    try check(kek: kek)
    guard key.count >= 16, key.count % 8 == 0 else {
      throw .invalidInput("a key of \(key.count) bytes to wrap")
    }
    return try run(key, kek: kek, isWrapping: true)
  }

  private static func check(kek: [UInt8]) throws(CryptoError) {
    guard [16, 24, 32].contains(kek.count) else {
      throw .invalidInput("a key-encryption key of \(kek.count) bytes")
    }
  }

  #if canImport(CommonCrypto)
    private static func run(_ input: [UInt8], kek: [UInt8], isWrapping: Bool) throws(CryptoError)
      -> [UInt8]
    {
      var output = [UInt8](repeating: 0, count: isWrapping ? input.count + 8 : input.count - 8)
      var outputLength = output.count
      let status = input.withUnsafeBufferPointer { inBytes in
        kek.withUnsafeBufferPointer { kekBytes in
          output.withUnsafeMutableBufferPointer { out in
            isWrapping
              ? CCSymmetricKeyWrap(
                CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen,
                kekBytes.baseAddress, kekBytes.count, inBytes.baseAddress, inBytes.count,
                out.baseAddress, &outputLength)
              : CCSymmetricKeyUnwrap(
                CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen,
                kekBytes.baseAddress, kekBytes.count, inBytes.baseAddress, inBytes.count,
                out.baseAddress, &outputLength)
          }
        }
      }
      guard status == Int32(kCCSuccess) else {
        if isWrapping { throw .failed(operation: "AES key wrap") }
        throw .integrityCheckFailed
      }
      return Array(output.prefix(outputLength))
    }
  #else
    private static func run(_ input: [UInt8], kek: [UInt8], isWrapping: Bool) throws(CryptoError)
      -> [UInt8]
    {
      try CryptoLibrary.load()
      guard let context = ditto_cipher_context_new() else {
        throw .failed(operation: "EVP_CIPHER_CTX_new")
      }
      defer { ditto_cipher_context_free(context) }
      let initialized = kek.withUnsafeBufferPointer { kekBytes in
        ditto_cipher_init(
          context, 1, kekBytes.baseAddress, Int32(kekBytes.count), nil, isWrapping ? 1 : 0)
      }
      guard initialized == 1 else { throw .failed(operation: "AES key wrap setup") }
      var output = [UInt8](repeating: 0, count: input.count + 16)
      var written: Int32 = 0
      let updated = input.withUnsafeBufferPointer { inBytes in
        output.withUnsafeMutableBufferPointer { out in
          ditto_cipher_update(
            context, out.baseAddress, &written, inBytes.baseAddress, Int32(inBytes.count))
        }
      }
      guard updated == 1, written > 0 else {
        if isWrapping { throw .failed(operation: "AES key wrap") }
        throw .integrityCheckFailed
      }
      var tail: Int32 = 0
      let finished = output.withUnsafeMutableBufferPointer { out in
        ditto_cipher_final(context, out.baseAddress.map { $0 + Int(written) }, &tail)
      }
      guard finished == 1 else {
        if isWrapping { throw .failed(operation: "AES key wrap") }
        throw .integrityCheckFailed
      }
      return Array(output.prefix(Int(written + tail)))
    }
  #endif
}
