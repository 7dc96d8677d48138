#if !canImport(CommonCrypto)
  import COpenSSL

  /// OpenSSL's libcrypto, loaded on first use (see COpenSSL.h): only encrypted backups need it.
  enum CryptoLibrary {
    /// Loads the library once; throws ``CryptoError/libraryUnavailable(_:)`` with the loader's reason.
    static func load() throws(CryptoError) {
      var reason = [CChar](repeating: 0, count: 256)
      guard ditto_crypto_load(&reason, reason.count) == 0 else { return }
      let message = String(
        decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .libraryUnavailable(message.isEmpty ? "unknown reason" : message)
    }
  }
#endif
