import Foundation
import PropertyLists

// MBFILE: THE `file` COLUMN OF Manifest.db (facts: shared/reference/ios-backup-format.md §3.1)
//
// A binary property list written by NSKeyedArchiver:
//
//   KEY          VALUE
//   $archiver    "NSKeyedArchiver"
//   $version     100000
//   $top         { root: UID(n) }        n indexes $objects; the MBFile dictionary (usually n = 1)
//   $objects     [ "$null", {MBFile}, … ] object table; UID(0) is "$null", i.e. nil
//
//   MBFILE KEY       TYPE                   MEANING
//   Size             integer                logical size in bytes (0 for folders)
//   Mode             integer                POSIX mode: 0x8000 file, 0x4000 folder, 0xA000 link
//   LastModified     integer                seconds since 1970
//   ProtectionClass  integer                Data Protection class of the file
//   EncryptionKey    UID → data, or → { NS.data: data }   4-byte LE class + wrapped key (encrypted only)
//   RelativePath     UID → string           the row's relativePath again
//
// Every MBFile key is optional: a missing key is nil, a key of the wrong type is nil and noted.
// The archive itself is required to be well formed: (1) a dictionary (2) with an `$objects` array and
// (3) a `$top` dictionary whose `root` is a UID (4) indexing a dictionary in `$objects`. Otherwise
// decoding throws ``MBFileError``, and the row is reported with that reason, never guessed at.
//
// The blob is decoded by the package's own property-list reader, where a UID is a case of its own
// (binary) or the dictionary {CF$UID: n} (XML), and read through `KeyedArchive`: the same code on
// every platform, no Foundation object in the way.

/// Why an MBFile blob could not be decoded.
package struct MBFileError: Error, Equatable, Sendable, CustomStringConvertible {
  package let reason: String
  package init(_ reason: String) { self.reason = reason }
  package var description: String { reason }
}

/// The metadata of one backed-up file, from its MBFile blob.
package struct MBFileRecord: Sendable, Equatable {
  package var size: Int64?
  package var mode: UInt32?
  package var lastModified: Int64?
  package var protectionClass: Int64?
  package var encryptionKey: [UInt8]?
  package var relativePath: String?
  /// Keys present with an unexpected type (key names only).
  package var problems: [String] = []

  package init(
    size: Int64? = nil, mode: UInt32? = nil, lastModified: Int64? = nil,
    protectionClass: Int64? = nil, encryptionKey: [UInt8]? = nil, relativePath: String? = nil
  ) {
    self.size = size
    self.mode = mode
    self.lastModified = lastModified
    self.protectionClass = protectionClass
    self.encryptionKey = encryptionKey
    self.relativePath = relativePath
  }

  /// Larger blobs are refused (real ones are a few hundred bytes).
  package static let maximumBytes = 1 << 20

  /// Decodes an MBFile blob.
  ///
  /// - Throws: ``MBFileError`` when the archive is not well formed (see the format comment).
  package static func decode(_ bytes: [UInt8]) throws(MBFileError) -> MBFileRecord {
    guard bytes.count <= maximumBytes else {
      throw MBFileError("\(bytes.count) bytes is too large for an MBFile record")
    }
    guard !bytes.isEmpty else { throw MBFileError("the record is empty") }
    let archive: KeyedArchive
    do {
      archive = try KeyedArchive(try PropertyListReader.decode(bytes).value)
    } catch let error as PropertyListError {
      throw MBFileError(error.reason)
    } catch let error as KeyedArchiveError {
      throw MBFileError(error.reason)
    } catch {
      throw MBFileError("\(error)")
    }
    var record = MBFileRecord()
    var reader = ObjectReader(archive: archive)
    record.size = reader.integer("Size").flatMap { $0 >= 0 ? $0 : reader.note("Size") }
    record.mode = reader.integer("Mode").flatMap {
      $0 >= 0 && $0 <= Int64(UInt32.max) ? UInt32($0) : reader.note("Mode")
    }
    record.lastModified = reader.integer("LastModified")
    record.protectionClass = reader.integer("ProtectionClass")
    record.encryptionKey = reader.data("EncryptionKey")
    record.relativePath = reader.string("RelativePath")
    record.problems = reader.problems
    return record
  }
}

/// What kind of object a manifest row describes.
package enum EntryKind: String, Sendable, Equatable {
  case file, directory, symbolicLink, other

  /// From `Mode` when the blob has it (type bits), else from the row's `flags` (1, 2, 4).
  package init(mode: UInt32?, flags: Int64?) {
    if let mode {
      switch mode & 0xF000 {
      case 0x8000: self = .file
      case 0x4000: self = .directory
      case 0xA000: self = .symbolicLink
      default: self = .other
      }
      return
    }
    switch flags {
    case 1: self = .file
    case 2: self = .directory
    case 4: self = .symbolicLink
    default: self = .other
    }
  }
}

/// Reads values out of the archived root object, following UIDs into `$objects`.
private struct ObjectReader {
  let archive: KeyedArchive
  var problems: [String] = []

  mutating func note<T>(_ key: String) -> T? {
    problems.append(key)
    return nil
  }

  mutating func integer(_ key: String) -> Int64? {
    guard let value = archive[key] else { return nil }
    if let number = value.integer { return number }
    return note(key)
  }

  mutating func string(_ key: String) -> String? {
    guard let value = archive[key] else { return nil }
    if let text = value.string { return text }
    return note(key)
  }

  mutating func data(_ key: String) -> [UInt8]? {
    guard let value = archive[key] else { return nil }
    if let data = value.data { return data }
    // NSMutableData archives as { NS.data: <data>, $class: UID }.
    if let data = value["NS.data"]?.data { return data }
    return note(key)
  }
}
