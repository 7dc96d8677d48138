import EngineTestSupport
import Foundation
import LegacyMigration
import LegacyStore
import StoreFixtures
import Testing

/// A `-wal` is applied only to its own database: beside a main file, another store's `-wal` (its own
/// Core Data store UUID; a copy or a restore put it there) is named as foreign with what it would
/// make of the store, and nothing of it is imported: the store is read as its main file alone.
/// Over a family of sizes and seeds; the legacy files keep their bytes.
@Suite struct ForeignWALTests {
  struct Member {
    let own: LegacyStoreSpec
    let other: LegacyStoreSpec
    let seed: UInt64
  }

  static func members() -> [Member] {
    var generator = SeededGenerator(seed: 0xF0E1)
    return (0..<8).map { index in
      Member(
        own: FixtureContent.make(
          categories: Int.random(in: 1...4, using: &generator),
          dittosPerCategory: Int.random(in: 1...12, using: &generator), seed: 100 + UInt64(index)),
        other: FixtureContent.make(
          categories: Int.random(in: 1...4, using: &generator),
          dittosPerCategory: Int.random(in: 1...12, using: &generator), seed: 900 + UInt64(index)),
        seed: UInt64(index))
    }
  }

  /// A container whose `Ditto.sqlite` is `own` (checkpointed) with `other`'s `-wal` beside it.
  static func container(_ member: Member) throws -> MigrationHarness {
    let harness = try MigrationHarness("foreign-wal")
    let main = harness.layout.container + "/Ditto.sqlite"
    try LegacyStoreWriter.write(member.own, to: main, journal: .walCheckpointed, seed: member.seed)
    let elsewhere = try TemporaryDirectory("foreign-wal-other")
    let other = elsewhere.appending("Ditto.sqlite")
    try LegacyStoreWriter.write(member.other, to: other, journal: .walOnly, seed: member.seed + 77)
    try? FileManager.default.removeItem(atPath: main + "-wal")
    try? FileManager.default.removeItem(atPath: main + "-shm")
    try FileManager.default.copyItem(atPath: other + "-wal", toPath: main + "-wal")
    try harness.recordFiles()
    return harness
  }

  @Test func anotherStoresWALIsNamedAndNothingOfItIsImported() throws {
    for member in Self.members() {
      let harness = try Self.container(member)
      let expectedOwn = member.own.readableDittoCount
      let survey = harness.makeMigrator().surveyBlocking(.contents)
      let store = try #require(survey.stores.first { $0.candidate.relativePath == "Ditto.sqlite" })
      #expect(
        store.dittos == expectedOwn, "seed \(member.seed): \(String(describing: store.content))")
      #expect(store.foreignWAL != nil, "seed \(member.seed): the foreign -wal was not named")
      let report = harness.makeMigrator().recoverNowBlocking()
      #expect(report.counts.inserted == expectedOwn, "seed \(member.seed)")
      let imported = Set(try harness.libraryContents().flatMap(\.1))
      let foreignTexts = Set(member.other.categories.flatMap(\.dittos).compactMap(\.text))
        .subtracting(member.own.categories.flatMap(\.dittos).compactMap(\.text))
      #expect(
        imported.isDisjoint(with: foreignTexts), "seed \(member.seed): foreign dittos imported")
      #expect(
        harness.log.lines().contains { $0.contains("its -wal belongs to another store") },
        "seed \(member.seed)")
      #expect(try harness.changedFiles().isEmpty, "seed \(member.seed)")
    }
  }

  /// A store's own `-wal` is applied as always (the check never takes a store's own for foreign).
  @Test func aStoresOwnWALIsApplied() throws {
    let harness = try MigrationHarness("own-wal")
    let spec = FixtureContent.make(categories: 3, dittosPerCategory: 5, seed: 5)
    try harness.builder.writeStore(spec, journal: .walOnly)
    let survey = harness.makeMigrator().surveyBlocking(.contents)
    let store = try #require(survey.stores.first)
    #expect(store.dittos == spec.readableDittoCount)
    #expect(store.foreignWAL == nil)
  }
}
