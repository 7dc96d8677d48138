/// Which of Ditto's containers a backup domain holds.
public enum DittoDomain: String, Sendable, Equatable, CaseIterable {
  /// `AppDomainGroup-group.io.kern.ditto`: the App Group container (the 2.x store, the shared defaults).
  case appGroup
  /// `AppDomain-io.kern.ditto` (or a team-prefixed variant): the app's own home.
  case app

  /// The App Group container's domain.
  public static let appGroupDomain = "AppDomainGroup-group.io.kern.ditto"
  /// The app's own domain.
  public static let appDomain = "AppDomain-io.kern.ditto"

  /// The kind of `domain`, or nil when it is not one of Ditto's.
  ///
  /// Exact names match; so does a team-prefixed app domain (`AppDomain-ABCDE12345.io.kern.ditto`: ten
  /// letters or digits), which some apps show in backups. Case matters, as in the manifest.
  public static func of(_ domain: String) -> DittoDomain? {
    if domain == appGroupDomain { return .appGroup }
    if domain == appDomain { return .app }
    let prefix = "AppDomain-"
    let suffix = ".io.kern.ditto"
    guard domain.hasPrefix(prefix), domain.hasSuffix(suffix) else { return nil }
    let team = domain.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
    let isTeamID =
      team.count == 10
      && team.allSatisfy {
        ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
          || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
      }
    return isTeamID ? .app : nil
  }

  /// The `LIKE` pattern that narrows the manifest query; ``of(_:)`` decides exactly.
  static let likePattern = "%io.kern.ditto"
}
