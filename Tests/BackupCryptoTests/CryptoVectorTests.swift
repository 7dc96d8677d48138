import BackupCrypto
import Testing

/// Each primitive against the test vectors of its specification.
@Suite struct CryptoVectorTests {
  static func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace }.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
    }
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  // MARK: - PBKDF2-HMAC-SHA1: RFC 6070 §2

  @Test(arguments: [
    ("password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
    ("password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
    ("password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
    (
      "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25,
      "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"
    ),
    ("pass\u{0}word", "sa\u{0}lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
  ])
  func pbkdf2SHA1(password: String, salt: String, iterations: Int, length: Int, expected: String)
    throws
  {
    let key = try PBKDF2.derive(
      .sha1, password: Self.bytes(password), salt: Self.bytes(salt), iterations: iterations,
      length: length)
    #expect(key == Self.hex(expected))
  }

  // MARK: - PBKDF2-HMAC-SHA256: RFC 7914 §11

  @Test(arguments: [
    (
      "passwd", "salt", 1,
      "55 ac 04 6e 56 e3 08 9f ec 16 91 c2 25 44 b6 05 f9 41 85 21 6d de 04 65 e6 8b 9d 57 c2 0d ac bc 49 ca 9c cc f1 79 b6 45 99 16 64 b3 9d 77 ef 31 7c 71 b8 45 b1 e3 0b d5 09 11 20 41 d3 a1 97 83"
    ),
    (
      "Password", "NaCl", 80000,
      "4d dc d8 f6 0b 98 be 21 83 0c ee 5e f2 27 01 f9 64 1a 44 18 d0 4c 04 14 ae ff 08 87 6b 34 ab 56 a1 d4 25 a1 22 58 33 54 9a db 84 1b 51 c9 b3 17 6a 27 2b de bb a1 d0 78 47 8f 62 b3 97 f3 3c 8d"
    ),
  ])
  func pbkdf2SHA256(password: String, salt: String, iterations: Int, expected: String) throws {
    let key = try PBKDF2.derive(
      .sha256, password: Self.bytes(password), salt: Self.bytes(salt), iterations: iterations,
      length: 64)
    #expect(key == Self.hex(expected))
  }

  @Test func pbkdf2RejectsNonsense() {
    #expect(throws: CryptoError.self) {
      try PBKDF2.derive(.sha1, password: [1], salt: [1], iterations: 0, length: 32)
    }
    #expect(throws: CryptoError.self) {
      try PBKDF2.derive(.sha1, password: [1], salt: [1], iterations: 1, length: 0)
    }
  }

  // MARK: - AES key wrap: RFC 3394 §4

  static let kek128 = hex("000102030405060708090A0B0C0D0E0F")
  static let kek256 = hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")
  static let data128 = hex("00112233445566778899AABBCCDDEEFF")
  static let data256 = hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")

  @Test(arguments: [
    // §4.1: 128 bits of key data with a 128-bit KEK.
    (kek128, data128, "1FA68B0A8112B447 AEF34BD8FB5A7B82 9D3E862371D2CFE5"),
    // §4.3: 128 bits of key data with a 256-bit KEK.
    (kek256, data128, "64E8C3F9CE0F5BA2 63E9777905818A2A 93C8191E7D6E8AE7"),
    // §4.6: 256 bits of key data with a 256-bit KEK (the backup case).
    (
      kek256, data256,
      "28C9F404C4B810F4 CBCCB35CFB87F826 3F5786E2D80ED326 CBC7F0E71A99F43B FB988B9B7A02DD21"
    ),
  ])
  func keyWrap(kek: [UInt8], data: [UInt8], wrapped: String) throws {
    #expect(try AESKeyWrap.wrap(data, kek: kek) == Self.hex(wrapped))
    #expect(try AESKeyWrap.unwrap(Self.hex(wrapped), kek: kek) == data)
  }

  @Test func unwrapWithTheWrongKeyFailsTheIntegrityCheck() {
    var wrongKEK = Self.kek256
    wrongKEK[0] ^= 1
    let wrapped = Self.hex(
      "28C9F404C4B810F4 CBCCB35CFB87F826 3F5786E2D80ED326 CBC7F0E71A99F43B FB988B9B7A02DD21")
    #expect(throws: CryptoError.integrityCheckFailed) {
      try AESKeyWrap.unwrap(wrapped, kek: wrongKEK)
    }
    var damaged = wrapped
    damaged[39] ^= 0x80
    #expect(throws: CryptoError.integrityCheckFailed) {
      try AESKeyWrap.unwrap(damaged, kek: Self.kek256)
    }
    #expect(throws: CryptoError.self) { try AESKeyWrap.unwrap([1, 2, 3], kek: Self.kek256) }
    #expect(throws: CryptoError.self) { try AESKeyWrap.unwrap(wrapped, kek: [1, 2, 3]) }
  }

  // MARK: - AES-256-CBC: NIST SP 800-38A F.2.5 / F.2.6

  static let cbcKey = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
  static let cbcIV = hex("000102030405060708090a0b0c0d0e0f")
  static let cbcPlaintext = hex(
    """
    6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
    30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710
    """)
  static let cbcCiphertext = hex(
    """
    f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
    39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b
    """)

  @Test func cbcAES256() throws {
    #expect(
      try AESCBC.encrypt(Self.cbcPlaintext, key: Self.cbcKey, iv: Self.cbcIV) == Self.cbcCiphertext)
    #expect(
      try AESCBC.decrypt(Self.cbcCiphertext, key: Self.cbcKey, iv: Self.cbcIV) == Self.cbcPlaintext)
  }

  @Test(arguments: [1, 5, 16, 17, 64])
  func cbcStreamsInChunksOfAnySize(chunk: Int) throws {
    let cryptor = try AESCBCCryptor(key: Self.cbcKey, iv: Self.cbcIV, isEncrypting: false)
    var output: [UInt8] = []
    for start in stride(from: 0, to: Self.cbcCiphertext.count, by: chunk) {
      output += try cryptor.update(
        Array(Self.cbcCiphertext[start..<min(start + chunk, Self.cbcCiphertext.count)]))
    }
    output += try cryptor.finish()
    #expect(output == Self.cbcPlaintext)
  }

  @Test func cbcRefusesPartialBlocksAndBadKeys() throws {
    let cryptor = try AESCBCCryptor(key: Self.cbcKey, isEncrypting: false)
    _ = try cryptor.update(Array(Self.cbcCiphertext.prefix(20)))
    #expect(throws: CryptoError.self) { try cryptor.finish() }
    #expect(throws: CryptoError.self) { try AESCBCCryptor(key: [1, 2, 3], isEncrypting: false) }
    #expect(throws: CryptoError.self) {
      try AESCBCCryptor(key: Self.cbcKey, iv: [0], isEncrypting: false)
    }
  }

  @Test func pkcs7PaddingIsAddedOnRequest() throws {
    let padded = try AESCBC.encrypt([1, 2, 3], key: Self.cbcKey, addsPKCS7Padding: true)
    #expect(padded.count == 16)
    #expect(
      try AESCBC.decrypt(padded, key: Self.cbcKey) == [1, 2, 3] + Array(repeating: 13, count: 13))
  }
}
