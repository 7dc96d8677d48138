import BackupReader
import EngineTestSupport
import Foundation
import StoreFixtures
import Testing

/// Manifest.db: the Ditto rows, on a private copy; encryption detection; discovery of backup folders.
@Suite struct ManifestTests {
  static let date = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func listsOnlyDittoDomainsAndLeavesTheBackupUntouched() throws {
    let folder = try TemporaryDirectory("manifest")
    let builder = try DittoBackupFixture.build(at: folder.appending("udid"), date: Self.date)
    let before = try FileHashes(of: builder.root)
    let backup = Backup(path: builder.root)
    let listing = try backup.readListing()
    #expect(listing.totalRows == Int64(builder.rows.count))
    #expect(listing.problems.isEmpty)
    #expect(
      Set(listing.entries.map(\.domain)) == [
        "AppDomainGroup-group.io.kern.ditto", "AppDomain-io.kern.Ditto",
      ])
    #expect(
      listing.files.map(\.relativePath) == [
        "Library/Preferences/io.kern.Ditto.plist", "Ditto.sqlite", "Ditto.sqlite-shm",
        "Ditto.sqlite-wal", "Ditto.store", "Library/Preferences/group.io.kern.ditto.plist",
      ])
    #expect(listing.hasDittoStore)
    #expect(listing.largestStore?.relativePath == "Ditto.sqlite")
    let store = try #require(listing.files.first { $0.relativePath == "Ditto.sqlite" })
    #expect(store.expectedBytes == 4096)
    #expect(store.kind == .file)
    #expect(listing.entries.first { $0.relativePath == "Library" }?.kind == .directory)
    #expect(try FileHashes(of: builder.root) == before)
  }

  @Test func rowsThatCannotBeUsedAreReportedNotDropped() throws {
    let folder = try TemporaryDirectory("manifest")
    let builder = try BackupBuilder(root: folder.path)
    let group = DittoDomain.appGroupDomain
    builder.addRow(
      .init(
        fileID: "ab" + String(repeating: "0", count: 38), domain: group, relativePath: nil,
        flags: 1, blob: nil))
    builder.addRow(
      .init(
        fileID: "cd" + String(repeating: "0", count: 38), domain: group,
        relativePath: "Ditto.sqlite",
        flags: 1, blob: Array("not a plist".utf8)))
    builder.addRow(
      .init(
        fileID: "ef" + String(repeating: "0", count: 38), domain: nil, relativePath: nil, flags: 16,
        blob: nil))
    try builder.writeManifest()
    let listing = try Backup(path: builder.root).readListing()
    #expect(listing.problems.count == 1)
    #expect(listing.problems.first?.contains("relativePath is not text") == true)
    #expect(listing.entries.count == 1)
    #expect(
      listing.entries.first?.recordProblem
        == "not a property list: text that is neither XML nor binary (OpenStep text is not read)")
    #expect(listing.entries.first?.kind == .file)
    #expect(listing.entries.first?.expectedBytes == nil)
  }

  @Test func anSQLiteFileWithoutTheFilesTableIsNotAManifest() throws {
    let folder = try TemporaryDirectory("manifest")
    try LegacyStoreWriter.write(DittoBackupFixture.store, to: folder.appending("Manifest.db"))
    #expect(
      throws: BackupError.manifestUnreadable(
        file: folder.appending("Manifest.db"), reason: "no Files table: not a backup manifest")
    ) {
      try Backup(path: folder.path).readListing()
    }
  }

  @Test func encryptedPerManifestPlist() throws {
    let folder = try TemporaryDirectory("encrypted")
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeStandardPlists(date: Self.date, isEncrypted: true)
    try builder.writeBytes(
      (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }, at: "Manifest.db")
    let before = try FileHashes(of: folder.path)
    let error = #expect(throws: BackupError.self) { try Backup(path: folder.path).readListing() }
    #expect(error?.code == "encrypted")
    #expect(error?.description.contains("Manifest.plist says IsEncrypted = true") == true)
    #expect(error?.description.contains("--password-file") == true)
    #expect(error?.description.contains("Encrypt local backup") == true)
    #expect(try FileHashes(of: folder.path) == before)
  }

  @Test func manifestWithoutSQLiteHeaderAndNoManifestPlistLooksEncrypted() throws {
    let folder = try TemporaryDirectory("encrypted")
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeInfo(["Device Name": "X"])
    try builder.writeBytes((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }, at: "Manifest.db")
    let error = #expect(throws: BackupError.self) { try Backup(path: folder.path).readListing() }
    #expect(error?.code == "encrypted")
  }

  @Test func manifestWithoutSQLiteHeaderInAnUnencryptedBackupIsDamaged() throws {
    let folder = try TemporaryDirectory("damaged")
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeStandardPlists(date: Self.date, isEncrypted: false)
    try builder.writeBytes(Array(repeating: 0, count: 4096), at: "Manifest.db")
    let error = #expect(throws: BackupError.self) { try Backup(path: folder.path).readListing() }
    #expect(error?.code == "not_a_database")
    #expect(error?.description.contains("damaged") == true)
  }

  @Test func oldMbdbBackupsAreRefusedClearly() throws {
    let folder = try TemporaryDirectory("mbdb")
    let builder = try BackupBuilder(root: folder.path)
    try builder.writeBytes(Array("mbdb\u{5}\u{0}".utf8), at: "Manifest.mbdb")
    let error = #expect(throws: BackupError.self) { try Backup(path: folder.path).readListing() }
    #expect(error?.code == "unsupported_format")
    let empty = try TemporaryDirectory("nomanifest")
    try BackupBuilder(root: empty.path).writeInfo(["Device Name": "X"])
    #expect(throws: BackupError.notABackup(path: empty.path, reason: "no Manifest.db")) {
      try Backup(path: empty.path).readListing()
    }
  }

  @Test(arguments: [
    ("", nil), ("Ditto.sqlite", nil), ("Library/Preferences/group.io.kern.ditto.plist", nil),
    ("../escape", "the path has a '..' component"), ("a/../../b", "the path has a '..' component"),
    ("./a", "the path has a '.' component"), ("/etc/passwd", "the path is absolute"),
    ("a//b", "the path has an empty component"), ("a/", "the path has an empty component"),
    ("a\u{0}b", "the path contains a NUL byte"),
    // A combining mark after a "/" joins it into one Character, which hid the "/" from a
    // Character-wise check; the kernel reads bytes (found by Fuzz/Sources/fuzz-backup-path).
    ("../\u{301}x", "the path has a '..' component"),
    ("D4$//\u{33E}%", "the path has an empty component"),
    ("/\u{301}etc", "the path is absolute"), ("a/.\u{301}", nil), ("e\u{301}/b", nil),
  ])
  func relativePathsAreCheckedBeforeUse(path: String, problem: String?) {
    let entry = ManifestEntry(
      fileID: "ab", domain: DittoDomain.appGroupDomain, dittoDomain: .appGroup, relativePath: path,
      flags: 1)
    #expect(entry.relativePathProblem == problem)
  }

  @Test(arguments: [
    ("e6a1e5290890d852f7f79f0c11c0625c47bfaebf", true), ("E6A1", true), ("../../etc", false),
    ("e", false), ("zz00", false), ("ab/cd", false),
  ])
  func fileIDsMustBeHex(fileID: String, isUsable: Bool) {
    let entry = ManifestEntry(
      fileID: fileID, domain: DittoDomain.appGroupDomain, dittoDomain: .appGroup,
      relativePath: "x", flags: 1)
    #expect((entry.fileIDProblem == nil) == isUsable)
  }

  @Test(arguments: [
    ("AppDomainGroup-group.io.kern.ditto", DittoDomain?.some(.appGroup)),
    ("AppDomain-io.kern.Ditto", .app), ("AppDomain-io.kern.ditto", .app),
    ("AppDomain-ABCDE12345.io.kern.Ditto", .app), ("AppDomain-ABCDE12345.io.kern.ditto", .app),
    ("AppDomain-IO.KERN.DITTO", nil), ("AppDomain-io.kern.DITTO", nil),
    ("AppDomain-ABCDE12345.io.kern.DITTO", nil), ("appdomain-io.kern.Ditto", nil),
    ("AppDomain-ABCDE123456.io.kern.Ditto", nil), ("AppDomain-io.kern.Ditto.keyboard", nil),
    ("AppDomain-abcde12345.io.kern.ditto", nil), ("AppDomain-ABC.io.kern.ditto", nil),
    ("AppDomain-io.kern.ditto.keyboard", nil), ("AppDomainGroup-group.io.kern.ditto.widgets", nil),
    ("appdomaingroup-group.io.kern.ditto", nil), ("HomeDomain", nil),
    ("AppDomainPlugin-io.kern.ditto.keyboard", nil),
  ])
  func dittoDomains(domain: String, kind: DittoDomain?) {
    #expect(DittoDomain.of(domain) == kind)
  }
}

@Suite struct BackupLocatorTests {
  @Test func aBackupFolderIsItself() throws {
    let folder = try TemporaryDirectory("locate")
    try DittoBackupFixture.build(at: folder.appending("udid"), date: ManifestTests.date)
    #expect(try BackupLocator.locate(folder.appending("udid") + "/") == [folder.appending("udid")])
  }

  @Test func aFolderOfBackupsListsTheBackupsByName() throws {
    let folder = try TemporaryDirectory("locate")
    try DittoBackupFixture.build(at: folder.appending("b-newer"), date: ManifestTests.date)
    try BackupBuilder(root: folder.appending("a-older")).writeInfo(["Device Name": "Old"])
    try FileManager.default.createDirectory(
      atPath: folder.appending("not-a-backup"), withIntermediateDirectories: true)
    try BackupBuilder(root: folder.path).writeBytes([1], at: "stray-file")
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("c-link"), withDestinationPath: folder.appending("b-newer"))
    #expect(
      try BackupLocator.locate(folder.path) == [
        folder.appending("a-older"), folder.appending("b-newer"),
      ])
  }

  @Test func nothingThereIsAnErrorNotAnEmptyList() throws {
    let folder = try TemporaryDirectory("locate")
    #expect(throws: BackupError.self) { try BackupLocator.locate(folder.path) }
    #expect(throws: BackupError.notFound(path: folder.appending("missing"))) {
      try BackupLocator.locate(folder.appending("missing"))
    }
    try BackupBuilder(root: folder.path).writeBytes([1], at: "file")
    let error = #expect(throws: BackupError.self) {
      try BackupLocator.locate(folder.appending("file"))
    }
    #expect(error?.code == "not_a_backup")
  }

  @Test func newestWithADittoStore() throws {
    let folder = try TemporaryDirectory("newest")
    try DittoBackupFixture.build(
      at: folder.appending("old"), date: Date(timeIntervalSince1970: 1_500_000_000))
    try DittoBackupFixture.build(
      at: folder.appending("mid"), date: Date(timeIntervalSince1970: 1_600_000_000))
    try DittoBackupFixture.build(
      at: folder.appending("new"), date: Date(timeIntervalSince1970: 1_700_000_000),
      includesDitto: false)
    let summaries = try BackupLocator.locate(folder.path).map { BackupSummary(path: $0) }
    #expect(BackupSummary.newestWithDittoStore(summaries)?.backup.path == folder.appending("mid"))
    #expect(BackupSummary.newest(summaries)?.backup.path == folder.appending("new"))
  }
}
