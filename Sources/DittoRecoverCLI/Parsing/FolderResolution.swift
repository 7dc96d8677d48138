import LegacyMigration
import SafeFiles

/// What people have when they say "the container": the container itself, the folder a zip
/// unpacked it into (one level down: a `group.io.kern.ditto` folder, or the one child folder that
/// has a container's layout), or an Xcode `.xcappdata` bundle (its `AppData`). The same for the
/// app's own home. Nothing is guessed: when several children could be it, the resolution is
/// ambiguous and each is named.
enum FolderResolution: Equatable {
  /// The folder as given (it has the layout, or nothing better was found: probed as it is).
  case asGiven(String)
  /// An `.xcappdata` bundle, read through its `AppData` folder.
  case appData(bundle: String, appData: String)
  /// The folder holding it, one level up.
  case oneLevelDown(given: String, folder: String)
  /// Several children could be it.
  case ambiguous(given: String, choices: [String])

  /// The folder as the user named it.
  var given: String {
    switch self {
    case .asGiven(let path): path
    case .appData(let bundle, _): bundle
    case .oneLevelDown(let given, _), .ambiguous(let given, _): given
    }
  }

  /// The folder to read; nil when ambiguous.
  var folder: String? {
    switch self {
    case .asGiven(let path), .appData(_, let path), .oneLevelDown(_, let path): path
    case .ambiguous: nil
    }
  }

  /// Which layout a folder is looked at for.
  enum Layout {
    /// The App Group container: Ditto's store (any letter case) at its root or in a probed
    /// folder, its `Ditto.store`, or the App Group's preferences file.
    case appGroupContainer
    /// The app's own home: Ditto's store in a probed folder of the home, or the app's preferences.
    case appHome
  }

  /// Resolves the folder `given` for `layout`.
  static func resolve(_ given: String, as layout: Layout) -> FolderResolution {
    let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
    if trimmed.hasSuffix(".xcappdata"), isFolder(trimmed + "/AppData") {
      return .appData(bundle: trimmed, appData: trimmed + "/AppData")
    }
    if has(layout, at: trimmed) { return .asGiven(trimmed) }
    let children = subfolders(of: trimmed)
    if layout == .appGroupContainer,
      let named = children.first(where: { $0 == ContainerLayout.appGroupIdentifier })
    {
      return .oneLevelDown(given: trimmed, folder: trimmed + "/" + named)
    }
    var choices: [String] = []
    for child in children {
      let path = trimmed + "/" + child
      if child.hasSuffix(".xcappdata"), isFolder(path + "/AppData"),
        has(layout, at: path + "/AppData")
      {
        choices.append(path + "/AppData")
      } else if has(layout, at: path) {
        choices.append(path)
      }
    }
    switch choices.count {
    case 0: return .asGiven(trimmed)
    case 1: return .oneLevelDown(given: trimmed, folder: choices[0])
    default: return .ambiguous(given: trimmed, choices: choices)
    }
  }

  /// True when `path` holds what a folder of `layout` holds.
  static func has(_ layout: Layout, at path: String) -> Bool {
    let folders: [String]
    var files: [String]
    switch layout {
    case .appGroupContainer:
      folders = LegacyStoreProbe.containerFolders
      files = ["Ditto.store", "Library/Preferences/" + ContainerLayout.appGroupPreferencesFileName]
    case .appHome:
      folders = LegacyStoreProbe.homeFolders
      files = ["Library/Preferences/io.kern.Ditto.plist"]
    }
    files += ["Ditto.sqlite-wal"]
    for file in files where exists(path + "/" + file) { return true }
    for folder in folders {
      let place = folder.isEmpty ? path : path + "/" + folder
      do {
        if try DirectoryWalker.names(in: place).contains(where: LegacyStoreProbe.isStoreName) {
          return true
        }
      } catch {
        continue
      }
    }
    return false
  }

  /// The names of the folders in `path` (links not followed), in name order; names that are not
  /// UTF-8 are left out (the tool reaches such a folder only when the user names it).
  static func subfolders(of path: String) -> [String] {
    let names: [[UInt8]]
    do {
      names = try DirectoryWalker.names(in: path)
    } catch {
      return []
    }
    return names.compactMap { UserPath.validUTF8($0) }.filter {
      !$0.hasPrefix(".") && isFolder(path + "/" + $0, followingLinks: false)
    }
  }

  private static func exists(_ path: String) -> Bool {
    do {
      return try FileStatus.of(path: path) != nil
    } catch {
      return false
    }
  }

  private static func isFolder(_ path: String, followingLinks: Bool = true) -> Bool {
    do {
      let status =
        followingLinks ? try FileStatus.following(path: path) : try FileStatus.of(path: path)
      return status?.kind == .directory
    } catch {
      return false
    }
  }
}
