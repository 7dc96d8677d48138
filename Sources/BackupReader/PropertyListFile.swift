import Foundation
import PropertyLists
import SafeFiles

/// Reads a property list file of a backup (`Info.plist`, `Manifest.plist`, `Status.plist`).
///
/// XML and binary are both accepted (the package's own reader, the same on every platform). The
/// file is opened with `O_NOFOLLOW | O_NONBLOCK` and must be a regular file; it is only read.
enum PropertyListFile {
  /// Larger files are refused rather than loaded (`Info.plist` holds app icons and can be large).
  static let maximumBytes: Int64 = 256 << 20

  /// The file's top-level dictionary; nil when no file exists at `path`.
  ///
  /// - Throws: ``BackupError/unreadable(file:reason:)`` or ``BackupError/malformed(file:reason:)``.
  static func load(_ path: String) throws(BackupError) -> PropertyListDictionary? {
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(path: path)
    } catch .access(let error) where error.isNotFound {
      return nil
    } catch {
      throw .unreadable(file: path, reason: error.description)
    }
    guard file.size <= maximumBytes else {
      throw .malformed(file: path, reason: "\(file.size) bytes is too large for a property list")
    }
    let bytes: [UInt8]
    do {
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch {
      throw .unreadable(file: path, reason: error.description)
    }
    return try parse(bytes, file: path)
  }

  /// Parses `bytes` as a property list whose top level is a dictionary.
  ///
  /// - Throws: ``BackupError/malformed(file:reason:)``.
  static func parse(_ bytes: [UInt8], file: String) throws(BackupError)
    -> PropertyListDictionary
  {
    guard !bytes.isEmpty else {
      throw .malformed(file: file, reason: "the file is empty (0 bytes)")
    }
    let value: PropertyListValue
    do {
      value = try PropertyListReader.decode(bytes).value
    } catch {
      throw .malformed(file: file, reason: error.reason)
    }
    guard case .dictionary(let dictionary) = value else {
      throw .malformed(file: file, reason: "the property list is not a dictionary")
    }
    return dictionary
  }
}

/// Typed reads of property-list values: a value of the wrong type is noted, never trusted.
struct PropertyListValues {
  let values: PropertyListDictionary
  /// The file name used in notes (`Info.plist`).
  let file: String
  /// Keys present with an unexpected type, as `Info.plist: Device Name is not a string`.
  var problems: [String] = []

  init(_ values: PropertyListDictionary, file: String) {
    self.values = values
    self.file = file
  }

  mutating func string(_ key: String) -> String? {
    guard let value = values[key] else { return nil }
    if let text = value.string { return text }
    problems.append("\(file): \(key) is not a string")
    return nil
  }

  /// A date, or a string in ISO 8601 (as `Status.plist` sometimes writes it).
  mutating func date(_ key: String) -> Date? {
    guard let value = values[key] else { return nil }
    if let date = value.date { return date }
    if let text = value.string, let date = ISO8601DateFormatter().date(from: text) {
      return date
    }
    problems.append("\(file): \(key) is not a date")
    return nil
  }

  mutating func bool(_ key: String) -> Bool? {
    guard let value = values[key] else { return nil }
    if let flag = value.bool { return flag }
    problems.append("\(file): \(key) is not a boolean")
    return nil
  }

  mutating func data(_ key: String) -> [UInt8]? {
    guard let value = values[key] else { return nil }
    if let data = value.data { return data }
    problems.append("\(file): \(key) is not data")
    return nil
  }

  mutating func dictionary(_ key: String) -> PropertyListValues? {
    guard let value = values[key] else { return nil }
    if let dictionary = value.dictionary {
      return PropertyListValues(dictionary, file: "\(file) \(key)")
    }
    problems.append("\(file): \(key) is not a dictionary")
    return nil
  }
}
