import Foundation
import LegacyStore
import PropertyLists

// APP GROUP DEFAULTS AS A LEGACY SOURCE (group.io.kern.ditto.plist; facts: coredata-sqlite-format.md §12)
//
//   KEY                 TYPE                      WRITTEN BY        MEANING
//   dittos              array of strings          1.x               the flat 1.x list; 2.x moved it into "General"
//   categories          array of strings          1.x / early 2.x   ordered category titles ...
//   dittos              dictionary title → texts  1.x / early 2.x   ... and each one's ordered texts
//   pendingCategories   array of strings          2.x keyboard      titles of EXISTING categories that have queued
//                                                                   dittos (not new categories); gives their order
//   pendingDittos       dictionary title → texts  2.x keyboard      dittos added in the keyboard, not yet merged
//                                                                   into the same-titled existing category
//
// The app merges the queue into the same-titled existing categories, then removes both keys. Here the
// queued dittos are imported by title: into the same-titled category when the import has one, else
// under a category of that title (the store that had it may be the one that was lost).
//
// These keys are only ever read. A value of the wrong type is skipped and noted (never a crash); empty
// texts are skipped and counted. Dictionary order is lost in a plist, so titles that a dictionary has but
// the matching title list lacks follow the list, sorted.

/// Legacy dittos found in the App Group defaults (what a `LegacyDefaultsSource` returns is read
/// into this; the app needs only ``keys``).
public struct DefaultsLegacyContent: Sendable, Equatable {
  /// The keyboard's queued dittos (`pendingDittos`), by the title of the existing category they were
  /// added to; `pendingCategories` lists those titles (it never names a new category).
  package var pending: [LegacyCategory] = []
  /// 1.x content: the `categories` + `dittos` pair, or the flat `dittos` list as "General".
  package var version1: [LegacyCategory] = []
  /// Empty texts skipped.
  package var skippedEmptyTexts = 0
  /// Keys present with an unexpected type (key names only, never values).
  package var problems: [String] = []

  /// The App Group defaults keys that may hold legacy dittos: a `LegacyDefaultsSource` returns
  /// exactly those of them that are set.
  public static let keys = ["dittos", "categories", "pendingCategories", "pendingDittos"]

  /// The title 2.x gave the category holding the 1.x flat list.
  package static let generalTitle = "General"

  /// No legacy content.
  package init() {}

  /// True when neither source holds a category or a ditto.
  package var isEmpty: Bool { pending.isEmpty && version1.isEmpty }

  /// Reads the legacy keys out of the defaults' values (as a `LegacyDefaultsSource` returns them).
  package init(values: [String: PropertyListValue]) {
    if values["pendingCategories"] != nil || values["pendingDittos"] != nil {
      pending = categories(
        titlesKey: "pendingCategories", textsKey: "pendingDittos", values: values,
        origin: "pending")
    }
    if case .array(let list)? = values["dittos"] {
      let texts = strings(list, key: "dittos")
      if !texts.isEmpty {
        version1 = [LegacyCategory(title: Self.generalTitle, dittos: texts, origin: .other("v1"))]
      }
      if values["categories"] != nil {
        problems.append("categories (no matching dittos dictionary)")
      }
    } else if values["categories"] != nil || values["dittos"] != nil {
      version1 = categories(
        titlesKey: "categories", textsKey: "dittos", values: values, origin: "v1")
    }
  }

  private mutating func categories(
    titlesKey: String, textsKey: String, values: [String: PropertyListValue], origin: String
  ) -> [LegacyCategory] {
    var titles: [String] = []
    if let raw = values[titlesKey] {
      if case .array(let list) = raw {
        for item in list {
          if case .string(let title) = item {
            titles.append(title)
          } else {
            problems.append(titlesKey)
          }
        }
      } else {
        problems.append(titlesKey)
      }
    }
    var textsByTitle: [String: [PropertyListValue]] = [:]
    if let raw = values[textsKey] {
      if case .dictionary(let dictionary) = raw {
        for (title, texts) in dictionary {
          if case .array(let list) = texts {
            textsByTitle[title] = list
          } else {
            problems.append(textsKey)
          }
        }
      } else {
        problems.append(textsKey)
      }
    }
    var seen = Set<String>()
    var ordered: [String] = []
    for title in titles where seen.insert(title).inserted { ordered.append(title) }
    for title in textsByTitle.keys.sorted() where seen.insert(title).inserted {
      ordered.append(title)
    }
    return ordered.map { title in
      LegacyCategory(
        title: title, dittos: strings(textsByTitle[title] ?? [], key: textsKey),
        origin: .other(origin))
    }
  }

  private mutating func strings(_ list: [PropertyListValue], key: String) -> [LegacyDitto] {
    var dittos: [LegacyDitto] = []
    for item in list {
      guard case .string(let text) = item else {
        problems.append(key)
        continue
      }
      if text.isEmpty {
        skippedEmptyTexts += 1
      } else {
        dittos.append(LegacyDitto(text: text, useCount: 0))
      }
    }
    return dittos
  }
}

extension Array where Element == LegacyCategory {
  /// Streams categories and their dittos as legacy items.
  func emit(_ sink: (LegacyItem) throws -> Void) throws {
    for category in self {
      try sink(.category(title: category.title, origin: category.origin))
      for ditto in category.dittos { try sink(.ditto(ditto)) }
    }
  }
}
