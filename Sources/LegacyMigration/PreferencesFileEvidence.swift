import PropertyLists
import SafeFiles

/// What the App Group's preferences file on disk says when the defaults domain answered none of the
/// legacy keys.
///
/// Before the first unlock after a reboot `UserDefaults` answers default values (nothing) instead of
/// what is stored, and cannot say so. The file itself can: it exists and cannot be read (protected),
/// or it holds legacy keys the domain did not answer. Either way "no legacy defaults" is not proven,
/// and the attempt is "not now". The file is only read (`O_NOFOLLOW`, never written).
enum PreferencesFileEvidence {
  /// The largest file read; a larger one says nothing here (the defaults source reports it).
  static let maximumBytes: Int64 = 64 << 20

  /// Nil when the file agrees with "no legacy keys" (absent, readable without any, or not a
  /// property list: then the domain's answer stands); otherwise why the defaults are not available
  /// yet.
  static func contradiction(at path: String) -> DefaultsError? {
    let file: ReadOnlyFile
    do {
      file = try ReadOnlyFile(path: path)
    } catch .access(let error) where error.isNotFound {
      return nil
    } catch .access(let error) {
      return .notAvailableYet(
        file: path,
        reason:
          "the defaults answered no legacy keys, but their file cannot be read now (\(error.reason))"
      )
    } catch {
      // A link, a folder, a FIFO: not the preferences iOS keeps; the domain's answer stands.
      return nil
    }
    guard file.size <= maximumBytes else { return nil }
    let bytes: [UInt8]
    do {
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch {
      return .notAvailableYet(
        file: path,
        reason:
          "the defaults answered no legacy keys, but their file cannot be read now (\(error.reason))"
      )
    }
    guard !bytes.isEmpty else { return nil }
    let values: PropertyListDictionary
    do {
      guard case .dictionary(let dictionary) = try PropertyListReader.decode(bytes).value else {
        return nil
      }
      values = dictionary
    } catch {
      return nil
    }
    let held = DefaultsLegacyContent.keys.filter { values[$0] != nil }
    guard !held.isEmpty else { return nil }
    return .notAvailableYet(
      file: path,
      reason:
        "the defaults answered no legacy keys, but their file holds \(held.joined(separator: ", "))"
    )
  }
}
