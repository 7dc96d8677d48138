#if canImport(SwiftData)
  import DittoStore
  import EngineTestSupport
  import ExampleApp
  import Foundation
  import LegacyMigration
  import LibraryMerge
  import SwiftData
  import Telemetry
  import Testing

  /// What only a machine with SwiftData can show: a store SwiftData made and reopens accepts what
  /// `DittoStoreDestination` inserts into it, and the app's own destination migrates a 2.x store.
  /// (Compiled only where SwiftData exists; on Linux this target is empty.)
  @MainActor @Suite struct SwiftDataStoreTests {
    static func configuration(_ url: URL) -> ModelConfiguration {
      ModelConfiguration("Ditto", schema: AppSchema.current, url: url, cloudKitDatabase: .none)
    }

    /// Creates `Ditto.store` as the app does at first launch (nothing in it) and lets go of it.
    static func makeEmptyStore(at url: URL) throws {
      try autoreleasepool {
        let container = try ModelContainer(
          for: AppSchema.current, configurations: [configuration(url)])
        try ModelContext(container).save()
      }
    }

    static let sources = [
      MergeSource(
        kind: "coredata",
        categories: [
          MergeCategory(
            title: "Work",
            dittos: [
              MergeDitto(text: "Running late", useCount: 12), MergeDitto(text: "Thanks,\nSam"),
            ]),
          MergeCategory(title: "Family ❤️", dittos: [MergeDitto(text: "On my way 🚗", useCount: 3)]),
          MergeCategory(title: "Empty"),
        ])
    ]

    /// The library as SwiftData reads it: (title, [(text, useCount)]) in display order, after
    /// checking that every object hangs off the one Profile.
    static func read(_ context: ModelContext) throws -> [(String, [(String, Int)])] {
      let profiles = try context.fetch(FetchDescriptor<Profile>())
      #expect(profiles.count == 1)
      let profile = try #require(profiles.first)
      let categories = (profile.categories ?? []).sorted { $0.sortOrder < $1.sortOrder }
      #expect(categories.allSatisfy { $0.profile?.persistentModelID == profile.persistentModelID })
      var result: [(String, [(String, Int)])] = []
      for category in categories {
        let items = (category.dittos ?? []).sorted { $0.sortOrder < $1.sortOrder }
        #expect(
          items.allSatisfy { $0.category?.persistentModelID == category.persistentModelID })
        result.append((category.title, items.map { ($0.text, $0.useCount) }))
      }
      let allItems = try context.fetch(FetchDescriptor<DittoItem>())
      #expect(allItems.count == result.reduce(0) { $0 + $1.1.count }, "no orphaned item")
      return result
    }

    @Test func aStoreSwiftDataMadeReopensWithWhatDittoStoreDestinationInserted() throws {
      let folder = try TemporaryDirectory("swiftdata-store")
      let url = URL(fileURLWithPath: folder.appending("Ditto.store"))
      try Self.makeEmptyStore(at: url)

      let destination = DittoStoreDestination(path: url.path)
      let plan = try destination.applyImport { (session) throws(ImportFailure) in
        try LibraryMerger.merge(Self.sources, into: session)
      }
      #expect(plan.createsProfile)
      #expect(plan.counts.inserted == 3)

      try autoreleasepool {
        let container = try ModelContainer(
          for: AppSchema.current, configurations: [Self.configuration(url)])
        let context = ModelContext(container)
        let library = try Self.read(context)
        #expect(library.map(\.0) == ["Work", "Family ❤️", "Empty"])
        #expect(library[0].1.map(\.0) == ["Running late", "Thanks,\nSam"])
        #expect(library[0].1.map(\.1) == [12, 0])
        #expect(library[1].1.map(\.0) == ["On my way 🚗"])
        #expect(library[1].1.map(\.1) == [3])
        #expect(library[2].1.isEmpty)

        // SwiftData keeps writing the store: new keys come after ours (Z_MAX was raised).
        let work = try #require(
          try context.fetch(FetchDescriptor<DittoCategory>()).first { $0.title == "Work" })
        let added = DittoItem(
          text: "Added in the app", useCount: 0, sortOrder: 2, modifiedAt: Date())
        context.insert(added)
        added.category = work
        try context.save()
      }
      try autoreleasepool {
        let container = try ModelContainer(
          for: AppSchema.current, configurations: [Self.configuration(url)])
        let library = try Self.read(ModelContext(container))
        #expect(library[0].1.map(\.0) == ["Running late", "Thanks,\nSam", "Added in the app"])
      }
      // A second import of the same sources inserts nothing.
      let again = try destination.applyImport { (session) throws(ImportFailure) in
        try LibraryMerger.merge(Self.sources, into: session)
      }
      #expect(again.counts.inserted == 0)
    }

    @Test func aTwoXStoreMigratesThroughTheAppsOwnDestination() async throws {
      let folder = try TemporaryDirectory("swiftdata-migrate")
      let group = folder.appending("group.io.kern.ditto")
      try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true)
      let legacy = group + "/Ditto.sqlite"
      try FileManager.default.copyItem(
        atPath: try TestFixtures.path("ditto-2x/intact/Ditto.sqlite"), toPath: legacy)
      let before = try Data(contentsOf: URL(fileURLWithPath: legacy))
      let expected = try TestFixtures.expected("intact")

      let url = URL(fileURLWithPath: group + "/Ditto.store")
      let container = try ModelContainer(
        for: AppSchema.current, configurations: [Self.configuration(url)])
      let flags = InMemoryFlagStore()
      let migrator = LegacyDataMigrator(
        layout: ContainerLayout(container: group),
        destination: SwiftDataDestination(container: container),
        flags: flags, legacyDefaults: nil, logger: .disabled)
      let launch = await migrator.migrateIfNeeded(protectedDataAvailable: true)
      let report = try #require(launch.report, "the first launch must attempt the migration")
      #expect(report.outcome == .success)
      #expect(launch.isSettled)
      #expect(report.counts.inserted == expected.reduce(0) { $0 + $1.dittos.count })
      #expect(flags.flags.isComplete)
      // The main context sees what the migration's own context saved.
      let library = try Self.read(container.mainContext)
      #expect(library.map(\.0) == expected.map(\.title))
      for (read, wanted) in zip(library, expected) {
        #expect(read.1.map(\.0) == wanted.dittos.map(\.text))
        #expect(read.1.map { Int64($0.1) } == wanted.dittos.map(\.useCount))
      }
      // The presets wait for a settled launch, and a migrated library has its Profile already.
      createPresetsIfThereIsNoProfile(in: container.mainContext)
      #expect(try Self.read(container.mainContext).map(\.0) == expected.map(\.title))
      // "Recover Old Dittos" afterwards: everything is already there.
      #expect(await migrator.recoverNow().outcome == .noNewData)
      #expect(try Data(contentsOf: URL(fileURLWithPath: legacy)) == before)
    }
  }
#endif
