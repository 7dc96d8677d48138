import Foundation

/// One backup as `backup list` shows it: its metadata and its Ditto files, or why they are unknown.
package struct BackupSummary: Sendable {
  package let backup: Backup
  /// The manifest's Ditto rows, or why the manifest could not be read (never an empty listing).
  package let listing: Result<ManifestListing, BackupError>
  /// The unlocked keys, when the backup is encrypted and the password opened it.
  package let keys: BackupKeys?

  package init(
    backup: Backup, listing: Result<ManifestListing, BackupError>, keys: BackupKeys? = nil
  ) {
    self.backup = backup
    self.listing = listing
    self.keys = keys
  }

  /// Reads the backup at `path` (metadata and manifest), unlocking it with `password` when it is
  /// encrypted (the password is not used for an unencrypted backup).
  package init(path: String, password: [UInt8]? = nil) {
    self.init(backup: Backup(path: path), password: password)
  }

  /// Reads `backup`'s manifest, unlocking it with `password` when it is encrypted.
  package init(backup: Backup, password: [UInt8]?) {
    self.backup = backup
    var unlocked: BackupKeys?
    do {
      if let password, backup.metadata.isEncrypted == true {
        unlocked = try BackupKeys.unlock(backup, password: password)
      }
      listing = .success(try backup.readListing(keys: unlocked))
    } catch .encrypted(_, let reason) where password != nil {
      listing = .failure(Self.keysUnreadable(backup, encryptedBecause: reason))
    } catch {
      listing = .failure(error)
    }
    keys = unlocked
  }

  /// An encrypted backup given its password whose keys could not be read: `Manifest.plist`, which
  /// holds them, is missing or damaged. The password was not wrong, and is not what is missing.
  static func keysUnreadable(_ backup: Backup, encryptedBecause reason: String) -> BackupError {
    let plist = backup.path + "/Manifest.plist"
    let problem =
      !FileManager.default.fileExists(atPath: plist)
      ? "it is missing"
      : backup.metadata.problems.first { $0.contains("Manifest.plist") }
        ?? "it holds no IsEncrypted key or no keybag"
    return .decryptionFailed(
      file: plist,
      reason:
        "the backup is encrypted (\(reason)), and the keys its password unlocks are kept in Manifest.plist, which could not be read (\(problem)): its files cannot be decrypted, with or without the password. Keep a copy of this folder; if the dittos are still on the device, make a new backup and use that one"
    )
  }

  /// How the stored files are turned into the originals: decrypted when the backup was unlocked.
  package var contentReader: any BackupContentReader {
    keys.map { EncryptedContentReader(keys: $0) } ?? PlainContentReader()
  }

  /// True when the manifest was read and lists a non-empty Ditto store.
  package var hasDittoStore: Bool {
    if case .success(let listing) = listing { return listing.hasDittoStore }
    return false
  }

  /// True when the manifest was read and lists a non-empty store or a non-empty `-wal` of one.
  package var holdsLegacyStoreData: Bool {
    if case .success(let listing) = listing { return listing.holdsLegacyStoreData }
    return false
  }

  /// True when the manifest was read and lists any file of Ditto's domains.
  package var hasDittoFiles: Bool {
    if case .success(let listing) = listing { return !listing.entries.isEmpty }
    return false
  }

  /// The error, when the manifest could not be read.
  package var error: BackupError? {
    if case .failure(let error) = listing { return error }
    return nil
  }

  /// The newest of `summaries` whose manifest lists a non-empty Ditto store or a non-empty `-wal`
  /// of one (``holdsLegacyStoreData``): latest date first, a backup without a date counts as
  /// oldest; on a tie, the later one in the list. Nil when none does.
  package static func newestWithDittoStore(_ summaries: [BackupSummary]) -> BackupSummary? {
    newest(summaries.filter(\.holdsLegacyStoreData))
  }

  /// The backups among `summaries` whose manifest could not be read and that may be newer than
  /// `chosen` (dated later, or undated): "the newest holding a Ditto store" depends on them. All
  /// unreadable ones when nothing was chosen.
  package static func unreadable(newerThan chosen: BackupSummary?, in summaries: [BackupSummary])
    -> [BackupSummary]
  {
    let chosenDate = chosen?.backup.metadata.date ?? .distantPast
    return summaries.filter { summary in
      guard summary.error != nil, summary.backup.path != chosen?.backup.path else { return false }
      guard let date = summary.backup.metadata.date else { return true }
      return chosen == nil || date > chosenDate
    }
  }

  /// The newest of `summaries` (same ordering as ``newestWithDittoStore(_:)``).
  package static func newest(_ summaries: [BackupSummary]) -> BackupSummary? {
    var best: BackupSummary?
    for summary in summaries {
      let date = summary.backup.metadata.date ?? .distantPast
      if best == nil || date >= (best?.backup.metadata.date ?? .distantPast) { best = summary }
    }
    return best
  }
}
