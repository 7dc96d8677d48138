/// The App Group defaults keys of 3.0.2's flags, wherever a flag store keeps them.
///
/// A custom `MigrationFlagStore` keeps exactly these two keys (a Boolean and an integer) and writes
/// a key only when its value changes; the flags of 3.0.0 and 3.0.1 are never read.
public enum MigrationFlagKeys {
  /// 3.0.2's completion flag.
  public static let completion = "legacyCoreDataMigrationComplete_v302"
  /// 3.0.2's count of automatic attempts that ended in `found_unreadable`.
  public static let attempts = "legacyCoreDataMigrationAttempts_v302"
  /// Flags of 3.0.0 and 3.0.1: read by nobody, so a device that ran them retries with 3.0.2.
  public static let ignoredEarlier = [
    "legacyCoreDataMigrationComplete", "legacyUserDefaultsMigrationComplete",
  ]
}
