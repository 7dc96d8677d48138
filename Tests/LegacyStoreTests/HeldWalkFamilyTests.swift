import EngineTestSupport
import Foundation
import LegacyStore
import SQLiteDB
import StoreFixtures
import Testing

/// A small store is read from its snapshot once: the survey's count holds its rows and the walk
/// that follows replays them. The replay is the walk SQLite gives, item for item and count for
/// count, over a family of stores (orphans, NULL and repeated order keys, NULL and empty texts,
/// categories without a profile, several profiles, empty categories); a store past the budget,
/// or one whose order keys are not integers, is walked by SQLite again.
@Suite struct HeldWalkFamilyTests {
  static func spec(seed: UInt64) -> LegacyStoreSpec {
    var generator = SeededGenerator(seed: FamilySeed.base(0x4E1D) &+ seed)
    func ditto(_ index: Int) -> LegacyStoreSpec.Ditto {
      let texts: [String?] = [
        nil, "", "same", "ditto \(index)", "naïve \(index % 3)", "日本 \(index)",
      ]
      var ditto = LegacyStoreSpec.Ditto(
        text: texts.randomElement(using: &generator)!,
        useCount: Bool.random(using: &generator) ? Int64.random(in: 0...9, using: &generator) : nil)
      switch Int.random(in: 0..<6, using: &generator) {
      case 0: ditto.hasNullOrderKey = true
      case 1: ditto.orderKey = Int64.random(in: 0...3, using: &generator)  // repeated keys
      case 2:
        // Keys of either sign, the extremes included (the replay sorts them as SQLite does).
        ditto.orderKey = [
          Int64.min, -1, Int64.max, Int64.random(in: .min ... .max, using: &generator),
        ]
        .randomElement(using: &generator)!
      default: break
      }
      return ditto
    }
    let categories = (0..<Int.random(in: 0...6, using: &generator)).map { index in
      LegacyStoreSpec.Category(
        title: Bool.random(using: &generator) ? "title \(index % 3)" : nil,
        dittos: (0..<Int.random(in: 0...12, using: &generator)).map(ditto),
        profile: [nil, 1, 2].randomElement(using: &generator)!)
    }
    return LegacyStoreSpec(
      categories: categories,
      dittosWithoutCategory: (0..<Int.random(in: 0...4, using: &generator)).map(ditto),
      profileCount: 2)
  }

  /// The three readings of the store at `path`, each on the same snapshot: the survey's pass
  /// (`count()`), the walk that replays what it held, and a fresh reader's walk through SQLite.
  /// Expects the replay and SQLite's walk to be the same, item for item and count for count.
  ///
  /// - Returns: the survey's counts, the replayed items, and the titles the survey's reader plans.
  @discardableResult
  static func expectReplayIsSQLitesWalk(_ path: String, _ label: String) throws -> (
    summary: LegacyReadSummary, items: [String], titles: [String]
  )? {
    try CoreDataStore.withSnapshot(of: path) {
      store throws(LegacyStoreError) -> (LegacyReadSummary, [String], [String])? in
      do {
        let counted = try LegacyStoreReader(store: store)
        let summary = try counted.count()
        let replayed = try WalkTranscript.of(counted)
        let walked = try WalkTranscript.of(try LegacyStoreReader(store: store))
        #expect(replayed.0 == walked.0, "\(label)")
        #expect(replayed.1 == walked.1, "\(label)")
        #expect(summary == walked.1, "\(label)")
        return (summary, replayed.0, try counted.categoryTitles())
      } catch let error as LegacyStoreError {
        throw error
      } catch {
        Issue.record("\(label): \(error)")
        return nil
      }
    }
  }

  @Test func theReplayIsTheWalkSQLiteGives() throws {
    for seed in 0..<UInt64(40) {
      let folder = try TemporaryDirectory("held")
      let path = folder.appending("Ditto.sqlite")
      try LegacyStoreWriter.write(
        Self.spec(seed: seed), to: path, seed: FamilySeed.base(0x4E1D) &+ seed)
      try Self.expectReplayIsSQLitesWalk(path, "seed \(seed)")
    }
  }

  /// Past the budget the rows are not held: the walk is SQLite's again, with the same result.
  @Test func aStorePastTheBudgetIsWalkedAgain() throws {
    let folder = try TemporaryDirectory("held-large")
    let path = folder.appending("Ditto.sqlite")
    let long = String(repeating: "x", count: 4_096)
    let count = LegacyStoreReader.heldTextBudget / long.utf8.count + 10
    let spec = LegacyStoreSpec(categories: [
      LegacyStoreSpec.Category(
        title: "big", dittos: (0..<count).map { .init(text: "\($0) " + long) })
    ])
    try LegacyStoreWriter.write(spec, to: path)
    try CoreDataStore.withSnapshot(of: path) { store throws(LegacyStoreError) in
      do {
        let reader = try LegacyStoreReader(store: store)
        #expect(try reader.count().dittos == count)
        let walked = try WalkTranscript.of(reader)
        #expect(walked.1.dittos == count)
        #expect(walked.0.count == count + 1)
      } catch let error as LegacyStoreError {
        throw error
      } catch {
        Issue.record("\(error)")
      }
    }
  }

  /// Dittos without a category whose texts are all NULL or empty: no `Recovered` category, and
  /// their empty texts are not the walk's to skip, counted or walked (the survey's pass reads them
  /// all the same, and must come to the same answer).
  @Test func orphansWithoutTextPlanNoRecoveredCategory() throws {
    let folder = try TemporaryDirectory("held-orphans")
    let path = folder.appending("Ditto.sqlite")
    let spec = LegacyStoreSpec(
      categories: [.init(title: "kept", dittos: [.init(text: "a"), .init(text: "")])],
      dittosWithoutCategory: [.init(text: nil), .init(text: ""), .init(text: "")])
    try LegacyStoreWriter.write(spec, to: path)
    let read = try #require(try Self.expectReplayIsSQLitesWalk(path, "orphans without text"))
    #expect(read.summary.categories == 1)
    #expect(read.summary.dittos == 1)
    #expect(read.summary.skippedEmptyTexts == 1)
    #expect(read.titles == ["kept"])
    #expect(read.items == ["category kept profile(1)", "ditto a 0"])
  }

  /// Texts SQLite does not store as text, without a category: a zero-length blob is empty (skipped,
  /// and no `Recovered` for it), a blob of one NUL byte and a number are texts. The survey's pass,
  /// its replay and SQLite's own walk agree on each.
  @Test(arguments: ["x''", "x'00'", "42", "''"])
  func anOrphanWhoseTextIsNotTextIsReadAlikeByEveryPass(value: String) throws {
    let folder = try TemporaryDirectory("held-odd-text")
    let path = folder.appending("Ditto.sqlite")
    let spec = LegacyStoreSpec(
      categories: [.init(title: "kept", dittos: [.init(text: "a")])],
      dittosWithoutCategory: [.init(text: "orphan")])
    try LegacyStoreWriter.write(spec, to: path, journal: .delete)
    let database = try Database(path: path, mode: .readWrite)
    try database.execute(sql: "UPDATE ZDITTO SET ZTEXT = \(value) WHERE ZCATEGORY IS NULL")
    try database.close()
    let read = try #require(try Self.expectReplayIsSQLitesWalk(path, value))
    #expect(read.titles == (value == "x''" || value == "''" ? ["kept"] : ["kept", "Recovered"]))
  }
}
