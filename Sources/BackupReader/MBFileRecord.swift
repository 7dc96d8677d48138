import Foundation
import LegacyStore

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
// How UIDs reach Swift: PropertyListSerialization in swift-corelibs-foundation (Linux) returns an
// opaque `_NSKeyedArchiverUID` object whose stored property `value` holds the index; Apple's Foundation
// returns a `CFKeyedArchiverUID` whose description ends in `{value = n}`. A dictionary `{CF$UID: n}`
// (how XML spells a UID) is accepted too. ``KeyedArchiveUID`` handles all three; a test pins the Linux
// shape, so a Foundation change fails CI instead of silently losing rows.

/// Why an MBFile blob could not be decoded.
public struct MBFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

/// The metadata of one backed-up file, from its MBFile blob.
public struct MBFileRecord: Sendable, Equatable {
  public var size: Int64?
  public var mode: UInt32?
  public var lastModified: Int64?
  public var protectionClass: Int64?
  public var encryptionKey: [UInt8]?
  public var relativePath: String?
  /// Keys present with an unexpected type (key names only).
  public var problems: [String] = []

  public init(
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
  public static let maximumBytes = 1 << 20

  /// Decodes an MBFile blob.
  ///
  /// - Throws: ``MBFileError`` when the archive is not well formed (see the format comment).
  public static func decode(_ bytes: [UInt8]) throws(MBFileError) -> MBFileRecord {
    guard bytes.count <= maximumBytes else {
      throw MBFileError("\(bytes.count) bytes is too large for an MBFile record")
    }
    guard !bytes.isEmpty else { throw MBFileError("the record is empty") }
    let object: Any
    do {
      object = try UntrustedPropertyList.decode(bytes).value
    } catch {
      throw MBFileError(error.reason)
    }
    guard let archive = object as? [String: Any] else {
      throw MBFileError("not a keyed archive (the top level is not a dictionary)")
    }
    guard let objects = archive["$objects"] as? [Any] else {
      throw MBFileError("not a keyed archive (no $objects array)")
    }
    guard let top = archive["$top"] as? [String: Any], let rootValue = top["root"] else {
      throw MBFileError("not a keyed archive (no $top.root)")
    }
    guard let rootIndex = KeyedArchiveUID.index(of: rootValue) else {
      throw MBFileError("$top.root is not a UID")
    }
    guard objects.indices.contains(rootIndex), let root = objects[rootIndex] as? [String: Any]
    else {
      throw MBFileError("$top.root (\(rootIndex)) is not a dictionary in $objects")
    }
    var record = MBFileRecord()
    var reader = ObjectReader(objects: objects, dictionary: root)
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
public enum EntryKind: String, Sendable, Equatable {
  case file, directory, symbolicLink, other

  /// From `Mode` when the blob has it (type bits), else from the row's `flags` (1, 2, 4).
  public init(mode: UInt32?, flags: Int64?) {
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

/// Reads values out of one archived dictionary, following UIDs into `$objects`.
private struct ObjectReader {
  let objects: [Any]
  let dictionary: [String: Any]
  var problems: [String] = []

  /// The value at `key`, with a UID replaced by the object it points at; nil for absent or `$null`.
  func resolved(_ key: String) -> Any? {
    guard let value = dictionary[key] else { return nil }
    guard let index = KeyedArchiveUID.index(of: value) else { return value }
    guard index != 0, objects.indices.contains(index) else { return nil }
    return objects[index]
  }

  mutating func note<T>(_ key: String) -> T? {
    problems.append(key)
    return nil
  }

  mutating func integer(_ key: String) -> Int64? {
    guard let value = resolved(key) else { return nil }
    if PropertyListNumber.isBoolean(value) { return note(key) }
    if let number = value as? Int64 { return number }
    return note(key)
  }

  mutating func string(_ key: String) -> String? {
    guard let value = resolved(key) else { return nil }
    if let text = value as? String { return text }
    return note(key)
  }

  mutating func data(_ key: String) -> [UInt8]? {
    guard let value = resolved(key) else { return nil }
    if let data = value as? Data { return Array(data) }
    // NSMutableData archives as { NS.data: <data>, $class: UID }.
    if let wrapper = value as? [String: Any], let data = wrapper["NS.data"] as? Data {
      return Array(data)
    }
    return note(key)
  }
}

/// The index a keyed-archive UID holds, whichever way Foundation surfaces it.
public enum KeyedArchiveUID {
  /// The UID's index, or nil when `value` is not a UID.
  public static func index(of value: Any) -> Int? {
    if let dictionary = value as? [String: Any] {
      guard dictionary.count == 1, let number = dictionary["CF$UID"] else { return nil }
      guard !PropertyListNumber.isBoolean(number), let index = number as? Int, index >= 0 else {
        return nil
      }
      return index
    }
    let typeName = String(describing: type(of: value))
    guard typeName.contains("KeyedArchiverUID") else { return nil }
    // swift-corelibs-foundation: a Swift class with a stored `value: UInt32`.
    for child in Mirror(reflecting: value).children where child.label == "value" {
      if let number = child.value as? UInt32 { return Int(number) }
      if let number = child.value as? Int { return number >= 0 ? number : nil }
    }
    // Apple's CFKeyedArchiverUID: "<CFKeyedArchiverUID 0x…>{value = 1}".
    let text = String(describing: value)
    guard let start = text.range(of: "{value = ", options: .backwards),
      let end = text[start.upperBound...].firstIndex(of: "}")
    else { return nil }
    return Int(text[start.upperBound..<end]).flatMap { $0 >= 0 ? $0 : nil }
  }
}

/// Telling plist booleans from integers: Swift casts an `NSNumber` holding 0 or 1 to `Bool`, so `is Bool`
/// cannot. On Linux a plist boolean arrives as a Swift `Bool`; on Apple platforms as an `NSNumber` whose
/// `objCType` is `c` (integers from a plist are `i`, `q` or `Q`).
enum PropertyListNumber {
  static func isBoolean(_ value: Any) -> Bool {
    if type(of: value) == Bool.self { return true }
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) == "c"
  }
}
