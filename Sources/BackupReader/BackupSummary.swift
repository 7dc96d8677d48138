import Foundation

/// One backup as `backup list` shows it: its metadata and its Ditto files, or why they are unknown.
public struct BackupSummary: Sendable {
  public let backup: Backup
  /// The manifest's Ditto rows, or why the manifest could not be read (never an empty listing).
  public let listing: Result<ManifestListing, BackupError>

  public init(backup: Backup, listing: Result<ManifestListing, BackupError>) {
    self.backup = backup
    self.listing = listing
  }

  /// Reads the backup at `path` (metadata and manifest).
  public init(path: String, decryptedManifest: String? = nil) {
    backup = Backup(path: path)
    do {
      listing = .success(try backup.readListing(decryptedManifest: decryptedManifest))
    } catch {
      listing = .failure(error)
    }
  }

  /// True when the manifest was read and lists a non-empty Ditto store.
  public var hasDittoStore: Bool {
    if case .success(let listing) = listing { return listing.hasDittoStore }
    return false
  }

  /// The error, when the manifest could not be read.
  public var error: BackupError? {
    if case .failure(let error) = listing { return error }
    return nil
  }

  /// The newest of `summaries` whose manifest lists a non-empty Ditto store: latest date first, a backup
  /// without a date counts as oldest; on a tie, the later one in the list. Nil when none does.
  public static func newestWithDittoStore(_ summaries: [BackupSummary]) -> BackupSummary? {
    newest(summaries.filter(\.hasDittoStore))
  }

  /// The newest of `summaries` (same ordering as ``newestWithDittoStore(_:)``).
  public static func newest(_ summaries: [BackupSummary]) -> BackupSummary? {
    var best: BackupSummary?
    for summary in summaries {
      let date = summary.backup.metadata.date ?? .distantPast
      if best == nil || date >= (best?.backup.metadata.date ?? .distantPast) { best = summary }
    }
    return best
  }
}
