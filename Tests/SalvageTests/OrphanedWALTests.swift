import Foundation
import LegacyStore
import Testing

@testable import Salvage

/// Stores whose rows live only in the -wal: written by real SQLite, copied while the writer is open.
struct OrphanedWALTests {
  /// Writes a store, copies main + -wal + -shm while open into `full/`, returns the reader's
  /// library of that copy (the expected content) and the folder.
  static func walStore(in scratch: TestFolder, longEvery: Int = 0, updates: Bool = true) throws
    -> (expected: LegacyLibrary, full: String, builder: DittoStoreBuilder)
  {
    let build = try scratch.subfolder("build")
    let builder = try DittoStoreBuilder(folder: build)
    try builder.add(DittoStoreBuilder.sample(categories: 4, perCategory: 30, longEvery: longEvery))
    if updates {
      // Later commits change use counts: the WAL then holds several images of the same pages.
      for round in 0..<5 {
        try builder.execute(
          "UPDATE ZDITTO SET ZUSE_COUNT = \(100 + round) WHERE Z_PK % 7 = \(round)")
      }
    }
    let full = try scratch.subfolder("full")
    try builder.copyFiles(to: full)
    let expected = try LegacyStoreReader.read(path: full + "/Ditto.sqlite")
    return (expected, full, builder)
  }

  @Test(arguments: ["none", "zero-length", "lone-wal-path"])
  func orphanedWALGivesWholeLibrary(main: String) throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch, longEvery: 9)
    try builder.close()
    let orphan = try scratch.subfolder("orphan")
    try FileManager.default.copyItem(
      atPath: full + "/Ditto.sqlite-wal", toPath: orphan + "/Ditto.sqlite-wal")
    if main == "zero-length" { try scratch.write([], to: orphan + "/Ditto.sqlite") }
    let before = try FileHashes(folder: orphan)
    let path = orphan + (main == "lone-wal-path" ? "/Ditto.sqlite-wal" : "/Ditto.sqlite")
    let result = try Salvager.salvage(path: path, options: SalvageOptions())
    #expect(expected.dittoCount == 120)
    #expect(result.library == expected)
    #expect(!result.usedSQLite)
    #expect(result.sources.first { $0.kind == .wal }?.rows == 120)
    #expect(try FileHashes(folder: orphan) == before)
  }

  /// A torn tail (bytes of the last commit damaged) ends the log at the commit before it.
  @Test func tornTailStopsAtLastValidCommit() throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch)
    try builder.execute("UPDATE ZDITTO SET ZUSE_COUNT = 999 WHERE Z_PK = 3")
    let later = try scratch.subfolder("later")
    try builder.copyFiles(to: later, suffixes: ["-wal"])
    try builder.close()
    let walPath = later + "/Ditto.sqlite-wal"
    var wal = try scratch.bytes(walPath)
    #expect(wal.count > (try scratch.bytes(full + "/Ditto.sqlite-wal")).count)
    wal[wal.count - 100] ^= 0xFF  // inside the last frame's page: its checksum no longer matches
    try scratch.write(wal, to: walPath)
    let result = try Salvager.salvage(path: walPath, options: SalvageOptions())
    #expect(result.library == expected)
    #expect(result.notes.contains { $0.contains("invalid frame") })
  }

  /// Valid frames after the last commit frame (a transaction cut short) are not committed content:
  /// the committed reading is exactly SQLite's, and what only those frames hold (here every text
  /// edited by the transaction) is reported apart, after it.
  @Test func framesAfterLastCommitAreReadApart() throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch)
    let committedSize = (try scratch.bytes(full + "/Ditto.sqlite-wal")).count
    // A transaction touching several pages, then the file cut before its commit frame.
    try builder.execute("UPDATE ZDITTO SET ZUSE_COUNT = 7, ZTEXT = ZTEXT || ' edited'")
    let later = try scratch.subfolder("later")
    try builder.copyFiles(to: later, suffixes: ["-wal"])
    try builder.close()
    let walPath = later + "/Ditto.sqlite-wal"
    let wal = try scratch.bytes(walPath)
    let frame = 4096 + 24
    #expect(wal.count - committedSize >= 2 * frame)
    try scratch.write(Array(wal.prefix(wal.count - frame)), to: walPath)
    let result = try Salvager.salvage(path: walPath, options: SalvageOptions())
    #expect(result.notes.contains { $0.contains("after the last commit") })
    // The committed dittos first, as SQLite reads them; then only what the cut frames hold.
    #expect(result.neverCommitted > 0)
    #expect(result.library.dittoCount == expected.dittoCount + result.neverCommitted)
    for (category, committed) in zip(result.library.categories, expected.categories) {
      #expect(Array(category.dittos.prefix(committed.dittos.count)) == committed.dittos)
      #expect(
        category.dittos.dropFirst(committed.dittos.count).allSatisfy {
          $0.text.hasSuffix(" edited")
        })
    }
    #expect(
      result.sources.contains { $0.kind == .walNeverCommitted && $0.rows == result.neverCommitted })
  }

  /// A -wal whose only commit frame was cut off (a copy interrupted): nothing is committed, and
  /// every ditto is still rebuilt, from frames never committed, and said so.
  @Test func aWALCutBeforeItsOnlyCommitStillGivesItsDittos() throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch, updates: false)
    try builder.close()
    let walPath = full + "/Ditto.sqlite-wal"
    let wal = try scratch.bytes(walPath)
    // Cut inside the last frame: the transaction's commit frame is gone.
    try scratch.write(Array(wal.prefix(wal.count - 200)), to: walPath)
    try FileManager.default.removeItem(atPath: full + "/Ditto.sqlite")
    let result = try Salvager.salvage(path: walPath, options: SalvageOptions())
    // The page cut in half is lost (a leaf's cells sit at its end); every other page is read.
    let texts = Set(expected.categories.flatMap { $0.dittos.map(\.text) })
    #expect(result.library.dittoCount >= expected.dittoCount / 2)
    #expect(
      result.library.categories.allSatisfy { $0.dittos.allSatisfy { texts.contains($0.text) } })
    #expect(result.neverCommitted == result.library.dittoCount)
    #expect(result.notes.contains { $0.contains("never committed") })
  }

  /// A checksum error in the middle ends the committed log there (as SQLite reads it); the frames
  /// after the break, this WAL's by their salts, are read apart as never committed.
  @Test func badChecksumInTheMiddleEndsTheCommittedLog() throws {
    let scratch = try TestFolder()
    let (_, full, builder) = try Self.walStore(in: scratch, updates: false)
    try builder.close()
    let walPath = full + "/Ditto.sqlite-wal"
    var wal = try scratch.bytes(walPath)
    let frame = 4096 + 24
    // The first commit frame holds the schema transaction; damage the frame right after it.
    var index = 0
    while 32 + (index + 1) * frame <= wal.count,
      wal[32 + index * frame + 4..<32 + index * frame + 8].allSatisfy({ $0 == 0 })
    {
      index += 1
    }
    let damaged = 32 + (index + 1) * frame + 24 + 10
    #expect(damaged < wal.count)
    wal[damaged] ^= 0x55
    try scratch.write(wal, to: walPath)
    try FileManager.default.removeItem(atPath: full + "/Ditto.sqlite")
    let result = try Salvager.salvage(path: walPath, options: SalvageOptions())
    // Committed: only the schema transaction. The rest comes back from the frames past the break.
    #expect(result.notes.contains { $0.contains("invalid frame") })
    #expect(result.neverCommitted == result.library.dittoCount)
    #expect(result.library.dittoCount == 120)
  }

  /// A frame naming a far page (up to 2^32 - 1), past a break in the chain or committed with a
  /// database size to match: the scans read the pages the files hold, not the pages claimed. (A
  /// fuzzed -wal of this shape once made salvage walk four billion page numbers.)
  @Test(arguments: [
    (UInt32(1 << 20), false), (UInt32.max, false), (UInt32(1 << 31), true), (UInt32.max, true),
  ])
  func aFarFramePageAddsOnePageNotBillions(page: UInt32, committed: Bool) throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch, updates: false)
    try builder.close()
    let walPath = full + "/Ditto.sqlite-wal"
    var wal = try scratch.bytes(walPath)
    let frames = (wal.count - 32) / (4096 + 24)
    // The far frame carries a copy of the last frame's page (a leaf of the store, most likely).
    let data = Array(wal.suffix(4096))
    wal += WALFrames.frame(
      after: wal, page: page, commit: committed ? page : 0, data: data, validChecksum: committed)
    try scratch.write(wal, to: walPath)
    let result = try Salvager.salvage(
      path: full + "/Ditto.sqlite", options: SalvageOptions(includeDeleted: true))
    #expect(result.library.categories.map(\.title) == expected.categories.map(\.title))
    #expect(
      Set(result.library.categories.flatMap { $0.dittos.map(\.text) })
        == Set(expected.categories.flatMap { $0.dittos.map(\.text) }))
    let mainPages = (try scratch.bytes(full + "/Ditto.sqlite")).count / 4096
    for source in result.sources where source.kind != .freelist {
      #expect(source.pages <= mainPages + frames + 1, "\(source.kind) read \(source.pages) pages")
    }
  }

  @Test func hasValidFramesAnswers() throws {
    let scratch = try TestFolder()
    let (_, full, builder) = try Self.walStore(in: scratch, updates: false)
    try builder.close()
    #expect(Salvager.hasValidFrames(walPath: full + "/Ditto.sqlite-wal"))
    #expect(!Salvager.hasValidFrames(walPath: full + "/missing-wal"))
    #expect(!Salvager.hasValidFrames(walPath: full + "/Ditto.sqlite"))
    let wal = try scratch.bytes(full + "/Ditto.sqlite-wal")
    try scratch.write(Array(wal.prefix(32 + 4096)), to: scratch.path + "/short-wal")
    #expect(!Salvager.hasValidFrames(walPath: scratch.path + "/short-wal"))
    try scratch.write([], to: scratch.path + "/empty-wal")
    #expect(!Salvager.hasValidFrames(walPath: scratch.path + "/empty-wal"))
    #expect(!Salvager.hasValidFrames(walPath: scratch.path))
  }

  /// After a checkpoint the -wal holds only the pages later commits touched: no page 1, no
  /// category page. Rows are matched by shape against the known layout and go to "Recovered".
  @Test func walWithoutSchemaPageUsesKnownLayout() throws {
    let scratch = try TestFolder()
    let build = try scratch.subfolder("build")
    let builder = try DittoStoreBuilder(folder: build)
    try builder.add(DittoStoreBuilder.sample(categories: 3, perCategory: 40))
    try builder.database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    try builder.execute("UPDATE ZDITTO SET ZUSE_COUNT = 500 + Z_PK WHERE Z_PK <= 5")
    let orphan = try scratch.subfolder("orphan")
    try builder.copyFiles(to: orphan, suffixes: ["-wal"])
    let full = try scratch.subfolder("full")
    try builder.copyFiles(to: full)
    try builder.close()
    let everything = try LegacyStoreReader.read(path: full + "/Ditto.sqlite")
    let result = try Salvager.salvage(path: orphan + "/Ditto.sqlite-wal", options: SalvageOptions())
    #expect(result.notes.contains { $0.contains("known Ditto layout") })
    #expect(result.library.categories.map(\.title) == [LegacyStoreReader.recoveredTitle])
    let recovered = result.library.categories.first?.dittos ?? []
    let truth = Dictionary(
      everything.categories.flatMap(\.dittos).map { ($0.text, $0.useCount) },
      uniquingKeysWith: { a, _ in a })
    #expect(!recovered.isEmpty)
    #expect(recovered.allSatisfy { truth[$0.text] == $0.useCount })
    #expect(recovered.filter { $0.useCount > 500 }.count == 5)
  }

  /// A store with rows in both files: SQLite reads it, and the sources count both.
  @Test func mainAndWALSourcesAreCounted() throws {
    let scratch = try TestFolder()
    let (expected, full, builder) = try Self.walStore(in: scratch)
    try builder.close()
    let result = try Salvager.salvage(path: full + "/Ditto.sqlite", options: SalvageOptions())
    #expect(result.usedSQLite)
    #expect(result.library == expected)
    #expect(result.sources.map(\.kind) == [.main, .wal])
    #expect(result.sources.reduce(0) { $0 + $1.rows } == 120)
  }
}

/// Appends frames to a -wal the way SQLite writes them: this WAL's salts, and the cumulative
/// checksum over the header and every frame before (the WAL magic chooses the byte order).
enum WALFrames {
  static func frame(
    after wal: [UInt8], page: UInt32, commit: UInt32, data: [UInt8], validChecksum: Bool
  ) -> [UInt8] {
    let bigEndian = wal[3] & 1 == 1
    func word(_ bytes: [UInt8], _ at: Int, big: Bool) -> UInt32 {
      let b = bytes[at..<at + 4].map(UInt32.init)
      return big
        ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }
    func add(_ sum: inout (UInt32, UInt32), _ bytes: [UInt8]) {
      var index = 0
      while index + 8 <= bytes.count {
        sum.0 = sum.0 &+ word(bytes, index, big: bigEndian) &+ sum.1
        sum.1 = sum.1 &+ word(bytes, index + 4, big: bigEndian) &+ sum.0
        index += 8
      }
    }
    func bigEndianBytes(_ value: UInt32) -> [UInt8] {
      [
        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
      ]
    }
    var sum = (word(wal, 24, big: true), word(wal, 28, big: true))
    let frameSize = 24 + data.count
    var offset = 32
    while offset + frameSize <= wal.count {
      add(&sum, Array(wal[offset..<offset + 8]))
      add(&sum, Array(wal[offset + 24..<offset + frameSize]))
      offset += frameSize
    }
    var header = bigEndianBytes(page) + bigEndianBytes(commit)
    add(&sum, header)
    add(&sum, data)
    header += Array(wal[16..<24])
    header +=
      validChecksum
      ? bigEndianBytes(sum.0) + bigEndianBytes(sum.1) : [UInt8](repeating: 0xAB, count: 8)
    return header + data
  }
}
