import SafeFiles

/// Decides, without letting SQLite open the file, whether a path may be opened as our library.
///
/// A read-write SQLite open is not harmless: closing a WAL database checkpoints its `-wal` into the main
/// file and deletes it. So a file that is not ours (a legacy `Ditto.sqlite` passed by mistake) must be
/// recognised from its raw header bytes and refused before SQLite ever sees it.
///
///   HEADER OFFSET  SIZE  MEANING (https://www.sqlite.org/fileformat2.html#the_database_header)
///   0              16    "SQLite format 3\0"
///   28             4     database size in pages (big-endian)
///   68             4     application_id (big-endian)
enum LibraryFileCheck {
  /// What the bytes on disk say.
  enum Verdict: Equatable {
    /// Nothing there: create a new library.
    case absent
    /// A zero-byte file or an SQLite file with no content: safe to initialise.
    case adoptable
    /// A file carrying our application_id.
    case ours
  }

  static func inspect(path: String) throws(LibraryError) -> Verdict {
    let status: FileStatus?
    do {
      status = try FileStatus.of(path: path)
    } catch {
      throw .cannotOpen(file: path, reason: error.description)
    }
    guard let status else { return .absent }
    guard status.kind == .regular else {
      throw .notALibrary(file: path, reason: "it is a \(status.kind.humanName)")
    }
    let header: [UInt8]
    do {
      header = try ReadOnlyFile(path: path).read(count: 100, at: 0)
    } catch {
      throw .cannotOpen(file: path, reason: "\(error)")
    }
    if header.isEmpty {
      // A zero-byte file holds nothing to lose, unless a -wal beside it holds someone's pages.
      if try hasNonEmptyWAL(path) {
        throw .notALibrary(file: path, reason: "an empty file with a non-empty -wal beside it")
      }
      return .adoptable
    }
    guard header.count == 100, Array(header.prefix(16)) == Array("SQLite format 3\0".utf8) else {
      throw .notALibrary(file: path, reason: "not an SQLite database")
    }
    let applicationID = Int32(bitPattern: bigEndian(header, at: 68))
    if applicationID == LibrarySchema.applicationID { return .ours }
    let pages = bigEndian(header, at: 28)
    if applicationID == 0, pages <= 1, try !hasNonEmptyWAL(path) {
      return .adoptable
    }
    throw .notALibrary(
      file: path,
      reason: applicationID == 0
        ? "an SQLite database with other content" : "an SQLite database of another application")
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private static func hasNonEmptyWAL(_ path: String) throws(LibraryError) -> Bool {
    do {
      guard let wal = try FileStatus.of(path: path + "-wal") else { return false }
      return wal.kind != .regular || wal.size > 0
    } catch {
      throw .cannotOpen(file: path, reason: error.description)
    }
  }
}
