import EngineTestSupport
import ExampleApp
import Foundation
import StoreFixtures
import Testing

/// The menu's number ("Recover Old Dittos (N)") is the engine's answer: what the tap then brings,
/// in every layout (one store copied to two places, stores that overlap, disjoint stores, dittos
/// already in the library), before any launch, after a launch and a relaunch, and after the tap.
@Suite struct MenuNumberTests {
  static let main = FixtureContent.make(categories: 2, dittosPerCategory: 7, seed: 61)
  static let disjoint = FixtureContent.make(categories: 1, dittosPerCategory: 5, seed: 62)

  enum Layout: String, CaseIterable, Sendable {
    /// The same store in the App Group and in the app's Documents (a partial cleanup).
    case copiesOfOneStore
    /// The App Group's store and another holding the same dittos and 5 more.
    case overlappingStores
    /// The App Group's store and another holding other dittos.
    case disjointStores
  }

  static func device(_ layout: Layout) throws -> Device {
    let device = try Device("menu-\(layout.rawValue)")
    try device.builder.writeStore(main)
    switch layout {
    case .copiesOfOneStore:
      try ContainerBuilder(root: device.home).writeStore(main, at: "Documents/Ditto.sqlite")
    case .overlappingStores:
      var both = main
      both.categories += disjoint.categories
      try device.builder.writeStore(both, at: "Library/Application Support/Ditto.sqlite")
    case .disjointStores:
      try device.builder.writeStore(disjoint, at: "Library/Application Support/Ditto.sqlite")
    }
    try device.recordFiles()
    return device
  }

  /// The number, then the tap: the tap brings exactly the number.
  static func numberThenTap(_ device: Device, _ context: String) async throws -> Int {
    let number = try #require(await device.app.dittosToRecover(), "\(context): no number")
    let before = device.dittoCount
    _ = await device.app.recoverOldDittos()
    #expect(device.dittoCount - before == number, "\(context): the tap brought another number")
    return number
  }

  @Test(arguments: Layout.allCases, [false, true])
  func theNumberIsWhatTheTapBrings(layout: Layout, launchedFirst: Bool) async throws {
    let device = try Self.device(layout)
    if launchedFirst {
      let launch = await device.app.launch(protectedDataAvailable: true)
      #expect(launch.report?.outcome == .success)
    }
    // A relaunch: a new app model, nothing carried over but the files and the library.
    let number = try await Self.numberThenTap(device, "\(layout), launched: \(launchedFirst)")
    let expected: Int =
      switch (layout, launchedFirst) {
      // The launch imports the store holding the most dittos: a copy, or the larger store.
      case (.copiesOfOneStore, true), (.overlappingStores, true): 0
      case (.copiesOfOneStore, false): 14
      case (.disjointStores, true): 5
      case (.overlappingStores, false), (.disjointStores, false): 19
      }
    #expect(number == expected, "\(layout), launched: \(launchedFirst)")
    // After the tap, the dittos are all in the library: nothing more to bring.
    #expect(try await Self.numberThenTap(device, "\(layout), after the tap") == 0)
    try device.assertLegacyFilesUnchanged()
  }
}
