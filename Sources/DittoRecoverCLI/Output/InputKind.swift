import Foundation
import LegacyStore
import RecoveryFile
import SafeFiles

/// What a path the user gave looks like, so that the wrong kind of input is named with the command
/// that fits it. Looked at only after the expected kind failed (never on the happy path); files are
/// read on private snapshots, nothing is written.
enum InputKind: Equatable {
  /// A Ditto 2.x Core Data store (`Category`, `Ditto`).
  case ditto2Store
  /// The Ditto 3.x library (`Ditto.store`: `DittoCategory`, `DittoItem`).
  case ditto3Library
  /// A `.dittorecovery` file made by `extract` / `backup extract`.
  case recoveryFile
  /// A Finder/iTunes backup folder (`Manifest.db`), or a folder of them.
  case backup
  /// A copied App Group container (Ditto's files, or `Library/Preferences`).
  case container
  /// An Xcode `.xcappdata` bundle: the app's own data is in its `AppData` folder.
  case xcappdata
  case unknown

  static func of(_ path: String) -> InputKind {
    let status: FileStatus?
    do {
      status = try FileStatus.following(path: path)
    } catch {
      return .unknown
    }
    guard let status else { return .unknown }
    if status.kind == .directory { return folderKind(path) }
    guard status.kind == .regular else { return .unknown }
    do {
      if try RecoveryFileInfo.read(path: path) != nil { return .recoveryFile }
    } catch {
      return .unknown
    }
    do {
      let kind = try CoreDataStore.withSnapshot(of: path) { store -> InputKind? in
        if store.entity(named: "DittoCategory") != nil { return .ditto3Library }
        if store.entity(named: LegacySchema.ditto.entity) != nil
          || store.entity(named: LegacySchema.category.entity) != nil
        {
          return .ditto2Store
        }
        return nil
      }
      if let kind { return kind }
    } catch {
      return .unknown
    }
    return .unknown
  }

  private static func folderKind(_ path: String) -> InputKind {
    func has(_ relative: String) -> Bool {
      do {
        return try FileStatus.of(path: path + "/" + relative) != nil
      } catch {
        return false
      }
    }
    if path.hasSuffix(".xcappdata") || path.hasSuffix(".xcappdata/")
      || (has("AppData") && has("AppDataInfo.plist"))
    {
      return .xcappdata
    }
    if has("Manifest.db") || has("Manifest.plist") { return .backup }
    if has("Ditto.sqlite") || has("Ditto.store") || has("Library/Preferences") { return .container }
    // A folder of backups: one of its folders is a backup.
    do {
      let names = try FileManager.default.contentsOfDirectory(atPath: path).prefix(200)
      if names.contains(where: { has($0 + "/Manifest.db") }) { return .backup }
    } catch {
      return .unknown
    }
    return .unknown
  }

  /// A short name for messages.
  var description: String {
    switch self {
    case .ditto2Store: "a Ditto 2.x store"
    case .ditto3Library: "a Ditto 3.x library (Ditto.store)"
    case .recoveryFile: "a recovery file made by ditto-recover"
    case .backup: "a Finder/iTunes backup"
    case .container: "a copied App Group container"
    case .xcappdata: "an Xcode app-data bundle (.xcappdata)"
    case .unknown: "something else"
    }
  }
}
