import DittoStore
import EngineTestSupport
import Foundation
import LibraryMerge
import SQLiteDB
import SafeFiles
import Testing

/// The Ditto 3.x fixtures in `Tests/Fixtures/ditto-3x`, made outside this repository.
enum Fixtures {
  static let names = ["presets", "empty", "cloudkit-gaps"]
  static let files = ["Ditto.store", "Ditto.store-wal", "Ditto.store-shm"]

  /// `Tests/Fixtures/ditto-3x`, from this file's place in the repository.
  static var root: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/ditto-3x").standardized.path
  }

  struct MissingFixture: Error, CustomStringConvertible {
    var path: String
    var description: String { "fixture missing: \(path)" }
  }

  /// Copies fixture `name` (the store and its sidecars) into `folder`; a missing file throws.
  static func copy(_ name: String, into folder: TemporaryDirectory) throws -> String {
    for file in files {
      let source = root + "/\(name)/" + file
      guard FileManager.default.fileExists(atPath: source) else {
        throw MissingFixture(path: source)
      }
      try FileManager.default.copyItem(atPath: source, toPath: folder.appending(file))
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o644], ofItemAtPath: folder.appending(file))
    }
    return folder.appending("Ditto.store")
  }

  /// What a fixture's `expected.json` says.
  struct Expected {
    var categories: [(title: String, dittos: [(text: String, useCount: Int64)])]
    var zMax: [String: Int64]
    var profiles: Int
    var historyTransactions: Int
  }

  static func expected(_ name: String) throws -> Expected {
    let path = root + "/\(name)/expected.json"
    guard FileManager.default.fileExists(atPath: path) else { throw MissingFixture(path: path) }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    let zMax = try #require(object["zMax"] as? [String: Int]).mapValues(Int64.init)
    return Expected(
      categories: try TestFixtures.expectedContent(at: path), zMax: zMax,
      profiles: try #require(object["profiles"] as? Int),
      historyTransactions: try #require(object["historyTransactions"] as? Int))
  }
}

/// A read-only connection to a store the test owns (after the code under test is done with it).
func openStore(_ path: String) throws -> Database {
  try Database(path: UserPath.resolvingFolder(of: path), mode: .readOnly)
}

/// Every row of `sql`, each value rendered with its storage class (so REAL 1.0 ≠ INTEGER 1).
func rows(_ database: Database, _ sql: String) throws -> [[String]] {
  let statement = try database.makeStatement(sql: sql)
  var result: [[String]] = []
  while try statement.step() {
    var row: [String] = []
    for column in 0..<statement.columnCount {
      switch statement.columnType(at: column) {
      case .null: row.append("NULL")
      case .integer: row.append("i:\(statement.int64(at: column))")
      case .real: row.append("r:\(statement.optionalDouble(at: column) ?? 0)")
      case .text: row.append("t:\(statement.text(at: column) ?? "")")
      case .blob:
        row.append(
          "b:" + (statement.blob(at: column) ?? []).map { String(format: "%02x", $0) }.joined())
      }
    }
    result.append(row)
  }
  statement.reset()
  return result
}

/// One integer.
func scalar(_ database: Database, _ sql: String) throws -> Int64? {
  try database.makeStatement(sql: sql).scalarInt64()
}

/// `Z_MAX` by entity name.
func zMax(_ database: Database) throws -> [String: Int64] {
  var result: [String: Int64] = [:]
  for row in try rows(database, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
    result[String(row[0].dropFirst(2))] = Int64(row[1].dropFirst(2))
  }
  return result
}

/// Everything an import must never change, as query results.
struct Untouchable: Equatable {
  var metadata: [[String]]
  var modelCache: [[String]]
  var schema: [[String]]
  var cloudKit: [String: [[String]]]
  var pragmas: [[String]]
  var primaryKeyNames: [[String]]

  init(_ database: Database) throws {
    metadata = try rows(database, "SELECT * FROM Z_METADATA")
    modelCache = try rows(database, "SELECT * FROM Z_MODELCACHE")
    schema = try rows(database, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
    var cloudKit: [String: [[String]]] = [:]
    for table in try rows(
      database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ANSCK%'")
    {
      let name = String(table[0].dropFirst(2))
      cloudKit[name] = try rows(database, "SELECT * FROM \(name) ORDER BY Z_PK")
    }
    self.cloudKit = cloudKit
    pragmas = [
      try rows(database, "PRAGMA journal_mode"), try rows(database, "PRAGMA page_size"),
      try rows(database, "PRAGMA auto_vacuum"), try rows(database, "PRAGMA encoding"),
    ].flatMap { $0 }
    primaryKeyNames = try rows(
      database, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
  }
}

/// A pinned clock: Cocoa seconds (2026-01-01, with a fraction so it stays REAL).
let pinnedNow: Double = 788_918_400.25

/// The shown content as (title, [(text, useCount)]).
func shown(_ content: DittoStoreContent) -> [(String, [(String, Int64)])] {
  content.categories.map { ($0.title, $0.dittos.map { ($0.text, $0.useCount) }) }
}

/// True when two (title, [(text, useCount)]) lists are equal, byte for byte.
func same(
  _ lhs: [(String, [(String, Int64)])],
  _ rhs: [(title: String, dittos: [(text: String, useCount: Int64)])]
) -> Bool {
  lhs.count == rhs.count
    && zip(lhs, rhs).allSatisfy { left, right in
      left.0.utf8.elementsEqual(right.title.utf8) && left.1.count == right.dittos.count
        && zip(left.1, right.dittos).allSatisfy {
          $0.0.utf8.elementsEqual($1.text.utf8) && $0.1 == $1.useCount
        }
    }
}

extension DittoStoreDestination {
  /// What a migration runs: the engine's merge of `sources`, streamed into this store.
  func merge(_ sources: [MergeSource], rules: LibraryMerger.Rules = LibraryMerger.Rules())
    throws(ImportFailure) -> LibraryMerger.Result
  {
    try applyImport { (session) throws(ImportFailure) in
      try LibraryMerger.merge(sources, into: session, rules: rules)
    }
  }
}

extension LibraryMerger.Result {
  /// True when the merge inserted nothing at all.
  var isEmpty: Bool { counts.insertedCategories == 0 && counts.inserted == 0 && !createsProfile }
}

extension ImportFailure {
  /// The library's error, when it was the library's (tests of the destination expect nothing else).
  var libraryError: DestinationError? {
    if case .library(let error) = reason { return error }
    return nil
  }
}
