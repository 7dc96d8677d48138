import LegacyStore
import SafeFiles

/// A file that may be the 2.x store: a regular file with one of the store's names in a probed folder.
package struct LegacyCandidate: Sendable, Equatable {
  /// The root the file was found under.
  package var root: ProbeRoot
  /// The path below that root, without a leading slash (`Library/Application Support/Ditto.sqlite`).
  package var relativePath: String
  /// The full path.
  package var path: String
  /// Size of the main file in bytes.
  package var bytes: Int64
  /// Size of its `-wal` in bytes (0 when there is none): a store's data is its main file and its
  /// `-wal`; a 2.x store that was never checkpointed has a 4 KB main file and everything in the WAL.
  package var walBytes: Int64

  /// A candidate found under `root` at `relativePath` (full path `path`), `bytes` long, with a
  /// `-wal` of `walBytes`.
  package init(
    root: ProbeRoot, relativePath: String, path: String, bytes: Int64, walBytes: Int64 = 0
  ) {
    self.root = root
    self.relativePath = relativePath
    self.path = path
    self.bytes = bytes
    self.walBytes = walBytes
  }

  /// The main file and its `-wal` together.
  package var totalBytes: Int64 { bytes + walBytes }
}

extension LegacyCandidate {
  /// A file the user picked, outside the probed places.
  /// How public log lines name it: `[appgroup] Library/Application Support/Ditto.sqlite` (relative
  /// to the probed place, as the inventory does), or, for a file the user picked, only that (its
  /// name and folder are theirs).
  package var publicName: String {
    root == .picked ? "the file picked" : "[\(root.rawValue)] \(relativePath)"
  }

  /// How the seed's `legacyStoreURL: matched <path>` lines name it: the probed place in angle
  /// brackets, then the path below it (`<appgroup>/Library/Application Support/Ditto.sqlite`), so the
  /// line keeps the seed's shape and carries no absolute path; a file the user picked is only
  /// `<the file picked>`.
  package var seedPath: String {
    root == .picked ? "<the file picked>" : "<\(root.rawValue)>/\(relativePath)"
  }

  package init(pickedFile path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    self.init(root: .picked, relativePath: name, path: path, bytes: 0)
    // The sizes are only shown; the read that follows reports any error opening the file.
    do {
      bytes = try FileStatus.of(path: path)?.size ?? 0
    } catch {
      bytes = 0
    }
    walBytes = Self.walSize(of: path)
  }

  /// The size of the regular file `<path>-wal` (a link is never followed), 0 when there is none or it
  /// cannot be examined (the read reports any error).
  static func walSize(of path: String) -> Int64 {
    do {
      guard let status = try FileStatus.of(path: path + "-wal"), status.kind == .regular else {
        return 0
      }
      return status.size
    } catch {
      return 0
    }
  }
}

/// A path the probe found but did not open: something that is not a regular file has a store's
/// name (a link, a folder, a FIFO, a socket), a probed folder is a link, or a path could not be
/// examined (a folder it may not search). Never "nothing there": it is reported as found and not
/// read, and its ``error`` is transient (it counts toward nothing).
package struct SkippedCandidate: Sendable, Equatable {
  /// The root the path was found under.
  package var root: ProbeRoot
  /// The path below that root, without a leading slash.
  package var relativePath: String
  /// The full path.
  package var path: String
  /// Why it was not read.
  package var error: LegacyStoreError

  /// A path found under `root` at `relativePath` (full path `path`) and not opened, for `error`.
  package init(root: ProbeRoot, relativePath: String, path: String, error: LegacyStoreError) {
    self.root = root
    self.relativePath = relativePath
    self.path = path
    self.error = error
  }

  /// What it is ("FIFO", "symbolic link", …), or the error met examining it.
  package var reason: String {
    switch error {
    case .notARegularFile(_, let kind): kind.humanName
    case .linkedFolder: "symbolic link to a folder"
    default: error.description
    }
  }

  /// ``reason`` for a public log line: an error's description names the file, so it is left out
  /// (the line carries the error's code).
  package var publicReason: String {
    switch error {
    case .notARegularFile, .linkedFolder: reason
    default: "file that cannot be examined"
    }
  }
}

/// Where the 2.x store may be, in the seed's order.
///
/// Every entry of a probed folder whose name is `Ditto.sqlite` in any letter case is a candidate (a
/// copy made on a Mac or by hand may spell it `DITTO.SQLITE`): the directory is listed and names are
/// compared case-insensitively, rather than three spellings probed. The seed's three spellings come
/// first in each folder, in its order, then any other spelling. Every entry, of whatever kind, is
/// known by its identity (device and inode, from `lstat`): one file under several names (hard links,
/// or a case-insensitive volume answering every spelling) is one candidate, reported with the name
/// the directory holds.
package enum LegacyStoreProbe {
  /// The seed's spellings of the store's name, in its order (any other letter case is found too).
  package static let fileNames = ["Ditto.sqlite", "ditto.sqlite", "Ditto.SQLite"]
  /// Folders in the App Group container, root first.
  package static let containerFolders = [
    "", "Library/Application Support", "Library/Application Support/Ditto", "Documents",
  ]
  /// Folders in the app's own home.
  package static let homeFolders = [
    "Library/Application Support", "Library/Application Support/Ditto", "Documents",
  ]

  /// Everything the probe found, in probe order.
  package struct Findings: Sendable, Equatable {
    /// Regular files, in probe order (one entry per file, whatever names it has).
    package var candidates: [LegacyCandidate] = []
    /// Paths with a store name that are not regular files, or could not be examined.
    package var skipped: [SkippedCandidate] = []
    /// Lone `-wal` files: a store name's `-wal` exists but the store itself does not.
    package var orphanWALs: [LegacyCandidate] = []
  }

  /// True when `name` is the store's name in some letter case (ASCII: `ditto.sqlite`).
  package static func isStoreName(_ name: [UInt8]) -> Bool {
    equalsIgnoringASCIICase(name, "ditto.sqlite")
  }

  /// True when `name` is the store's `-wal` in some letter case.
  static func isWALName(_ name: [UInt8]) -> Bool {
    equalsIgnoringASCIICase(name, "ditto.sqlite-wal")
  }

  private static func equalsIgnoringASCIICase(_ name: [UInt8], _ lowercase: String) -> Bool {
    let target = Array(lowercase.utf8)
    guard name.count == target.count else { return false }
    return zip(name, target).allSatisfy { byte, wanted in
      let lower = (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
      return lower == wanted
    }
  }

  /// The names in `folder` to examine, in probe order: the seed's spellings present, in its order,
  /// then other spellings of the store's name (bytewise order), each with its `-wal` spellings.
  /// When the folder cannot be listed (searchable but not readable), the seed's spellings, probed
  /// one by one.
  static func storeNames(in folder: String) -> (stores: [String], wals: [String]) {
    let listed: [[UInt8]]
    do {
      listed = try DirectoryWalker.names(in: folder)
    } catch {
      return (fileNames, fileNames.map { $0 + "-wal" })
    }
    // Names that match are ASCII, so they are valid UTF-8.
    let stores = listed.filter(isStoreName).map { String(decoding: $0, as: UTF8.self) }
    let wals = listed.filter(isWALName).map { String(decoding: $0, as: UTF8.self) }
    let seedFirst = fileNames.filter(stores.contains) + stores.filter { !fileNames.contains($0) }
    return (seedFirst, wals)
  }

  /// Examines every probe location with `lstat` (links are never followed, nothing is opened).
  ///
  /// Each folder below a root is examined component by component: a probed folder (or one on the
  /// way) that is a symbolic link is not followed but reported, once, as skipped; one that cannot
  /// be searched is reported with its error.
  package static func probe(_ layout: ContainerLayout) -> Findings {
    var findings = Findings()
    // A handful of places: a list is cheaper than a hashed set (no generic metadata to build).
    var seen: [FileIdentity] = []
    var places: [(ProbeRoot, String, String)] = containerFolders.map {
      (.appGroup, layout.container, $0)
    }
    if let home = layout.home {
      places += homeFolders.map { (.app, home, $0) }
    }
    for (root, base, folder) in places {
      switch examineFolder(folder, under: base) {
      case .absent: continue
      case .blocked(let relative, let error):
        if !findings.skipped.contains(where: { $0.root == root && $0.relativePath == relative }) {
          findings.skipped.append(
            SkippedCandidate(
              root: root, relativePath: relative, path: base + "/" + relative, error: error))
        }
        continue
      case .present: break
      }
      let (stores, wals) = storeNames(in: folder.isEmpty ? base : base + "/" + folder)
      // The store names that name something (all of them, unless probed blind).
      var present: [String] = []
      for name in stores {
        let relative = folder.isEmpty ? name : folder + "/" + name
        let path = base + "/" + relative
        let status: FileStatus?
        do {
          status = try FileStatus.of(path: path)
        } catch {
          findings.skipped.append(
            SkippedCandidate(
              root: root, relativePath: relative, path: path,
              error: .from(error, file: path)))
          continue
        }
        // Absent (only when probing the seed's spellings blind), or already found under another name.
        guard let status else { continue }
        present.append(name)
        guard seen.appendIfNew(status.identity) else { continue }
        guard status.kind == .regular else {
          findings.skipped.append(
            SkippedCandidate(
              root: root, relativePath: relative, path: path,
              error: .notARegularFile(file: path, kind: status.kind)))
          continue
        }
        findings.candidates.append(
          LegacyCandidate(
            root: root, relativePath: relative, path: path, bytes: status.size,
            walBytes: LegacyCandidate.walSize(of: path)))
      }
      // A -wal whose store (the same spelling without -wal) is not there: 3.0.0 deleted it.
      for wal in wals where !present.contains(String(wal.dropLast(4))) {
        let relative = folder.isEmpty ? wal : folder + "/" + wal
        let path = base + "/" + relative
        do {
          if let orphan = try orphanWAL(root: root, relative: relative, path: path, seen: &seen) {
            findings.orphanWALs.append(orphan)
          }
        } catch {
          findings.skipped.append(
            SkippedCandidate(
              root: root, relativePath: relative, path: path, error: .from(error, file: path)))
        }
      }
    }
    return findings
  }

  /// What a probed folder is, examined from its root down.
  private enum FolderState {
    /// Missing (or something that cannot hold a file: a regular file, a FIFO): nothing there.
    case absent
    /// The folder, or one on the way (`relative`), is a link or cannot be examined.
    case blocked(relative: String, error: LegacyStoreError)
    case present
  }

  private static func examineFolder(_ folder: String, under base: String) -> FolderState {
    var relative = ""
    for component in folder.split(separator: "/") {
      relative = relative.isEmpty ? String(component) : relative + "/" + component
      let path = base + "/" + relative
      let status: FileStatus?
      do {
        status = try FileStatus.of(path: path)
      } catch {
        return .blocked(relative: relative, error: .from(error, file: path))
      }
      guard let status else { return .absent }
      switch status.kind {
      case .directory: continue
      case .symbolicLink: return .blocked(relative: relative, error: .linkedFolder(file: path))
      default: return .absent
      }
    }
    return .present
  }

  private static func orphanWAL(
    root: ProbeRoot, relative: String, path: String, seen: inout [FileIdentity]
  ) throws(FileAccessError) -> LegacyCandidate? {
    guard let status = try FileStatus.of(path: path), status.kind == .regular,
      status.size > 0, seen.appendIfNew(status.identity)
    else { return nil }
    return LegacyCandidate(root: root, relativePath: relative, path: path, bytes: status.size)
  }
}

extension Array where Element == FileIdentity {
  /// Appends `identity` unless present; true when it was new.
  fileprivate mutating func appendIfNew(_ identity: FileIdentity) -> Bool {
    guard !contains(identity) else { return false }
    append(identity)
    return true
  }
}
