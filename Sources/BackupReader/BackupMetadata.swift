import Foundation

/// What a backup's `Info.plist`, `Manifest.plist` and `Status.plist` say about it.
///
/// Every key is optional: a missing key is nil, a key of the wrong type is nil and noted in ``problems``,
/// and a plist that cannot be read is noted in ``problems`` too (its keys are then all nil). Only
/// ``isEncrypted`` decides anything on its own; the rest is shown to the user.
package struct BackupMetadata: Sendable, Equatable {
  /// `Info.plist` `Device Name`, else `Manifest.plist` `Lockdown.DeviceName`.
  package var deviceName: String?
  /// `Info.plist` `Last Backup Date`, else `Status.plist` `Date`, else `Manifest.plist` `Date`.
  package var date: Date?
  /// `Info.plist` `Product Version`, else `Manifest.plist` `Lockdown.ProductVersion`.
  package var iosVersion: String?
  /// `Info.plist` `Product Type` (`iPhone12,1`), else `Lockdown.ProductType`.
  package var productType: String?
  /// `Manifest.plist` `IsEncrypted`; nil when the file or the key is missing or unreadable.
  package var isEncrypted: Bool?
  /// `Status.plist` `SnapshotState`: `finished` after a complete run.
  package var snapshotState: String?
  /// `Manifest.plist` `BackupKeyBag` (encrypted backups).
  package var keyBag: [UInt8]?
  /// `Manifest.plist` `ManifestKey` (encrypted backups from iOS 10.2 on).
  package var manifestKey: [UInt8]?
  /// Unreadable plists and keys of the wrong type, each naming its file.
  package var problems: [String] = []

  package init() {}

  /// Reads the three plists of the backup at `folder`; never throws (see ``problems``).
  package init(folder: String) {
    var info = Self.load(folder + "/Info.plist", file: "Info.plist", problems: &problems)
    var manifest = Self.load(
      folder + "/Manifest.plist", file: "Manifest.plist", problems: &problems)
    var status = Self.load(folder + "/Status.plist", file: "Status.plist", problems: &problems)
    var lockdown = manifest?.dictionary("Lockdown")

    deviceName = info?.string("Device Name") ?? lockdown?.string("DeviceName")
    iosVersion = info?.string("Product Version") ?? lockdown?.string("ProductVersion")
    productType = info?.string("Product Type") ?? lockdown?.string("ProductType")
    date = info?.date("Last Backup Date") ?? status?.date("Date") ?? manifest?.date("Date")
    isEncrypted = manifest?.bool("IsEncrypted")
    snapshotState = status?.string("SnapshotState")
    keyBag = manifest?.data("BackupKeyBag")
    manifestKey = manifest?.data("ManifestKey")
    for values in [info, manifest, status, lockdown] {
      problems += values?.problems ?? []
    }
  }

  /// True when `Status.plist` says the last run did not finish (the backup may be partial).
  package var isSnapshotUnfinished: Bool {
    snapshotState.map { $0 != "finished" } ?? false
  }

  private static func load(_ path: String, file: String, problems: inout [String])
    -> PropertyListValues?
  {
    do {
      guard let values = try PropertyListFile.load(path) else { return nil }
      return PropertyListValues(values, file: file)
    } catch {
      problems.append(error.description)
      return nil
    }
  }
}
