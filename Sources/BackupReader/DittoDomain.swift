/// Which of Ditto's containers a backup domain holds.
package enum DittoDomain: String, Sendable, Equatable, CaseIterable {
  /// `AppDomainGroup-group.io.kern.ditto`: the App Group container (the 2.x store, the shared defaults).
  case appGroup
  /// `AppDomain-io.kern.Ditto` (also spelled `…ditto`, or team-prefixed): the app's own home.
  case app

  /// The App Group container's domain.
  package static let appGroupDomain = "AppDomainGroup-group.io.kern.ditto"
  /// The app's own domain as real backups spell it: the bundle identifier is `io.kern.Ditto`.
  package static let appDomain = "AppDomain-io.kern.Ditto"
  /// The app's bundle identifier as backups may spell it: the real one first.
  static let bundleIdentifiers = ["io.kern.Ditto", "io.kern.ditto"]

  /// The kind of `domain`, or nil when it is not one of Ditto's.
  ///
  /// The App Group domain matches exactly. The app's domain matches as `AppDomain-io.kern.Ditto` (the
  /// bundle identifier, as real backups write it) or `AppDomain-io.kern.ditto`, and team-prefixed
  /// (`AppDomain-ABCDE12345.io.kern.Ditto`: ten capital letters or digits) in either spelling. No other
  /// case variant matches: names are compared as the manifest writes them.
  package static func of(_ domain: String) -> DittoDomain? {
    if domain == appGroupDomain { return .appGroup }
    let prefix = "AppDomain-"
    guard domain.hasPrefix(prefix) else { return nil }
    let rest = domain.utf8.dropFirst(prefix.utf8.count)
    for identifier in bundleIdentifiers {
      if rest.elementsEqual(identifier.utf8) { return .app }
      let suffix = "." + identifier
      guard rest.count == 10 + suffix.utf8.count, rest.dropFirst(10).elementsEqual(suffix.utf8)
      else { continue }
      let isTeamID = rest.prefix(10).allSatisfy {
        ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
          || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
      }
      return isTeamID ? .app : nil
    }
    return nil
  }

  /// True for the app's domain without a team prefix, in either spelling: these are rebuilt into one
  /// folder named ``appDomain``.
  static func isPlainAppDomain(_ domain: String) -> Bool {
    bundleIdentifiers.contains { domain == "AppDomain-" + $0 }
  }

  /// The `LIKE` pattern (matched against `lower(domain)`, so whatever the `case_sensitive_like`
  /// setting) that narrows the manifest query; ``of(_:)`` decides exactly.
  static let likePattern = "%io.kern.ditto"
}
