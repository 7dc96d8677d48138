import Foundation
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder `backup recover` rebuilds into, and the checks that keep every write out of the backup.
enum OutputFolder {
  /// Creates `path` (mode 0700), or accepts an existing empty folder. An interrupted run removes
  /// what it put there (and the folder, when it made it) until the output is kept.
  ///
  /// - Throws: ``OutputError`` (exists, exit 73) when it exists and is not an empty folder: files
  ///   already there (another backup's, an earlier run's) are never written over; ``OutputError``
  ///   when it cannot be created.
  static func prepare(_ path: String, option: OptionSpec) throws -> OutputInProgress {
    let code: Int32
    do {
      return try OutputInProgress.makeFolder(path)
    } catch {
      code = error.code
    }
    guard code == EEXIST else {
      throw OutputError.cannotWrite(
        "\(option.synopsisName) \(path): cannot create the folder: \(String(cString: strerror(code)))"
      )
    }
    let isEmptyFolder: Bool
    do {
      isEmptyFolder =
        try FileStatus.following(path: path)?.kind == .directory
        && DirectoryWalker.names(in: UserPath.resolved(path)).isEmpty
    } catch {
      throw OutputError.cannotWrite("\(option.synopsisName) \(path): \(error)")
    }
    guard isEmptyFolder else {
      throw OutputError.exists(
        "\(option.synopsisName) \(path) already exists and is not an empty folder; files there are never written over: give a new folder, e.g. \(option.synopsisName) \(ShellWord.quote(path + "-2"))"
      )
    }
    do {
      return try OutputInProgress.filling(path)
    } catch {
      throw OutputError.cannotWrite("\(option.synopsisName) \(path): \(error)")
    }
  }

  /// A new folder under the system's temporary directory (mode 0700, links in its path resolved,
  /// as the engine's own snapshot folders are), kept after the run: it is the output.
  static func makeTemporary() throws -> OutputInProgress {
    let base = systemTemporaryDirectory()
    do {
      return try OutputInProgress.makeUniqueFolder(prefix: "ditto-backup-", in: base)
    } catch {
      throw OutputError.cannotWrite(
        "cannot create a folder in \(base): \(String(cString: strerror(error.code)))")
    }
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
