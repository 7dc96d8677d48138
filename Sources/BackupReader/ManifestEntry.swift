/// One row of `Manifest.db` that belongs to Ditto.
package struct ManifestEntry: Sendable, Equatable {
  /// `fileID`: the stored file's name (checked to be hexadecimal before it is ever used in a path).
  package var fileID: String
  /// `domain`, exactly as in the manifest.
  package var domain: String
  /// Which Ditto container the domain is.
  package var dittoDomain: DittoDomain
  /// `relativePath` inside the domain (`''` is the domain's root folder).
  package var relativePath: String
  /// `flags` (1 file, 2 folder, 4 link); nil when NULL.
  package var flags: Int64?
  /// The decoded `file` blob; nil when the column is NULL or could not be decoded.
  package var record: MBFileRecord?
  /// Why the `file` blob could not be decoded, when it could not.
  package var recordProblem: String?

  package init(
    fileID: String, domain: String, dittoDomain: DittoDomain, relativePath: String,
    flags: Int64?, record: MBFileRecord? = nil, recordProblem: String? = nil
  ) {
    self.fileID = fileID
    self.domain = domain
    self.dittoDomain = dittoDomain
    self.relativePath = relativePath
    self.flags = flags
    self.record = record
    self.recordProblem = recordProblem
  }

  /// File, folder or link: from the blob's `Mode` when present, else from `flags`.
  package var kind: EntryKind { EntryKind(mode: record?.mode, flags: flags) }

  /// The size the manifest records (`Size`), when it does.
  package var expectedBytes: Int64? { record?.size }

  /// True when a stored file of `storedBytes` holds what the manifest records: the same size, or,
  /// in an encrypted backup (the file has its own key), the size AES-CBC with PKCS#7 padding gives
  /// (1 to 16 bytes more, a multiple of 16). True when the manifest records no size.
  package func storedSizeMatches(_ storedBytes: Int64) -> Bool {
    guard let expected = expectedBytes else { return true }
    guard record?.encryptionKey != nil else { return storedBytes == expected }
    return storedBytes % 16 == 0 && storedBytes > expected && storedBytes <= expected + 16
  }

  /// The stored file's path relative to the backup folder, in the iOS 10+ layout (`ab/abcdef…`).
  package var storedPath: String { String(fileID.prefix(2)) + "/" + fileID }

  /// Why `fileID` cannot name a stored file, or nil when it can (hexadecimal, 2 to 128 digits).
  package var fileIDProblem: String? {
    guard fileID.utf8.count >= 2, fileID.utf8.count <= 128 else {
      return "fileID has \(fileID.utf8.count) characters"
    }
    let isHex = fileID.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F"))
    }
    return isHex ? nil : "fileID is not hexadecimal"
  }

  /// Why `relativePath` must not be recreated, or nil when it is safe below a folder.
  ///
  /// Refused: absolute paths, `..` and `.` components, empty components (`a//b`), NUL bytes, and
  /// components longer than 255 bytes. The empty path (the domain root) is safe.
  package var relativePathProblem: String? {
    Self.pathProblem(relativePath)
  }

  static func pathProblem(_ path: String) -> String? {
    // Checked on the UTF-8 bytes, as the kernel resolves the path. Compared as `Character`s, a "/"
    // followed by a combining mark is one grapheme that is not "/": "../\u{301}x" would hide both
    // its separator and its ".." component, and be written one folder up.
    let bytes = Array(path.utf8)
    if bytes.isEmpty { return nil }
    if bytes[0] == UInt8(ascii: "/") { return "the path is absolute" }
    if bytes.contains(0) { return "the path contains a NUL byte" }
    for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      if component.isEmpty { return "the path has an empty component" }
      if component.elementsEqual("..".utf8) || component.elementsEqual(".".utf8) {
        return "the path has a '\(String(decoding: component, as: UTF8.self))' component"
      }
      if component.count > 255 { return "a path component is longer than 255 bytes" }
    }
    return nil
  }
}

/// The Ditto rows of one manifest, and what the manifest holds besides.
package struct ManifestListing: Sendable, Equatable {
  /// Rows of Ditto's domains, by domain then path.
  package var entries: [ManifestEntry] = []
  /// Rows in the whole `Files` table.
  package var totalRows: Int64 = 0
  /// Rows of Ditto's domains that could not be used at all (NULL or non-text `fileID`/`relativePath`).
  package var problems: [String] = []

  package init() {}

  /// Regular files (by `Mode`, else `flags`).
  package var files: [ManifestEntry] { entries.filter { $0.kind == .file } }

  /// True when a file with a store's name and a non-zero recorded size is listed in a Ditto domain.
  package var hasDittoStore: Bool { largestStore != nil }

  /// The largest listed store file (`Ditto.sqlite` and its case variants), by recorded size. A store
  /// whose size the manifest does not record (its file record could not be read) still counts, after
  /// every store of known size: an unknown size is not an empty store. Only a recorded 0 is empty.
  package var largestStore: ManifestEntry? {
    var best: ManifestEntry?
    var unknownSize: ManifestEntry?
    for entry in files where Self.isStoreName(entry.relativePath) {
      guard let size = entry.expectedBytes else {
        if unknownSize == nil { unknownSize = entry }
        continue
      }
      if size > 0, size > (best?.expectedBytes ?? 0) { best = entry }
    }
    return best ?? unknownSize
  }

  /// True when a store or a `-wal` of a store's name is listed with a size that is not a recorded 0:
  /// the legacy data a recovery reads. A `-wal` alone is what a 3.0.0 device that deleted the main
  /// file leaves, and it holds every committed row: the backup holds the dittos as much as one with
  /// the store.
  package var holdsLegacyStoreData: Bool {
    hasDittoStore
      || files.contains { entry in
        Self.isWALName(entry.relativePath) && entry.expectedBytes != 0
      }
  }

  static let storeNames: Set<String> = ["ditto.sqlite"]

  static func isWALName(_ relativePath: String) -> Bool {
    let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
    return name.lowercased() == "ditto.sqlite-wal"
  }

  static func isStoreName(_ relativePath: String) -> Bool {
    let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
    return storeNames.contains(name.lowercased())
  }
}
