/// One ditto offered by a legacy source: its text and its use count.
public struct MergeDitto: Sendable, Equatable, Hashable {
  public var text: String
  public var useCount: Int64

  public init(text: String, useCount: Int64 = 0) {
    self.text = text
    self.useCount = useCount
  }
}

/// One category offered by a legacy source, its dittos in the user's order.
public struct MergeCategory: Sendable, Equatable {
  public var title: String
  public var dittos: [MergeDitto]

  public init(title: String, dittos: [MergeDitto] = []) {
    self.title = title
    self.dittos = dittos
  }
}

/// One legacy source of an attempt (the 2.x store, the keyboard's queued additions, the 1.x list),
/// read in full before anything is planned.
public struct MergeSource: Sendable, Equatable {
  /// A short name for reports (`coredata`, `pending`, `v1`, `file`, …); never user content.
  public var kind: String
  /// Categories in the user's order.
  public var categories: [MergeCategory]

  public init(kind: String, categories: [MergeCategory]) {
    self.kind = kind
    self.categories = categories
  }

  /// Number of dittos over all categories.
  public var dittoCount: Int { categories.reduce(0) { $0 + $1.dittos.count } }
}
