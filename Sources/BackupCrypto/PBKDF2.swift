#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import COpenSSL
#endif

/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA1 or HMAC-SHA256, from the system's crypto library.
///
/// Encrypted backups derive their key-encryption key with SHA-256 (`DPSL`, `DPIC`) and then SHA-1
/// (`SALT`, `ITER`).
package enum PBKDF2 {
  /// The pseudo-random function.
  package enum Hash: Sendable {
    case sha1, sha256
  }

  /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
  ///
  /// - Throws: ``CryptoError/invalidInput(_:)`` for a count or length out of range.
  package static func derive(
    _ hash: Hash, password: [UInt8], salt: [UInt8], iterations: Int, length: Int
  ) throws(CryptoError) -> [UInt8] {
    guard iterations >= 1, iterations <= Int(Int32.max) else {
      throw .invalidInput("iteration count \(iterations)")
    }
    guard length >= 1, length <= 1024 else { throw .invalidInput("key length \(length)") }
    var output = [UInt8](repeating: 0, count: length)
    #if canImport(CommonCrypto)
      let prf =
        hash == .sha1
        ? CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1)
        : CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256)
      let status = password.withUnsafeBufferPointer { pass in
        salt.withUnsafeBufferPointer { saltBytes in
          output.withUnsafeMutableBufferPointer { out in
            pass.withMemoryRebound(to: CChar.self) { passChars in
              CCKeyDerivationPBKDF(
                CCPBKDFAlgorithm(kCCPBKDF2), passChars.baseAddress, passChars.count,
                saltBytes.baseAddress, saltBytes.count, prf, UInt32(iterations), out.baseAddress,
                out.count)
            }
          }
        }
      }
      guard status == Int32(kCCSuccess) else { throw .failed(operation: "PBKDF2") }
    #else
      try CryptoLibrary.load()
      let status = password.withUnsafeBufferPointer { pass in
        salt.withUnsafeBufferPointer { saltBytes in
          output.withUnsafeMutableBufferPointer { out in
            pass.withMemoryRebound(to: CChar.self) { passChars in
              ditto_pbkdf2(
                passChars.baseAddress, Int32(passChars.count), saltBytes.baseAddress,
                Int32(saltBytes.count), Int32(iterations), hash == .sha256 ? 1 : 0,
                Int32(out.count), out.baseAddress)
            }
          }
        }
      }
      guard status == 1 else { throw .failed(operation: "PBKDF2") }
    #endif
    return output
  }
}
