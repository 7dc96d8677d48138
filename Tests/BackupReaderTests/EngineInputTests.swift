import Testing

@testable import BackupReader

/// The files whose failure to rebuild makes a recovery "maybe incomplete": the store, its `-wal`
/// and `-journal`, and the App Group defaults; never the `-shm` (an index SQLite rebuilds from the
/// `-wal`, which no snapshot copies), nor anything else of the domains.
@Suite struct EngineInputTests {
  static func entry(_ relativePath: String, _ domain: DittoDomain = .appGroup) -> ManifestEntry {
    ManifestEntry(
      fileID: String(repeating: "a", count: 40), domain: DittoDomain.appGroupDomain,
      dittoDomain: domain, relativePath: relativePath, flags: 1)
  }

  @Test(arguments: [
    ("Ditto.sqlite", true), ("Ditto.sqlite-wal", true), ("Ditto.sqlite-journal", true),
    ("Library/Application Support/Ditto.sqlite", true), ("DITTO.SQLITE-WAL", true),
    ("Library/Preferences/group.io.kern.ditto.plist", true),
    ("Ditto.sqlite-shm", false), ("Library/Application Support/Ditto.sqlite-shm", false),
    ("DITTO.SQLITE-SHM", false), ("Ditto.store", false), ("Library/Caches/x.db", false),
  ])
  func whatTheEngineReads(relativePath: String, reads: Bool) {
    #expect(RebuiltFile.isEngineInput(Self.entry(relativePath)) == reads, "\(relativePath)")
  }
}
