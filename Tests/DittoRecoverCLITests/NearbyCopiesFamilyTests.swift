import DittoStore
import EngineTestSupport
import Foundation
import StoreFixtures
import TestSupport
import Testing

/// "Nothing" only about a searched space, over generated families: copies of a container under any
/// name (Windows, GNOME, Finder in any language, random Unicode), at any depth up to six folders,
/// with the store's name in any letter case or under another name altogether, whole, `-wal` only,
/// or a lone `-wal`; and places the search cannot open. Every member is found (or named as not
/// opened); `migrate` never writes its flag while one is; legacy files keep their bytes.
@Suite struct NearbyCopiesFamilyTests {
  static let spec = FixtureContent.make(categories: 2, dittosPerCategory: 4, seed: 43)

  /// The endings duplicates get from Windows, GNOME, KDE, Finder in several languages, zip tools.
  static let endings = [
    "", " - Copy", " - Copy (2)", " - Kopie", " (copy)", " (another copy)", " (3rd copy)",
    " copy copy", " 2 2", " (1) (1)", "_copy", ".bak", " COPY 3", " 複製", "のコピー", " copy",
    " (1)", "-old", " från iPhone", " 🙂",
  ]
  /// Names that have nothing to do with the container's.
  static let unrelatedNames = [
    "Copy of group.io.kern.ditto", "backup", "Téléchargements", "új mappa", "資料", "x", "zip",
    "iPhone files 2026-12-01", "AppGroup",
  ]

  static func name(using generator: inout SeededGenerator) -> String {
    if Bool.random(using: &generator) {
      return "group.io.kern.ditto" + endings.randomElement(using: &generator)!
    }
    let scalars = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
      Character(
        Unicode.Scalar(
          [
            UInt32.random(in: 0x61...0x7A, using: &generator),
            UInt32.random(in: 0xC0...0x24F, using: &generator),
            UInt32.random(in: 0x4E00...0x4FFF, using: &generator),
          ].randomElement(
            using: &generator)!)!)
    }
    return Bool.random(using: &generator)
      ? unrelatedNames.randomElement(using: &generator)! : String(scalars)
  }

  /// `Ditto.sqlite` in a random letter case.
  static func storeName(using generator: inout SeededGenerator) -> String {
    String(
      "Ditto.sqlite".map { character in
        Bool.random(using: &generator) ? Character(character.uppercased()) : character
      })
  }

  enum Shape: CaseIterable { case whole, walOnly, loneWAL }

  /// One member: a folder holding `group.io.kern.ditto` (nothing but the app's library) and, at a
  /// random place nearby, a store; returns the place `nearbyCopies` must name and its kind.
  struct Member {
    let folder: TemporaryDirectory
    let given: String
    let expectedPath: String
    let expectedKind: String
    let legacyFolder: String
  }

  static func member(seed: UInt64) throws -> Member {
    var generator = SeededGenerator(seed: FamilySeed.base(0x4E41) &+ seed)
    let folder = try TemporaryDirectory("nearby-family")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    // Where: beside (a sibling, maybe inside a few folders of its own) or below the folder given.
    let below = seed % 3 == 2
    var parts: [String] = []
    for _ in 0..<Int.random(in: below ? 1...5 : 0...4, using: &generator) {
      parts.append(name(using: &generator))
    }
    // A sibling never takes the given folder's own name (that would be the folder itself).
    var sibling = name(using: &generator)
    while sibling == "group.io.kern.ditto" { sibling = name(using: &generator) }
    let base = below ? given : folder.path + "/" + sibling
    let container = ([base] + parts).joined(separator: "/")
    let shape = Shape.allCases.randomElement(using: &generator)!
    let asFile = seed % 4 == 3
    if asFile {
      // A store under another name: found by its bytes, read with `recover --from`.
      let file =
        container + "/" + ["Ditto 2.sqlite", "ditto-backup.db", "store", "Dítto.sqlite"]
        .randomElement(using: &generator)!
      try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
      try LegacyStoreWriter.write(spec, to: file, journal: .walCheckpointed)
      return Member(
        folder: folder, given: given, expectedPath: file, expectedKind: "store",
        legacyFolder: container)
    }
    let probed = [
      "", "Library/Application Support", "Library/Application Support/Ditto", "Documents",
    ]
    .randomElement(using: &generator)!
    let relative = (probed.isEmpty ? "" : probed + "/") + storeName(using: &generator)
    let builder = try ContainerBuilder(root: container)
    try builder.writeStore(
      spec, at: relative, journal: shape == .whole ? .walCheckpointed : .walOnly)
    if shape == .loneWAL {
      // 3.0.0's deletion that left the -wal.
      try FileManager.default.removeItem(atPath: builder.path(relative))
      try? FileManager.default.removeItem(atPath: builder.path(relative) + "-shm")
    }
    return Member(
      folder: folder, given: given, expectedPath: container, expectedKind: "container",
      legacyFolder: container)
  }

  @Test func everyCopyNearbyIsFoundWhateverItsNameDepthOrShape() throws {
    for seed in 0..<UInt64(16) {
      let member = try Self.member(seed: seed)
      let before = try FileHashes(of: member.legacyFolder)
      let status = ToolRunner.run(["status", "--container", member.given, "--json"])
      #expect(status.exitCode == 0, "seed \(seed): \(status.standardError)")
      let copies = status.json?["nearbyCopies"] as? [[String: Any]] ?? []
      #expect(copies.count == 1, "seed \(seed): \(status.standardOutput)")
      let copy = copies.first ?? [:]
      #expect(
        OneAnswerPerFileTests.same(copy["path"] as? String, member.expectedPath),
        "seed \(seed): \(copy) expected \(member.expectedPath)")
      #expect(copy["kind"] as? String == member.expectedKind, "seed \(seed)")
      #expect(copy["dittos"] as? Int == Self.spec.readableDittoCount, "seed \(seed): \(copy)")
      let search = status.json?["nearbySearch"] as? [String: Any] ?? [:]
      #expect(search["complete"] as? Bool == true, "seed \(seed)")

      let text = ToolRunner.run(["status", "--container", member.given])
      #expect(text.standardOutput.hasPrefix("recoverable: nothing in this folder; a copy"))
      #expect(text.standardOutput.contains("nearby: searched "), "seed \(seed)")

      // No flag, no "nothing", while the copy holds the dittos.
      let migrate = ToolRunner.run(["migrate", "--container", member.given])
      #expect(migrate.exitCode == 66, "seed \(seed): \(migrate.standardError)")
      #expect(
        !FileManager.default.fileExists(
          atPath: member.given + "/Library/Preferences/group.io.kern.ditto.plist"),
        "seed \(seed): the flag was written")
      #expect(try FileHashes(of: member.legacyFolder) == before, "seed \(seed)")
    }
  }

  /// The command named for a copy reads it: after it, the library holds every ditto.
  @Test(arguments: [UInt64(1), 3, 5])
  func theCommandNamedForACopyRecoversIt(seed: UInt64) throws {
    let member = try Self.member(seed: seed)
    let stopped = ToolRunner.run(["recover", "--container", member.given])
    #expect(stopped.exitCode == 66)
    let next = try #require(
      stopped.standardError.split(separator: "\n").first { $0.hasPrefix("next: ") })
    let recovered = try ToolRun.pasted(String(next.dropFirst("next: ".count)))
    #expect(recovered.exitCode == 0, "\(next): \(recovered.standardError)")
    #expect(
      try DittoStoreFile.content(at: member.given + "/Ditto.store").dittoCount
        == Self.spec.readableDittoCount)
  }

  enum Blind: CaseIterable { case linkedSibling, tooDeep }

  /// A place the search cannot open: never "nothing", never the flag; named.
  @Test(arguments: Blind.allCases)
  func aPlaceNotOpenedIsNamedAndNothingIsNeverSaid(blind: Blind) throws {
    let folder = try TemporaryDirectory("nearby-blind")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    let elsewhere = try TemporaryDirectory("elsewhere")
    switch blind {
    case .linkedSibling:
      try ContainerBuilder(root: elsewhere.path).writeStore(Self.spec)
      try FileManager.default.createSymbolicLink(
        atPath: folder.appending("group.io.kern.ditto copy"), withDestinationPath: elsewhere.path)
    case .tooDeep:
      let deep = folder.appending("a/b/c/d/e/f/g/h/i/j/k/l")
      try ContainerBuilder(root: deep).writeStore(Self.spec)
    }
    let status = ToolRunner.run(["status", "--container", given, "--json"])
    let search = status.json?["nearbySearch"] as? [String: Any] ?? [:]
    let notOpened = search["notOpened"] as? [[String: Any]] ?? []
    #expect(!notOpened.isEmpty, "\(blind): \(status.standardOutput)")
    let text = ToolRunner.run(["status", "--container", given])
    #expect(
      text.standardOutput.hasPrefix("recoverable: nothing in this folder; unknown nearby"),
      "\(blind): \(text.standardOutput)")
    for command in [["migrate"], ["recover"]] {
      let run = ToolRunner.run(command + ["--container", given])
      #expect(run.exitCode == 66, "\(blind) \(command): \(run.standardError)")
      #expect(run.standardError.contains("could not look everywhere"))
      #expect(!run.standardOutput.contains(OneAnswerPerFileTests.deviceSentence))
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: given + "/Library/Preferences/group.io.kern.ditto.plist"))
  }

  /// A copy with fewer dittos than the folder read, but some it lacks, is named (by what it
  /// holds, not by its count); a copy holding only what the folder gives is not.
  @Test func aCopyWithFewerButDifferentDittosIsNamed() throws {
    let folder = try TemporaryDirectory("nearby-different")
    let given = folder.appending("group.io.kern.ditto")
    try ContainerBuilder(root: given).writeStore(Self.spec)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    let subset = folder.appending("group.io.kern.ditto - Copy")
    try ContainerBuilder(root: subset).writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 43))
    let different = folder.appending("old backup")
    try ContainerBuilder(root: different).writeStore(
      FixtureContent.make(categories: 1, dittosPerCategory: 2, seed: 999))
    let status = ToolRunner.run(["status", "--container", given, "--json"])
    let copies = status.json?["nearbyCopies"] as? [[String: Any]] ?? []
    #expect(copies.count == 1, "\(status.standardOutput)")
    #expect(OneAnswerPerFileTests.same(copies.first?["path"] as? String, different))
    #expect(copies.first?["missingHere"] as? Int == 2)
    let migrate = ToolRunner.run(["migrate", "--container", given])
    #expect(migrate.exitCode == 66, "\(migrate.standardError)")
    #expect(migrate.standardError.contains("holds dittos it does not"))
    #expect(
      !FileManager.default.fileExists(
        atPath: given + "/Library/Preferences/group.io.kern.ditto.plist"))
  }

  /// Links are never followed, and only those that could lead to a copy are named: a link to a
  /// text file, a dangling link, or a link into the space itself keeps "nothing" sayable; a link
  /// to a store outside is named.
  @Test func onlyLinksThatCouldLeadToACopyAreNamed() throws {
    let folder = try TemporaryDirectory("nearby-links")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    try Data(repeating: 0x41, count: 100).write(
      to: URL(fileURLWithPath: folder.appending("notes.txt")))
    let links = FileManager.default
    try links.createSymbolicLink(
      atPath: folder.appending("notes link"), withDestinationPath: folder.appending("notes.txt"))
    try links.createSymbolicLink(
      atPath: folder.appending("dangling"), withDestinationPath: folder.appending("nowhere"))
    try links.createSymbolicLink(atPath: folder.appending("inside"), withDestinationPath: given)
    let quiet = ToolRunner.run(["status", "--container", given])
    #expect(
      quiet.standardOutput.hasPrefix("recoverable: nothing (no legacy file"),
      "\(quiet.standardOutput)")

    let elsewhere = try TemporaryDirectory("links-elsewhere")
    try LegacyStoreWriter.write(Self.spec, to: elsewhere.appending("old.sqlite"))
    try links.createSymbolicLink(
      atPath: folder.appending("old store"), withDestinationPath: elsewhere.appending("old.sqlite"))
    let named = ToolRunner.run(["status", "--container", given])
    #expect(
      named.standardOutput.contains("old store: a link to a store (not followed)"),
      "\(named.standardOutput)")
    #expect(named.standardOutput.hasPrefix("recoverable: nothing in this folder; unknown nearby"))
  }

  /// A folder given in the home folder: only it and what is below it are searched (beside it lies
  /// the whole home), and the answer says so.
  @Test func inTheHomeFolderOnlyTheFolderGivenIsSearchedAndThatIsSaid() throws {
    let folder = try TemporaryDirectory("nearby-home")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    try ContainerBuilder(root: folder.appending("Downloads/old copy")).writeStore(Self.spec)
    try ContainerBuilder(root: given + "/unzipped/copy").writeStore(Self.spec)
    let run = try ToolRunner.runProcess(
      ["status", "--container", given, "--json"], environment: ["HOME": folder.path])
    let search = run.json?["nearbySearch"] as? [String: Any] ?? [:]
    #expect(search["besideSearched"] as? Bool == false, "\(run.standardOutput)")
    let copies = run.json?["nearbyCopies"] as? [[String: Any]] ?? []
    #expect(copies.count == 1)
    #expect(OneAnswerPerFileTests.same(copies.first?["path"] as? String, given + "/unzipped/copy"))
    let text = try ToolRunner.runProcess(
      ["status", "--container", given], environment: ["HOME": folder.path])
    #expect(text.standardOutput.contains("not what lies beside it"), "\(text.standardOutput)")
  }

  /// A copy whose store cannot be read (SQLite and salvage both fail) beside a folder holding
  /// dittos: what it holds is unknown, so it is named (missingHere null), never dropped as holding
  /// nothing the folder lacks.
  @Test func aCopyThatCannotBeReadIsNamedNotDropped() throws {
    let folder = try TemporaryDirectory("nearby-unreadable")
    let given = folder.appending("group.io.kern.ditto")
    try ContainerBuilder(root: given).writeStore(Self.spec)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    let broken = folder.appending("group.io.kern.ditto copy")
    try ContainerBuilder(root: broken).writeGarbage(count: 8192, seed: 5, at: "Ditto.sqlite")
    let status = ToolRunner.run(["status", "--container", given, "--json"])
    let copies = status.json?["nearbyCopies"] as? [[String: Any]] ?? []
    #expect(copies.count == 1, "\(status.standardOutput)")
    #expect(OneAnswerPerFileTests.same(copies.first?["path"] as? String, broken))
    #expect(copies.first?["missingHere"] == nil || copies.first?["missingHere"] is NSNull)
  }

  /// Nothing anywhere in a space searched whole: "nothing" is said, with what was searched.
  @Test func nothingIsSaidOnlyAboutTheSpaceSearched() throws {
    let folder = try TemporaryDirectory("nearby-none")
    let given = folder.appending("group.io.kern.ditto")
    try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    _ = try LibraryFixtures.copy(.empty, toFolder: given)
    // A copy with no store, and files that are not stores under a store's kind of name.
    try FileManager.default.createDirectory(
      atPath: folder.appending("group.io.kern.ditto copy/Documents"),
      withIntermediateDirectories: true)
    for name in ["notes.sqlite", "Ditto.sqlite.txt", "photo.db"] {
      try Data(repeating: 0x41, count: 4096).write(
        to: URL(fileURLWithPath: folder.appending("group.io.kern.ditto copy/Documents/" + name)))
    }
    let status = ToolRunner.run(["status", "--container", given])
    #expect(status.standardOutput.hasPrefix("recoverable: nothing (no legacy file"))
    #expect(status.standardOutput.contains("nearby: searched "))
    let migrate = ToolRunner.run(["migrate", "--container", given])
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(migrate.standardError.contains("note: no copy nearby holds legacy data: searched"))
  }
}
