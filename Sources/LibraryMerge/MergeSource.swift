/// One ditto offered by a legacy source: its text and its use count.
package struct MergeDitto: Sendable, Equatable, Hashable {
  /// Its text; dittos merge by text within their category.
  package var text: String
  /// Its use count, kept as it is.
  package var useCount: Int64

  /// A ditto with `text`, used `useCount` times.
  package init(text: String, useCount: Int64 = 0) {
    self.text = text
    self.useCount = useCount
  }
}

/// One category offered by a legacy source, its dittos in the user's order.
package struct MergeCategory: Sendable, Equatable {
  /// Its title; categories merge by title.
  package var title: String
  /// Its dittos, in order.
  package var dittos: [MergeDitto]

  /// A category titled `title` holding `dittos` in order.
  package init(title: String, dittos: [MergeDitto] = []) {
    self.title = title
    self.dittos = dittos
  }
}

/// One step of a source as it streams into the merge: a category starts, or a ditto of it.
package enum MergeItem: Sendable, Equatable {
  /// A category begins; the dittos that follow are its own.
  case category(title: String)
  /// A ditto of the category that began last.
  case ditto(MergeDitto)
}

/// A legacy source as the merge reads it: its categories in the user's order, each followed by its
/// dittos in order.
///
/// The engine surveys a source to its end before any library is touched (so a read error is known
/// first), then streams it again into the import: the stream reads the same private snapshot, and a
/// failure on the way is a ``ImportFailure/source(_:)``, never a library error.
package protocol MergeSourceStream {
  /// A short name for reports (`coredata`, `pending`, `v1`, `file`, …); never user content.
  var kind: String { get }
  /// Its categories' titles in order, repeats included (known from the survey).
  var categoryTitles: [String] { get }
  /// How many dittos it offers (known from the survey): what a progress line counts toward.
  var dittoCount: Int { get }
  /// Streams the source to `visit`: each category, then its dittos.
  ///
  /// - Throws: ``ImportFailure/source(_:)`` when the source cannot be read to its end, or what
  ///   `visit` threw.
  func stream(_ visit: (MergeItem) throws(ImportFailure) -> Void) throws(ImportFailure)
}

/// One legacy source held in memory (the keyboard's queued additions, the 1.x list, a CSV file,
/// rows rebuilt by salvage).
package struct MergeSource: MergeSourceStream, Sendable, Equatable {
  /// A short name for reports (`coredata`, `pending`, `v1`, `file`, …); never user content.
  package var kind: String
  /// Categories in the user's order.
  package var categories: [MergeCategory]

  /// A source named `kind` (for reports) holding `categories` in order.
  package init(kind: String, categories: [MergeCategory]) {
    self.kind = kind
    self.categories = categories
  }

  /// Number of dittos over all categories.
  package var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }

  package var categoryTitles: [String] { categories.map(\.title) }

  package func stream(_ visit: (MergeItem) throws(ImportFailure) -> Void) throws(ImportFailure) {
    for category in categories {
      try visit(.category(title: category.title))
      for ditto in category.dittos { try visit(.ditto(ditto)) }
    }
  }
}
