import LegacyStore
import LibraryMerge
import SQLiteDB

/// The recovery file as the merge's destination: a new, empty 2.x-layout library (see
/// RecoveryFileInfo.swift for the layout) whose rows are written as the sources stream by.
final class RecoveryFileSession: ImportSession, MergeProgressReporting {
  let outline = LibraryOutline.empty
  let facts = LibraryFacts()
  /// Categories and dittos written so far (their keys run from 1).
  private(set) var categoryCount: Int64 = 0
  private(set) var dittoCount: Int64 = 0
  /// What was written, category by category, for the read-back check.
  private(set) var content = ContentDigest()
  private let insertCategory: Statement
  private let insertDitto: Statement
  /// Told how far the merge has gone (a progress line), when set.
  var onProgress: ((MergeProgress) -> Void)?

  init(database: Database) throws(SQLiteError) {
    let (profile, category, ditto) = (
      LegacySchema.profile, LegacySchema.category, LegacySchema.ditto
    )
    try database.execute(
      sql:
        "INSERT INTO \(profile.name) (\(profile.columnList)) VALUES (1, \(profile.entityNumber), 1)"
    )
    insertCategory = try database.makeStatement(
      sql:
        "INSERT INTO \(category.name) (\(category.columnList)) VALUES (?, \(category.entityNumber), 1, 1, ?, ?)"
    )
    insertDitto = try database.makeStatement(
      sql:
        "INSERT INTO \(ditto.name) (\(ditto.columnList)) VALUES (?, \(ditto.entityNumber), 1, ?, ?, ?, ?)"
    )
  }

  /// A new file holds nothing: no text was there before.
  func heldBeforeImport(_ text: String, in category: CategoryID) -> Bool { false }

  func insertCategory(title: String, sortOrder: Int64) throws(DestinationError) -> CategoryID {
    let key = categoryCount + 1
    do {
      try insertCategory.bind(
        .integer(key), .integer(key * RecoveryFileWriter.orderStep), .text(title))
      try insertCategory.run()
    } catch {
      throw DestinationError(.writeFailed, file: "recovery file", reason: error.description)
    }
    categoryCount = key
    content.beginCategory(title)
    return CategoryID(key)
  }

  func insertDitto(
    text: String, useCount: Int64, sortOrder: Int64, in category: CategoryID
  ) throws(DestinationError) {
    let key = dittoCount + 1
    do {
      try insertDitto.bind(
        .integer(key), .integer(useCount), .integer(category.rawValue),
        .integer((sortOrder + 1) * RecoveryFileWriter.orderStep), .text(text))
      try insertDitto.run()
    } catch {
      throw DestinationError(.writeFailed, file: "recovery file", reason: error.description)
    }
    dittoCount = key
    content.add(text, useCount: useCount, toCategory: Int(category.rawValue) - 1)
  }

  func mergeProgressed(_ progress: MergeProgress) { onProgress?(progress) }
}

/// What a library holds, category by category, as digests: each category's title, ditto count and
/// a hash of its texts and use counts in order. Two walks of the same content give equal digests
/// (in one process: the hash is seeded per process), without either holding the texts.
struct ContentDigest {
  /// One category's digest.
  struct Category: Equatable {
    var title: String
    var dittos: Int
    var digest: Int
  }

  private var titles: [String] = []
  private var counts: [Int] = []
  private var hashers: [Hasher] = []

  /// A category starts; dittos added without an index go to it.
  mutating func beginCategory(_ title: String) {
    titles.append(title)
    counts.append(0)
    hashers.append(Hasher())
  }

  /// One ditto of category `index` (the latest by default).
  mutating func add(_ text: String, useCount: Int64, toCategory index: Int? = nil) {
    let category = index ?? titles.count - 1
    guard hashers.indices.contains(category) else { return }
    hashers[category].combine(text)
    hashers[category].combine(useCount)
    counts[category] += 1
  }

  /// Every category's digest, in order.
  var categories: [Category] {
    titles.indices.map {
      Category(title: titles[$0], dittos: counts[$0], digest: hashers[$0].finalize())
    }
  }
}
