#if canImport(UIKit) && canImport(SwiftData)
  // BEGIN EMBEDDING.md app
  import Foundation
  import LegacyMigration
  import SwiftData
  import Telemetry
  import UIKit

  /// The app's library and its migrator, made once at launch (in the `App`'s `init()`).
  @MainActor
  final class AppEngine {
    let container: ModelContainer
    let migrator: LegacyDataMigrator
    private let protectedData = ProtectedDataGate()

    init() throws {
      let groupURL = FileManager.default.containerURL(
        forSecurityApplicationGroupIdentifier: "group.io.kern.ditto")!
      let configuration = ModelConfiguration(
        "Ditto", schema: Schema([Profile.self, DittoCategory.self, DittoItem.self]),
        url: groupURL.appendingPathComponent("Ditto.store"))
      container = try ModelContainer(
        for: Profile.self, DittoCategory.self, DittoItem.self, configurations: configuration)
      let defaults = UserDefaultsStore(suiteName: "group.io.kern.ditto")!
      let logger = EngineLogger.legacyDataMigrator(handler: OSLogHandler())
      migrator = LegacyDataMigrator(
        layout: ContainerLayout(container: groupURL.path, home: NSHomeDirectory()),
        destination: SwiftDataDestination(container: container), defaults: defaults,
        logger: logger)
    }

    /// From the first scene's `.task`: waits for the first unlock after a reboot, migrates off the
    /// main actor, then creates the presets, only once the migration settled.
    func launch() async {
      await protectedData.waitUntilAvailable()
      let launch = await migrator.migrateIfNeeded(
        protectedDataAvailable: UIApplication.shared.isProtectedDataAvailable)
      if launch.isSettled {
        createPresetsIfThereIsNoProfile(in: container.mainContext)
      }
    }
  }

  /// Waits until files of the default protection class can be read: before the first unlock
  /// after a reboot (a prewarmed launch, a Live Activity) they cannot, and `UserDefaults` answers
  /// defaults.
  @MainActor
  final class ProtectedDataGate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var observer: (any NSObjectProtocol)?

    func waitUntilAvailable() async {
      if UIApplication.shared.isProtectedDataAvailable { return }
      if observer == nil {
        observer = NotificationCenter.default.addObserver(
          forName: UIApplication.protectedDataDidBecomeAvailableNotification, object: nil,
          queue: .main
        ) { [weak self] _ in
          MainActor.assumeIsolated { self?.resumeAll() }
        }
      }
      await withCheckedContinuation { waiting.append($0) }
    }

    private func resumeAll() {
      if let observer { NotificationCenter.default.removeObserver(observer) }
      observer = nil
      let resumed = waiting
      waiting = []
      for continuation in resumed { continuation.resume() }
    }
  }
// END EMBEDDING.md app
#endif
