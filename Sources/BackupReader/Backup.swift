import Foundation
import SafeFiles

// A FINDER / ITUNES BACKUP FOLDER (facts: shared/reference/ios-backup-format.md §1–§8)
//
//   PATH (below <udid>/)      WHAT                                        HOW WE READ IT
//   Info.plist                device name, date, iOS version (XML)        BackupMetadata; optional
//   Manifest.plist            IsEncrypted, Lockdown, BackupKeyBag (binary) BackupMetadata; optional
//   Status.plist              SnapshotState ("finished"), Date (binary)    BackupMetadata; optional
//   Manifest.db (+-wal, -shm) SQLite index of every file                  ManifestDatabase, on a private copy
//   Manifest.mbdb             the index before iOS 10                     refused: unsupportedFormat
//   ab/abcdef…                a file's contents, named by its fileID      ReadOnlyFile (O_NOFOLLOW, regular only)
//   abcdef…                   the same, in layouts before iOS 10          fallback when ab/abcdef… is absent
//
// A folder is a backup if (1) it holds Manifest.db, Manifest.plist, Info.plist or Manifest.mbdb as a
// regular file. Otherwise its subfolders (not links) that are backups are listed, in name order: that is
// `MobileSync/Backup` with one `<udid>` or `<udid>-YYYYMMDD-HHMMSS` folder per backup.
//
// The backup is encrypted when (1) Manifest.plist says IsEncrypted = true, or (2) Manifest.db does not
// start with the SQLite header while Manifest.plist does not say IsEncrypted = false. Without a password
// either gives BackupError.encrypted; a non-SQLite Manifest.db in a backup that says it is not
// encrypted gives BackupError.notADatabase (damaged). Nothing in the folder is ever opened for writing.

/// One backup folder: its metadata, its manifest and its stored files.
package struct Backup: Sendable, Equatable {
  /// The backup folder (`…/MobileSync/Backup/<udid>`), as given.
  package let path: String
  /// What its plists say.
  package let metadata: BackupMetadata

  /// Reads the metadata of the backup at `path` (never throws: see ``BackupMetadata/problems``).
  package init(path: String) {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    self.path = trimmed
    metadata = BackupMetadata(folder: trimmed)
  }

  /// The manifest file.
  package var manifestPath: String { path + "/Manifest.db" }

  /// Reads the Ditto rows of the manifest, deciding "encrypted" as the format comment says.
  ///
  /// - Parameter keys: the unlocked keys of an encrypted backup: its `Manifest.db` is then decrypted
  ///   into a private folder (removed before returning) and read there. Backups from before iOS 10.2
  ///   have no `ManifestKey` and a plaintext `Manifest.db`, which is read as is.
  /// - Throws: ``BackupError``.
  package func readListing(keys: BackupKeys? = nil) throws(BackupError) -> ManifestListing {
    if let keys, metadata.manifestKey != nil {
      let folder = try PrivateFolder(purpose: manifestPath)
      defer { folder.remove() }
      try keys.decryptManifest(of: self, to: folder.path + "/Manifest.db")
      do {
        return try ManifestDatabase(path: folder.path + "/Manifest.db", displayName: manifestPath)
          .dittoListing()
      } catch .notADatabase {
        throw .decryptionFailed(
          file: manifestPath, reason: "the decrypted manifest is not an SQLite database")
      }
    }
    if metadata.isEncrypted == true, keys == nil {
      throw .encrypted(backup: path, reason: "Manifest.plist says IsEncrypted = true")
    }
    let manifest: ManifestDatabase
    do {
      manifest = try ManifestDatabase(path: manifestPath)
    } catch .notFound {
      if try Self.isRegularFile(path + "/Manifest.mbdb") {
        throw .unsupportedFormat(
          backup: path,
          reason: "it has Manifest.mbdb instead of Manifest.db: made by iOS 9 or earlier")
      }
      throw .notABackup(path: path, reason: "no Manifest.db")
    } catch .notADatabase(let file, let reason) {
      if keys != nil {
        throw .decryptionFailed(
          file: file,
          reason: "no ManifestKey in Manifest.plist, and the file is not an SQLite database")
      }
      guard metadata.isEncrypted == false else {
        throw .encrypted(
          backup: path,
          reason:
            "Manifest.db is not an SQLite database and Manifest.plist does not say the backup is unencrypted"
        )
      }
      throw .notADatabase(
        file: file,
        reason:
          "\(reason), although Manifest.plist says the backup is not encrypted: the file is damaged"
      )
    }
    return try manifest.dittoListing()
  }

  /// Where `entry`'s contents are stored: `<backup>/ab/abcdef…`, else `<backup>/abcdef…` (old layout).
  ///
  /// - Returns: the path and its `lstat`, or nil when neither exists.
  /// - Throws: ``FileAccessError`` when looking fails for another reason than "not found".
  package func storedFile(for entry: ManifestEntry) throws(FileAccessError) -> (
    path: String, status: FileStatus
  )? {
    for relative in [entry.storedPath, entry.fileID] {
      let candidate = path + "/" + relative
      if let status = try FileStatus.of(path: candidate) { return (candidate, status) }
    }
    return nil
  }

  static func isRegularFile(_ path: String) throws(BackupError) -> Bool {
    do {
      return try FileStatus.of(path: path)?.kind == .regular
    } catch {
      throw .unreadable(file: path, reason: error.reason)
    }
  }
}

/// Finds backup folders: the folder given, or the backups inside it.
package enum BackupLocator {
  /// Files whose presence makes a folder a backup.
  package static let markerFiles = ["Manifest.db", "Manifest.plist", "Info.plist", "Manifest.mbdb"]
  /// Subfolders examined at most.
  package static let maximumChildren = 10_000

  /// The backup folders at `path`: `[path]` when it is one, else its subfolders that are, by name.
  ///
  /// `path` itself may be a symbolic link to a folder (a backup folder moved to another disk); links
  /// below it are skipped.
  ///
  /// - Throws: ``BackupError``: `.notFound`, `.unreadable`, or `.notABackup` when no backup is there.
  package static func locate(_ path: String) throws(BackupError) -> [String] {
    var root = path
    while root.count > 1, root.hasSuffix("/") { root.removeLast() }
    try requireFolder(root)
    if try isBackupFolder(root) { return [root] }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    } catch {
      throw .unreadable(file: root, reason: "cannot list the folder: \(error.localizedDescription)")
    }
    var found: [String] = []
    for name in names.prefix(maximumChildren) where !name.hasPrefix(".") {
      let child = root == "/" ? "/" + name : root + "/" + name
      let status: FileStatus?
      do {
        status = try FileStatus.of(path: child)
      } catch {
        continue
      }
      guard status?.kind == .directory else { continue }
      if try isBackupFolder(child) { found.append(child) }
    }
    guard !found.isEmpty else {
      throw .notABackup(
        path: root,
        reason: "no Manifest.db, Manifest.plist or Info.plist in it or in any of its subfolders")
    }
    return found
  }

  static func isBackupFolder(_ path: String) throws(BackupError) -> Bool {
    for marker in markerFiles where try Backup.isRegularFile(path + "/" + marker) {
      return true
    }
    return false
  }

  private static func requireFolder(_ path: String) throws(BackupError) {
    let status: FileStatus?
    do {
      status = try FileStatus.following(path: path)
    } catch {
      throw .unreadable(file: path, reason: error.reason)
    }
    guard let status else { throw .notFound(path: path) }
    guard status.kind == .directory else {
      throw .notABackup(path: path, reason: "it is a \(status.kind.humanName), not a folder")
    }
  }
}
