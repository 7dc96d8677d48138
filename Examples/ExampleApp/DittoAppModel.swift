// BEGIN EMBEDDING.md model
import Foundation
import LegacyMigration
import LibraryMerge
import Telemetry

/// What the launch needs of the app's library: its presets, created only when it holds no Profile
/// (a migrated 2.x library already has one). SwiftData's library in the app, ``ExampleLibrary`` in
/// this package's tests.
public protocol PresetCreating: Sendable {
  /// Creates the presets when the library holds no Profile; true when it did.
  @discardableResult func createPresetsIfThereIsNoProfile() -> Bool
}

/// What the Ditto app does with the engine, as `docs/EMBEDDING.md` tells an app developer (its
/// platform-neutral blocks are this file, in order): the launch, the "Recover Old Dittos" menu
/// item and its alert, a recovery file opened from Files or AirDrop.
public final class DittoAppModel: Sendable {
  /// The engine (made with the app's destination, flag store and logger).
  public let migrator: LegacyDataMigrator
  /// The app's library.
  public let library: any PresetCreating

  /// The app's model over `migrator` and `library`.
  public init(migrator: LegacyDataMigrator, library: any PresetCreating) {
    self.migrator = migrator
    self.library = library
  }
  // END EMBEDDING.md model

  /// The example's model: the engine over the in-memory ``ExampleLibrary`` (its destination), for
  /// the container at `container` and the home at `home`.
  public convenience init(
    container: String, home: String?, library: ExampleLibrary,
    defaults: some MigrationFlagStore & LegacyDefaultsSource, logger: EngineLogger
  ) {
    self.init(
      migrator: LegacyDataMigrator(
        layout: ContainerLayout(container: container, home: home),
        destination: ExampleDestination(library: library), defaults: defaults, logger: logger),
      library: library)
  }

  // BEGIN EMBEDDING.md launch
  /// At launch, once the library exists: the migration, then the presets, and the presets only
  /// once the migration settled (created while old categories may still arrive, they would come
  /// first).
  public func launch(protectedDataAvailable: Bool) async -> LegacyDataMigrator.AutomaticMigration {
    let launch = await migrator.migrateIfNeeded(protectedDataAvailable: protectedDataAvailable)
    if launch.isSettled {
      library.createPresetsIfThereIsNoProfile()  // a migrated 2.x library already has a Profile
    }
    return launch
  }
  // END EMBEDDING.md launch

  // BEGIN EMBEDDING.md menu
  /// Whether the menu shows "Recover Old Dittos": any legacy file, even one that cannot be read.
  /// Cheap: it reads no store.
  public var showsRecoverOldDittos: Bool { migrator.hasRecoverableLegacyData() }

  /// How many dittos "Recover Old Dittos" would bring now, for the menu item's title: counted by
  /// the engine against the library and across every old store, so the tap then brings exactly
  /// this many; nil when it cannot be known (show the item without a number).
  public func dittosToRecover() async -> Int? {
    await migrator.dittosToRecover()
  }

  /// "Recover Old Dittos": every old store that reads, duplicates skipped; the alert to show.
  public func recoverOldDittos() async -> RecoveryAlert {
    RecoveryAlert(await migrator.recoverNow())
  }

  /// A recovery file the user opened: first the count to confirm (nothing written), then the import.
  public func previewRecoveryFile(_ url: URL) async -> String {
    let preview = await migrator.recoverNow(from: url, dryRun: true)
    return preview.outcome == .foundUnreadable
      ? RecoveryAlert(preview).text : preview.previewMessage
  }

  /// Imports the recovery file the user confirmed.
  public func importRecoveryFile(_ url: URL) async -> RecoveryAlert {
    RecoveryAlert(await migrator.recoverNow(from: url))
  }
}
// END EMBEDDING.md menu

// BEGIN EMBEDDING.md alert
/// The alert after "Recover Old Dittos", in the user's language: the seed's sentence, and for what
/// could not be read or saved, a second one in words (the file's name, what to do when it is "not
/// now"). Each comes with a stable key; English is the default value.
public struct RecoveryAlert: Sendable, Equatable {
  /// The seed's sentence (`RecoveryResult.message`, localized).
  public let message: String
  /// Why nothing (or not everything) was read or saved, when so (`RecoveryDetail`, localized).
  public let detail: String?
  /// True when trying again later may bring more (unlock the iPhone, free space, wait).
  public let isTransient: Bool

  public init(_ report: MigrationReport, bundle: Bundle = .main) {
    let result = report.recoveryResult
    let format = bundle.localizedString(
      forKey: result.messageKey, value: result.englishFormat, table: "Recovery")
    message = format.replacingOccurrences(of: "%ld", with: String(result.count ?? 0))
    if let detail = report.detail, result.detail != nil {
      let format = bundle.localizedString(
        forKey: detail.key, value: detail.englishFormat, table: "Recovery")
      self.detail = format.replacingOccurrences(of: "%@", with: detail.fileName ?? "")
    } else {
      self.detail = nil
    }
    isTransient = report.isTransient
  }

  /// The alert's text: the sentence, a blank line, the detail.
  public var text: String { detail.map { message + "\n\n" + $0 } ?? message }
}
// END EMBEDDING.md alert
