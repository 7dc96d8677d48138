import LegacyStore

// ORDERING ROWS INTO A LIBRARY (the same rules LegacyStoreReader applies in SQL)
//
//   1. profiles by Z_PK; each profile's categories by (Z_FOK_PROFILE IS NULL, Z_FOK_PROFILE, Z_PK)
//   2. categories without a (known) profile, by Z_PK
//   3. in each category, its dittos by (Z_FOK_CATEGORY IS NULL, Z_FOK_CATEGORY, Z_PK)
//   4. dittos without a (known) category, by Z_PK, in a category titled "Recovered", which exists
//      only when at least one of them has a text
//   NULL title → "Untitled"; NULL or empty text → skipped and counted; NULL use count → 0.
//
// "Known" means "a row of that table is in the input": for salvaged rows, a ditto whose category
// row was not recovered goes to "Recovered", and a category whose profile row was not recovered
// comes after the profiles' categories. A test pins this function to LegacyStoreReader on the
// shared fixtures.

/// Orders salvaged rows exactly as ``LegacyStoreReader`` orders a readable store.
enum LibraryAssembler {
  /// Builds the library from the rows of the three tables.
  static func assemble(_ rows: DittoRows) -> LegacyLibrary {
    var categories: [LegacyCategory] = []
    var skipped = 0
    // Sorting works on small (order, key, index) triples; the rows themselves are never moved.
    let dittos = Array(rows.dittos.values)
    var dittosByCategory: [Int64: [(order: Int64?, key: Int64, index: Int)]] = [:]
    for (index, row) in dittos.enumerated() {
      guard let category = row.category else { continue }
      dittosByCategory[category, default: []].append((row.order, row.key, index))
    }
    let categoriesByProfile = Dictionary(
      grouping: rows.categories.values.filter { $0.profile != nil }
    ) { $0.profile ?? 0 }
    var visited = Set<Int64>()

    func emit(_ category: CategoryRow, origin: LegacyCategoryOrigin) {
      guard visited.insert(category.key).inserted else { return }
      var members: [LegacyDitto] = []
      let order = (dittosByCategory[category.key] ?? []).sorted {
        precedes($0.order, $0.key, $1.order, $1.key)
      }
      members.reserveCapacity(order.count)
      for entry in order {
        let row = dittos[entry.index]
        guard let text = row.text, !text.isEmpty else {
          skipped += 1
          continue
        }
        members.append(LegacyDitto(text: text, useCount: row.useCount ?? 0))
      }
      categories.append(
        LegacyCategory(
          title: category.title ?? LegacyStoreReader.untitledTitle, dittos: members, origin: origin)
      )
    }

    // 1. Profiles and their categories.
    for profile in rows.profiles.keys.sorted() {
      let members = (categoriesByProfile[profile] ?? []).sorted {
        precedes($0.order, $0.key, $1.order, $1.key)
      }
      for category in members { emit(category, origin: .profile(profile)) }
    }
    // 2. Categories without a known profile.
    let loose = rows.categories.values.filter { row in
      guard let profile = row.profile else { return true }
      return rows.profiles[profile] == nil
    }
    for category in loose.sorted(by: { $0.key < $1.key }) {
      emit(category, origin: .withoutProfile)
    }
    // 3. Dittos without a known category.
    let orphans = rows.dittos.values.filter { row in
      guard let category = row.category else { return true }
      return rows.categories[category] == nil
    }
    var recovered: [LegacyDitto] = []
    for row in orphans.sorted(by: { $0.key < $1.key }) {
      guard let text = row.text, !text.isEmpty else {
        skipped += 1
        continue
      }
      recovered.append(LegacyDitto(text: text, useCount: row.useCount ?? 0))
    }
    if !recovered.isEmpty {
      categories.append(
        LegacyCategory(
          title: LegacyStoreReader.recoveredTitle, dittos: recovered, origin: .recovered))
    }
    return LegacyLibrary(categories: categories, skippedEmptyTexts: skipped)
  }

  /// `ORDER BY (order IS NULL), order, key`.
  private static func precedes(
    _ leftOrder: Int64?, _ leftKey: Int64, _ rightOrder: Int64?, _ rightKey: Int64
  )
    -> Bool
  {
    switch (leftOrder, rightOrder) {
    case (nil, nil): return leftKey < rightKey
    case (nil, _): return false
    case (_, nil): return true
    case (let left?, let right?): return left != right ? left < right : leftKey < rightKey
    }
  }
}
