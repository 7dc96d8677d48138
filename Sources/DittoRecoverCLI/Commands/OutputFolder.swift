import Foundation
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks that keep every write out of the backup (`backup recover` builds its output with
/// ``StagedOutput``).
enum OutputFolder {
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

/// An output folder built in a private folder of ours (marked, locked, removed if the run is
/// stopped) and given the user's name only when it is complete (`PrivateDirectory.publish`): after
/// any stop, SIGKILL included, that name holds nothing or the finished result.
final class StagedOutput {
  /// Where the output is built.
  let folder: PrivateDirectory
  /// The name it takes when published; nil for a temporary output kept where it is built.
  let destination: String?
  /// The name it takes, when `destination` only stands for a name that is not valid UTF-8.
  private let rawName: RawFolderName?

  private init(folder: PrivateDirectory, destination: String?, rawName: RawFolderName? = nil) {
    self.folder = folder
    self.destination = destination
    self.rawName = rawName
  }

  /// `--out PATH`: it must not exist, or be an empty folder (anything else: exit 73, nothing
  /// touched); built beside it, in the same folder (a rename needs the same volume). A name that
  /// is not valid UTF-8 (`rawName`) must not exist at all.
  static func beside(_ path: String, option: OptionSpec, rawName: RawFolderName? = nil) throws
    -> StagedOutput
  {
    let shown = ArgumentSpelling.shown(path: path)
    if let rawName {
      guard !rawName.exists else {
        throw OutputError.exists(
          "\(option.synopsisName) \(shown) already exists; files there are never written over: give a new folder"
        )
      }
      do {
        let folder = try PrivateDirectory(
          prefix: NewFile.scratchPrefix, in: rawName.parentLink, resolvingLinks: false)
        return StagedOutput(folder: folder, destination: path, rawName: rawName)
      } catch {
        throw OutputError.cannotWrite(
          "\(option.synopsisName) \(shown): cannot create a folder beside it: \(ArgumentSpelling.described(error))"
        )
      }
    }
    let existing: FileStatus?
    do {
      existing = try FileStatus.following(path: path)
    } catch {
      throw OutputError.cannotWrite(
        "\(option.synopsisName) \(shown): \(ArgumentSpelling.described(error))")
    }
    if let existing {
      let isEmptyFolder: Bool
      do {
        isEmptyFolder =
          try existing.kind == .directory
          && DirectoryWalker.names(in: UserPath.resolved(path)).isEmpty
      } catch {
        throw OutputError.cannotWrite(
          "\(option.synopsisName) \(shown): \(ArgumentSpelling.described(error))")
      }
      guard isEmptyFolder else {
        throw OutputError.exists(
          "\(option.synopsisName) \(shown) already exists and is not an empty folder; files there are never written over: give a new folder, e.g. \(option.synopsisName) \(ShellWord.quote(path + "-2"))"
        )
      }
    }
    do {
      let folder = try PrivateDirectory(
        prefix: NewFile.scratchPrefix, in: PrivateDirectory.parent(of: path))
      return StagedOutput(folder: folder, destination: path)
    } catch {
      throw OutputError.cannotWrite(
        "\(option.synopsisName) \(shown): cannot create a folder beside it: \(ArgumentSpelling.described(error))"
      )
    }
  }

  /// No `--out`: a new folder in the temporary directory, which is the output.
  static func temporary() throws -> StagedOutput {
    do {
      return StagedOutput(folder: try PrivateDirectory(prefix: "ditto-backup-"), destination: nil)
    } catch {
      throw OutputError.cannotWrite(
        "cannot create a folder in \(systemTemporaryDirectory()): \(ArgumentSpelling.described(error))"
      )
    }
  }

  /// Publishes the finished output; returns its final path.
  ///
  /// - Throws: ``OutputError`` when it cannot take its name (then nothing is under that name).
  func publish() throws -> String {
    guard let destination else {
      folder.keepInPlace()
      return folder.path
    }
    do {
      if let rawName {
        try folder.publish(asBytes: rawName.path)
      } else {
        try folder.publish(as: destination)
      }
    } catch {
      throw OutputError.cannotWrite(
        "cannot give the output its name \(ArgumentSpelling.shown(path: destination)): \(ArgumentSpelling.described(error))"
      )
    }
    return destination
  }

  /// `path`, a path inside the folder being built, as it is once published.
  func final(_ path: String) -> String {
    guard let destination, path == folder.path || path.hasPrefix(folder.path + "/") else {
      return path
    }
    return destination + path.dropFirst(folder.path.count)
  }
}
