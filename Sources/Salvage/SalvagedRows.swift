// ROWS OF THE DITTO TABLES, FROM ANY SOURCE
//
// The same three row types carry what SQLite read and what the page decoder found, so one
// function (LibraryAssembler) orders both. Only the columns the reader uses are kept:
//
//   TYPE          FIELD      COLUMN           NULL MEANS
//   ProfileRow    key        Z_PK             (never NULL: the rowid)
//   CategoryRow   key        Z_PK
//                 profile    ZPROFILE         without profile: after the profiles' categories
//                 order      Z_FOK_PROFILE    sorts last
//                 title      ZTITLE           "Untitled"
//   DittoRow      key        Z_PK
//                 category   ZCATEGORY        in "Recovered"
//                 order      Z_FOK_CATEGORY   sorts last
//                 text       ZTEXT            skipped and counted (also when empty)
//                 useCount   ZUSE_COUNT       0

/// One ZPROFILE row.
struct ProfileRow: Sendable, Equatable {
  var key: Int64
}

/// One ZCATEGORY row.
struct CategoryRow: Sendable, Equatable {
  var key: Int64
  var profile: Int64?
  var order: Int64?
  var title: String?
}

/// One ZDITTO row.
struct DittoRow: Sendable, Equatable {
  var key: Int64
  var category: Int64?
  var order: Int64?
  var text: String?
  var useCount: Int64?
}

/// The rows of the three tables, by key.
struct DittoRows: Sendable {
  var profiles: [Int64: ProfileRow] = [:]
  var categories: [Int64: CategoryRow] = [:]
  var dittos: [Int64: DittoRow] = [:]

  /// Adds the rows of `other` whose keys are not here yet (rows already here win).
  mutating func addMissing(from other: DittoRows) {
    profiles.merge(other.profiles) { mine, _ in mine }
    categories.merge(other.categories) { mine, _ in mine }
    dittos.merge(other.dittos) { mine, _ in mine }
  }
}

extension DittoSchema {
  /// A ZPROFILE row from a decoded record.
  func profileRow(key: Int64, values _: [RecordValue]) -> ProfileRow {
    ProfileRow(key: key)
  }

  /// A ZCATEGORY row from a decoded record; a title that is not valid text reads as NULL.
  func categoryRow(key: Int64, values: [RecordValue], encoding: TextEncoding) -> CategoryRow {
    CategoryRow(
      key: key,
      profile: Self.integer(value("ZPROFILE", in: values, table: .category)),
      order: Self.integer(value("Z_FOK_PROFILE", in: values, table: .category)),
      title: Self.text(value("ZTITLE", in: values, table: .category), encoding: encoding) ?? nil)
  }

  /// A ZDITTO row from a decoded record; nil when its text is present but not valid text
  /// (a damaged value must never come back as a wrong ditto).
  func dittoRow(key: Int64, values: [RecordValue], encoding: TextEncoding) -> DittoRow? {
    guard let text = Self.text(value("ZTEXT", in: values, table: .ditto), encoding: encoding)
    else { return nil }
    return DittoRow(
      key: key,
      category: Self.integer(value("ZCATEGORY", in: values, table: .ditto)),
      order: Self.integer(value("Z_FOK_CATEGORY", in: values, table: .ditto)),
      text: text,
      useCount: Self.integer(value("ZUSE_COUNT", in: values, table: .ditto)))
  }

  /// An integer column as SQLite would give it to the reader; reals are truncated, like
  /// `sqlite3_column_int64`, text and blobs give nil.
  private static func integer(_ value: RecordValue) -> Int64? {
    switch value {
    case .integer(let number): return number
    case .real(let number):
      return number.isFinite ? Int64(exactly: number.rounded(.towardZero)) : nil
    case .null, .text, .blob: return nil
    }
  }

  /// A text column: `.some(nil)` for NULL, `.some(text)` for valid text, nil for undecodable bytes.
  private static func text(_ value: RecordValue, encoding: TextEncoding) -> String?? {
    switch value {
    case .null: return .some(nil)
    case .text(let bytes), .blob(let bytes):
      guard let text = decodeText(bytes, encoding: encoding) else { return nil }
      return .some(text)
    case .integer(let number): return .some(String(number))
    case .real: return nil
    }
  }
}
