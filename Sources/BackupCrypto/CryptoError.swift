/// A cryptographic operation failed. Never carries key material or plaintext.
package enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input has the wrong size or shape (named in `reason`).
  case invalidInput(String)
  /// RFC 3394's integrity check failed: the key-encryption key is wrong (or the data is damaged).
  case integrityCheckFailed
  /// The library refused an operation (named in `operation`).
  case failed(operation: String)
  /// The system's crypto library could not be loaded (Linux: OpenSSL's `libcrypto.so.3`).
  case libraryUnavailable(String)

  package var description: String {
    switch self {
    case .invalidInput(let reason): "invalid input: \(reason)"
    case .integrityCheckFailed: "the key unwrap integrity check failed"
    case .failed(let operation): "\(operation) failed"
    case .libraryUnavailable(let reason):
      "the crypto library (OpenSSL's libcrypto.so.3) could not be loaded: \(reason)"
    }
  }
}
