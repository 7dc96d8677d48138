import Testing

@testable import DittoLibrary

/// The fingerprint set behind the all-duplicates check: exact membership for what was inserted, a
/// refusal (never an overwrite) once full, and fingerprints that depend on every byte and the category.
@Suite struct TextFingerprintTests {
  func fingerprint(_ text: String, category: Int64 = 1, with maker: TextFingerprinter)
    -> TextFingerprint
  {
    var text = text
    return text.withUTF8 { maker.fingerprint(category: category, text: $0) }
  }

  @Test func everyByteAndTheCategoryCount() {
    let maker = TextFingerprinter()
    let texts = ["", "a", "b", "ab", "ba", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\u{0}"]
    let prints = texts.map { fingerprint($0, with: maker) }
    #expect(Set(prints).count == texts.count)
    #expect(fingerprint("a", category: 2, with: maker) != fingerprint("a", with: maker))
    #expect(fingerprint("abcdefghi", with: maker) == prints[7])
    // A fresh key gives other fingerprints for the same text.
    #expect(fingerprint("a", with: TextFingerprinter()) != prints[1])
  }

  @Test func membershipIsExactAndAFullSetRefuses() {
    let maker = TextFingerprinter()
    var set = FingerprintSet(expectedCount: 100)
    for value in 0..<100 {
      let added = set.insert(fingerprint("ditto \(value)", with: maker))
      #expect(added)
    }
    let again = set.insert(fingerprint("ditto 7", with: maker))  // already there: not counted twice
    #expect(again)
    #expect(set.count == 100)
    for value in 0..<100 {
      #expect(set.contains(fingerprint("ditto \(value)", with: maker)))
    }
    #expect(!set.contains(fingerprint("ditto 100", with: maker)))
    var inserted = 100
    while set.insert(fingerprint("more \(inserted)", with: maker)) { inserted += 1 }
    #expect(inserted > 100)
    #expect(!set.contains(fingerprint("more \(inserted)", with: maker)))
    #expect(set.contains(fingerprint("ditto 0", with: maker)))
  }
}
