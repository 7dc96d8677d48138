import Foundation
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder `backup recover` rebuilds into, and the checks that keep every write out of the backup.
enum OutputFolder {
  /// Creates `path` (mode 0700), or accepts an existing empty folder.
  ///
  /// - Throws: ``OutputError`` (exists, exit 73) when it exists and is not an empty folder: files
  ///   already there (another backup's, an earlier run's) are never written over; ``OutputError``
  ///   when it cannot be created.
  static func prepare(_ path: String, option: OptionSpec) throws {
    if mkdir(path, 0o700) == 0 { return }
    let code = errno
    guard code == EEXIST else {
      throw OutputError.cannotWrite(
        "\(option.synopsisName) \(path): cannot create the folder: \(String(cString: strerror(code)))"
      )
    }
    let isEmptyFolder: Bool
    do {
      isEmptyFolder =
        try FileStatus.following(path: path)?.kind == .directory
        && FileManager.default.contentsOfDirectory(atPath: path).isEmpty
    } catch {
      throw OutputError.cannotWrite("\(option.synopsisName) \(path): \(error)")
    }
    guard isEmptyFolder else {
      throw OutputError.exists(
        "\(option.synopsisName) \(path) already exists and is not an empty folder; files there are never written over: give a new folder, e.g. \(option.synopsisName) \(ShellWord.quote(path + "-2"))"
      )
    }
  }

  /// A new private folder under the system's temporary directory (mode 0700, links in its path
  /// resolved, as the engine's own snapshot folders are), kept after the run: it is the output.
  static func makeTemporary() throws -> String {
    let base = systemTemporaryDirectory()
    var template = Array((base + "/ditto-backup-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw OutputError.cannotWrite(
        "cannot create a folder in \(base): \(String(cString: strerror(errno)))")
    }
    return resolved(
      String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// True when `path` is `folder` or inside it, after resolving links in the parts that exist.
  static func isInside(_ path: String, _ folder: String) -> Bool {
    let resolvedPath = resolved(path)
    let resolvedFolder = resolved(folder)
    return resolvedPath == resolvedFolder || resolvedPath.hasPrefix(resolvedFolder + "/")
      || resolvedFolder == "/"
  }

  /// `path` made absolute with links resolved (``UserPath/resolved(_:)``).
  static func resolved(_ path: String) -> String { UserPath.resolved(path) }
}
