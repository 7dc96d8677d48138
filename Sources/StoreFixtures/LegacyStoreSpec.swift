/// What a synthetic Ditto 2.x store holds, and how its rows are laid out.
///
/// Categories and dittos are listed in user order; the writer turns that order into sparse Core Data
/// order keys and (optionally) shuffles primary keys so that a reader relying on `Z_PK` order fails.
public struct LegacyStoreSpec: Sendable, Equatable {
  /// A ditto row. `text` nil writes NULL (the reader skips it); `useCount` nil writes NULL (reads as 0).
  public struct Ditto: Sendable, Equatable {
    public var text: String?
    public var useCount: Int64?
    /// Explicit order key; nil lets the writer number the list.
    public var orderKey: Int64?
    /// Write NULL as the order key (the reader sorts such rows last).
    public var hasNullOrderKey = false

    public init(text: String?, useCount: Int64? = 0, orderKey: Int64? = nil) {
      self.text = text
      self.useCount = useCount
      self.orderKey = orderKey
    }
  }

  /// A category row with its dittos.
  public struct Category: Sendable, Equatable {
    /// nil writes NULL (the reader shows "Untitled").
    public var title: String?
    public var dittos: [Ditto]
    /// 1-based profile number; nil writes a category without a profile.
    public var profile: Int?
    /// Explicit order key; nil lets the writer number the list.
    public var orderKey: Int64?

    public init(title: String?, dittos: [Ditto] = [], profile: Int? = 1, orderKey: Int64? = nil) {
      self.title = title
      self.dittos = dittos
      self.profile = profile
      self.orderKey = orderKey
    }
  }

  /// How the model's era shows in the file.
  public enum Variant: Sendable, Equatable {
    /// iOS 9+: `Z_MODELCACHE` present, framework 641.
    case ios9
    /// iOS 8: no `Z_MODELCACHE`, framework 519.
    case ios8
  }

  public var categories: [Category]
  /// Dittos whose category is NULL (the reader puts them in "Recovered").
  public var dittosWithoutCategory: [Ditto]
  public var profileCount: Int
  public var variant: Variant
  /// Assign primary keys in a shuffled order (seeded) instead of list order.
  public var shufflesPrimaryKeys: Bool
  /// First order key and step for numbered lists (Core Data appends at 2048, +1024).
  public var firstOrderKey: Int64
  public var orderKeyStep: Int64

  public init(
    categories: [Category], dittosWithoutCategory: [Ditto] = [], profileCount: Int = 1,
    variant: Variant = .ios9, shufflesPrimaryKeys: Bool = true, firstOrderKey: Int64 = 2048,
    orderKeyStep: Int64 = 1024
  ) {
    self.categories = categories
    self.dittosWithoutCategory = dittosWithoutCategory
    self.profileCount = profileCount
    self.variant = variant
    self.shufflesPrimaryKeys = shufflesPrimaryKeys
    self.firstOrderKey = firstOrderKey
    self.orderKeyStep = orderKeyStep
  }

  /// Number of dittos with a non-empty text (what a reader imports).
  public var readableDittoCount: Int {
    (categories.flatMap(\.dittos) + dittosWithoutCategory).filter { !($0.text ?? "").isEmpty }.count
  }
}
