/// One legacy source an attempt looked at, and what came of it.
public struct LegacySourceReport: Sendable, Equatable {
  /// Which source.
  public enum Kind: String, Sendable, Equatable {
    /// The 2.x Core Data store.
    case coreData
    /// The keyboard's queue of additions in the App Group defaults.
    case pending
    /// 1.x content in the App Group defaults.
    case v1
  }

  public var kind: Kind
  /// The file it lives in (full path).
  public var path: String
  /// Categories and dittos it offered (0 when it could not be read).
  public var categories = 0
  public var dittos = 0
  /// Why it could not be read, when so.
  public var error: String?

  public init(kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }
}
