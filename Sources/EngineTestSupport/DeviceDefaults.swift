import Foundation
import LegacyMigration
import LibraryMerge

/// The App Group defaults as `UserDefaults(suiteName:)` answers them on a device, for engine tests:
/// before the first unlock, default values (no legacy key, the flag false, the counter 0) whatever
/// is stored; after it, what is stored. Every call is recorded.
public final class DeviceDefaults: MigrationFlagStore, LegacyDefaultsSource, @unchecked Sendable {
  /// One call made to the defaults, in order.
  public enum Call: Equatable, Sendable {
    case readFlags
    case writeFlags(MigrationFlags)
    case legacyValues
  }

  private let lock = NSLock()
  private var unlocked: Bool
  private var stored: [String: Any]
  private var flags: MigrationFlags
  private var recorded: [Call] = []

  /// Defaults holding `stored` (legacy keys and anything else) and `flags`, read as a device
  /// `unlocked` or not yet unlocked since its reboot.
  public init(unlocked: Bool, stored: [String: Any] = [:], flags: MigrationFlags = MigrationFlags())
  {
    self.unlocked = unlocked
    self.stored = stored
    self.flags = flags
  }

  /// The first unlock: from now on the stored values are answered.
  public func unlock() { locked { unlocked = true } }

  /// Every call so far.
  public var calls: [Call] { locked { recorded } }

  /// The flags written so far, in order.
  public var writes: [MigrationFlags] {
    calls.compactMap {
      if case .writeFlags(let flags) = $0 { return flags }
      return nil
    }
  }

  /// The flags as stored (whatever a locked device would answer).
  public var storedFlags: MigrationFlags { locked { flags } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  public func readFlags() throws(FlagStoreError) -> MigrationFlags {
    locked {
      recorded.append(.readFlags)
      return unlocked ? flags : MigrationFlags()
    }
  }

  public func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    locked {
      recorded.append(.writeFlags(flags))
      self.flags = flags
    }
  }

  public var legacySourceName: String { "UserDefaults(group.io.kern.ditto)" }

  public func legacyValues() throws(DefaultsError) -> [String: Any]? {
    locked {
      recorded.append(.legacyValues)
      guard unlocked else { return nil }
      let values = stored.filter { DefaultsLegacyContent.keys.contains($0.key) }
      return values.isEmpty ? nil : values
    }
  }
}
