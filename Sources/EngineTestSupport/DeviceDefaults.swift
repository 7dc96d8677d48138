import Foundation
import LegacyMigration
import LibraryMerge
import PropertyLists

/// The App Group defaults as `UserDefaults(suiteName:)` answers them on a device, for engine tests:
/// before the first unlock, default values (no legacy key, the flag false, the counter 0) whatever
/// is stored; after it, what is stored. Every call is recorded.
package final class DeviceDefaults: MigrationFlagStore, LegacyDefaultsSource, @unchecked Sendable {
  /// One call made to the defaults, in order.
  package enum Call: Equatable, Sendable {
    case readFlags
    case writeFlags(MigrationFlags)
    case legacyValues
  }

  private let lock = NSLock()
  private var unlocked: Bool
  private var stored: [String: PropertyListValue]
  private var flags: MigrationFlags
  private var recorded: [Call] = []

  /// Defaults holding `stored` (legacy keys and anything else) and `flags`, read as a device
  /// `unlocked` or not yet unlocked since its reboot.
  package init(
    unlocked: Bool, stored: [String: PropertyListValue] = [:],
    flags: MigrationFlags = MigrationFlags()
  ) {
    self.unlocked = unlocked
    self.stored = stored
    self.flags = flags
  }

  /// The first unlock: from now on the stored values are answered.
  package func unlock() { locked { unlocked = true } }

  /// Every call so far.
  package var calls: [Call] { locked { recorded } }

  /// The flags written so far, in order.
  package var writes: [MigrationFlags] {
    calls.compactMap {
      if case .writeFlags(let flags) = $0 { return flags }
      return nil
    }
  }

  /// The flags as stored (whatever a locked device would answer).
  package var storedFlags: MigrationFlags { locked { flags } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  package func readFlags() throws(FlagStoreError) -> MigrationFlags {
    locked {
      recorded.append(.readFlags)
      return unlocked ? flags : MigrationFlags()
    }
  }

  package func writeFlags(_ flags: MigrationFlags) throws(FlagStoreError) {
    locked {
      recorded.append(.writeFlags(flags))
      self.flags = flags
    }
  }

  package var legacySourceName: String { "UserDefaults(group.io.kern.ditto)" }

  package func legacyValues() throws(DefaultsError) -> [String: PropertyListValue]? {
    locked {
      recorded.append(.legacyValues)
      guard unlocked else { return nil }
      let values = stored.filter { DefaultsLegacyContent.keys.contains($0.key) }
      return values.isEmpty ? nil : values
    }
  }
}
