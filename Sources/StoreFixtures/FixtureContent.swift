/// Generated, deterministic Ditto content with every awkward character a CSV or JSON writer must survive:
/// emoji (with modifiers and flags), newlines (LF and CRLF), quotes, commas, tabs, accents and CJK.
package enum FixtureContent {
  static let titles = [
    "Work 💼", "Family ❤️", "Addresses, \"home\"", "Ünïcödé & ñ", "Emoji 🇫🇷👍🏽", "Replies",
    "日本語", "Links",
  ]
  static let phrases = [
    "Running 10 minutes late, start without me.", "On my way 🚗", "Thanks,\nSam",
    "Quote: \"ship it\", then rest", "naïve café — déjà vu", "Line one\r\nLine two",
    "Tab\there", "1 Infinite Loop, Cupertino, CA 95014", "👨‍👩‍👧‍👦 family emoji", "日本語のテキスト",
    "\"Quoted from start to end\"", "Comma at the end,", " leading and trailing spaces ",
    "https://example.com/?a=1&b=\"2\"",
  ]

  /// `categories` categories of `dittosPerCategory` dittos each, all in profile 1, texts unique per
  /// category, use counts 0–99; the same seed always gives the same content.
  package static func make(categories: Int, dittosPerCategory: Int, seed: UInt64)
    -> LegacyStoreSpec
  {
    var random = SeededGenerator(seed: seed)
    var list: [LegacyStoreSpec.Category] = []
    for index in 0..<categories {
      let base = titles[index % titles.count]
      let title = index < titles.count ? base : "\(base) \(index / titles.count + 1)"
      var dittos: [LegacyStoreSpec.Ditto] = []
      for number in 0..<dittosPerCategory {
        let phrase = phrases[Int(random.next() % UInt64(phrases.count))]
        // Numbering keeps texts unique in a category; it goes before or after the phrase, so phrases
        // that start or end with a quote, a comma or a space keep doing so.
        let text = random.next() % 2 == 0 ? "\(number + 1). \(phrase)" : "\(phrase) (\(number + 1))"
        dittos.append(
          LegacyStoreSpec.Ditto(text: text, useCount: Int64(random.next() % 100)))
      }
      list.append(LegacyStoreSpec.Category(title: title, dittos: dittos))
    }
    return LegacyStoreSpec(categories: list)
  }

  /// The content a reader gets from `spec`, computed from the spec itself (not by reading a store):
  /// profile categories in order, then categories without a profile, then `Recovered`; NULL titles
  /// become `Untitled`; NULL or empty texts are skipped; NULL use counts are 0.
  ///
  /// The reader orders categories without a profile, and dittos without a category, by primary key; this
  /// function uses list order, so it matches only when `shufflesPrimaryKeys` is false or there is at
  /// most one of each.
  package static func expectedCategories(of spec: LegacyStoreSpec) -> [(
    title: String, dittos: [(text: String, useCount: Int64)]
  )] {
    func dittos(_ items: [LegacyStoreSpec.Ditto]) -> [(text: String, useCount: Int64)] {
      items.compactMap { item in
        guard let text = item.text, !text.isEmpty else { return nil }
        return (text, item.useCount ?? 0)
      }
    }
    var result: [(title: String, dittos: [(text: String, useCount: Int64)])] = []
    for profile in 1...max(1, spec.profileCount) {
      for category in spec.categories where category.profile == profile {
        result.append((category.title ?? "Untitled", dittos(category.dittos)))
      }
    }
    for category in spec.categories
    where (category.profile ?? 0) < 1 || (category.profile ?? 0) > spec.profileCount {
      result.append((category.title ?? "Untitled", dittos(category.dittos)))
    }
    let loose = dittos(spec.dittosWithoutCategory)
    if !loose.isEmpty { result.append(("Recovered", loose)) }
    return result
  }
}
