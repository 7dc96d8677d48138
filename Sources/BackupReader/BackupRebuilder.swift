import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns a stored file's bytes into the original file's bytes.
package protocol BackupContentReader {
  /// Writes the contents of `entry`, stored in `source`, to a new file at `destination` (created
  /// exclusively, never overwriting).
  ///
  /// - Returns: the number of bytes written.
  /// - Throws: ``FileAccessError`` or ``BackupError``.
  func copy(_ entry: ManifestEntry, from source: ReadOnlyFile, to destination: String) throws
    -> Int64
}

/// The contents of an unencrypted backup: the stored file is the original, copied as is.
package struct PlainContentReader: BackupContentReader {
  package init() {}

  package func copy(_ entry: ManifestEntry, from source: ReadOnlyFile, to destination: String)
    throws -> Int64
  {
    try source.copy(to: destination)
  }
}

/// What happened to one file row while rebuilding.
package struct RebuiltFile: Sendable, Equatable {
  /// How it ended.
  package enum Status: String, Sendable, Equatable {
    /// Copied, and its size matches the manifest (or the manifest records none).
    case copied
    /// Copied, but its size differs from the manifest's `Size`.
    case sizeMismatch = "size_mismatch"
    /// The manifest lists it, but the backup folder has no stored file for it.
    case missing
    /// The stored file exists but could not be read or written out.
    case failed
    /// Not recreated: its path or fileID is unsafe.
    case refused
    /// Not recreated: a link or special file.
    case skipped
  }

  package var domain: String
  package var relativePath: String
  /// `Size` from the manifest, when recorded.
  package var expectedBytes: Int64?
  /// Bytes written to the rebuilt file.
  package var copiedBytes: Int64?
  package var status: Status
  /// Why, for every status but `copied` (names the file and the cause).
  package var reason: String?
  /// True when the engine reads this file: a store or its sidecars, or the App Group defaults.
  package var isEngineInput: Bool
}

/// What a rebuild did.
package struct RebuildReport: Sendable, Equatable {
  /// The App Group container rebuilt (always created, even when the backup lists nothing for it).
  package var container: String
  /// The app's home rebuilt, when the backup holds the app's domain.
  package var home: String?
  /// Every file row, in manifest order.
  package var files: [RebuiltFile] = []
  /// Folders created.
  package var folders = 0
  /// Folder rows that could not be created.
  package var folderProblems: [String] = []

  /// Files the engine reads that could not be rebuilt: the recovery may be incomplete.
  package var failedEngineInputs: [RebuiltFile] {
    files.filter {
      $0.isEngineInput && [.missing, .failed, .refused].contains($0.status)
    }
  }
}

/// Recreates Ditto's containers from a backup's stored files, in a folder of our own.
///
/// Each Ditto domain becomes one subfolder of ``output`` named after the domain
/// (`AppDomainGroup-group.io.kern.ditto/`, `AppDomain-io.kern.Ditto/`), holding its files at their
/// relative paths; the app's domain spelled `AppDomain-io.kern.ditto` also goes to
/// `AppDomain-io.kern.Ditto/` (a file listed under both spellings is copied from the real one; the
/// other is skipped). Paths with `..`, `.`, empty components or a leading `/` are refused, so nothing is
/// ever written outside ``output``. Files are created exclusively (`O_EXCL | O_NOFOLLOW`), mode 0600,
/// and streamed in chunks. The backup folder is only ever read.
package struct BackupRebuilder {
  package let backup: Backup
  /// The folder to rebuild into; it must exist (and should be empty).
  package let output: String

  package init(backup: Backup, output: String) {
    self.backup = backup
    var trimmed = output
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    self.output = trimmed
  }

  /// The folder that holds `domain`'s files: `AppDomain-io.kern.Ditto` for the app's domain in either
  /// spelling, else the domain's own name.
  package func folder(for domain: String) -> String {
    output + "/" + (DittoDomain.isPlainAppDomain(domain) ? DittoDomain.appDomain : domain)
  }

  /// Rebuilds every row of `listing`; `progress`, when given, is told after each file the bytes
  /// done and the total the manifest records (for a progress line).
  package func rebuild(
    _ listing: ManifestListing, contents: any BackupContentReader = PlainContentReader(),
    progress: ((_ done: Int64, _ total: Int64) -> Void)? = nil
  ) -> RebuildReport {
    let total = listing.files.reduce(Int64(0)) { $0 + Int64($1.expectedBytes ?? 0) }
    var done: Int64 = 0
    var report = RebuildReport(container: folder(for: DittoDomain.appGroupDomain))
    report.home = homeDomain(in: listing).map(folder(for:))
    let folders = Set(listing.entries.map { folder(for: $0.domain) }).union([report.container])
    for domainFolder in folders.sorted() {
      do {
        try makeDirectory(domainFolder)
      } catch {
        report.folderProblems.append(error.description)
      }
    }
    // The files of the app's domain as real backups spell it, which win over the other spelling.
    let realSpelling = Set(
      listing.entries.filter { $0.kind == .file && $0.domain == DittoDomain.appDomain }
        .map(\.relativePath))
    for entry in listing.entries {
      switch entry.kind {
      case .directory:
        if let problem = entry.relativePathProblem {
          report.folderProblems.append("\(entry.domain)/\(entry.relativePath): refused: \(problem)")
          continue
        }
        guard !entry.relativePath.isEmpty else { continue }
        do {
          try makeDirectories(entry.relativePath, under: folder(for: entry.domain))
          report.folders += 1
        } catch {
          report.folderProblems.append(error.description)
        }
      case .file
      where entry.domain != DittoDomain.appDomain
        && DittoDomain.isPlainAppDomain(entry.domain)
        && realSpelling.contains(entry.relativePath):
        var file = RebuiltFile(entry)
        file.status = .skipped
        file.reason = "also listed under \(DittoDomain.appDomain), whose copy is used"
        report.files.append(file)
      case .file:
        report.files.append(rebuildFile(entry, contents: contents))
        done += Int64(entry.expectedBytes ?? 0)
        progress?(done, total)
      case .symbolicLink, .other:
        var file = RebuiltFile(entry)
        file.status = .skipped
        file.reason = entry.kind == .symbolicLink ? "a symbolic link" : "not a regular file"
        report.files.append(file)
      }
    }
    return report
  }

  /// The app domain whose folder is passed to the engine as the home: the name without a team prefix
  /// (either spelling) first.
  func homeDomain(in listing: ManifestListing) -> String? {
    let appDomains = Set(listing.entries.filter { $0.dittoDomain == .app }.map(\.domain))
    return appDomains.sorted().first(where: DittoDomain.isPlainAppDomain)
      ?? appDomains.sorted().first
  }

  private func rebuildFile(_ entry: ManifestEntry, contents: any BackupContentReader)
    -> RebuiltFile
  {
    var file = RebuiltFile(entry)
    if let problem = entry.relativePathProblem ?? entry.fileIDProblem {
      file.status = .refused
      file.reason = problem
      return file
    }
    if entry.relativePath.isEmpty {
      file.status = .refused
      file.reason = "a file row with an empty path"
      return file
    }
    let stored: (path: String, status: FileStatus)?
    do {
      stored = try backup.storedFile(for: entry)
    } catch {
      file.status = .failed
      file.reason = error.description
      return file
    }
    guard let stored else {
      file.status = .missing
      file.reason = "\(backup.path)/\(entry.storedPath): no such file in the backup"
      return file
    }
    let root = folder(for: entry.domain)
    let destination = root + "/" + entry.relativePath
    do {
      let source = try ReadOnlyFile(path: stored.path)
      let components = entry.relativePath.split(separator: "/").map(String.init)
      if components.count > 1 {
        try makeDirectories(components.dropLast().joined(separator: "/"), under: root)
      }
      if try FileStatus.of(path: destination) != nil {
        file.status = .failed
        file.reason =
          "\(entry.domain)/\(entry.relativePath): listed twice in the manifest (or by case)"
        return file
      }
      // The copy creates `destination` exclusively and removes its own partial output on failure,
      // so the engine never reads half a file and nothing that was already there is touched.
      let written = try contents.copy(entry, from: source, to: destination)
      file.copiedBytes = written
      if let expected = entry.expectedBytes, expected != written {
        file.status = .sizeMismatch
        file.reason =
          "\(entry.domain)/\(entry.relativePath): \(written) bytes, the manifest says \(expected)"
      } else {
        file.status = .copied
      }
    } catch {
      file.status = .failed
      file.reason = "\(error)"
    }
    return file
  }

  // MARK: - Folders

  /// Creates each component of `relative` below `root` (which must exist), refusing links.
  private func makeDirectories(_ relative: String, under root: String) throws(FileAccessError) {
    var current = root
    for component in relative.split(separator: "/") {
      current += "/" + component
      try makeDirectory(current)
    }
  }

  /// Creates `path` (mode 0700), or accepts an existing folder that is not a link.
  private func makeDirectory(_ path: String) throws(FileAccessError) {
    if mkdir(path, 0o700) == 0 { return }
    let code = errno
    guard code == EEXIST, try FileStatus.of(path: path)?.kind == .directory else {
      throw FileAccessError(path: path, operation: "create the folder", code: code)
    }
  }
}

extension RebuiltFile {
  /// A row not yet rebuilt.
  init(_ entry: ManifestEntry) {
    domain = entry.domain
    relativePath = entry.relativePath
    expectedBytes = entry.expectedBytes
    status = .failed
    isEngineInput = Self.isEngineInput(entry)
  }

  static func isEngineInput(_ entry: ManifestEntry) -> Bool {
    let name = (entry.relativePath.split(separator: "/").last.map(String.init) ?? "").lowercased()
    // The store, its `-wal` and `-journal`; never its `-shm`, an index SQLite rebuilds from the
    // `-wal` (a snapshot never copies it): one that cannot be rebuilt takes nothing from the file.
    if name.hasPrefix("ditto.sqlite") { return !name.hasSuffix("-shm") }
    return entry.dittoDomain == .appGroup
      && entry.relativePath == "Library/Preferences/group.io.kern.ditto.plist"
  }
}
