/// What "Recover Old Dittos" tells the user.
///
/// The messages are the seed's, word for word.
public enum RecoveryResult: Sendable, Equatable {
  /// No store file exists anywhere we looked.
  case nothingOnDisk
  /// A store file exists but could not be read; carries the reason (file and cause).
  case foundButUnreadable(String)
  /// The store was read and holds no dittos.
  case emptyStore
  /// This many dittos were added (0: they were all already in the library).
  case inserted(Int)
  /// The store could not be opened normally; this many dittos were rebuilt from its damaged bytes.
  case salvaged(Int)
  /// The old dittos were read, but the current library could not be written; nothing changed.
  /// Carries the reason.
  case libraryUnavailable(String)

  /// The text shown in the alert.
  public var message: String {
    switch self {
    case .nothingOnDisk:
      "No legacy dittos were found on this device. If you had dittos in an older version, they may have been removed by an earlier 3.0 update."
    case .foundButUnreadable:
      "Found old data on this device, but couldn't read it. Please send a sysdiagnose so we can investigate."
    case .emptyStore:
      "Found an old data file on this device, but it had no dittos in it."
    case .inserted(0):
      "Your old dittos were already in your current library — nothing new to recover."
    case .inserted(let count):
      "Recovered \(count) dittos from your previous version."
    case .salvaged(let count):
      "Recovered \(count) dittos from damaged data. Some dittos may be missing."
    case .libraryUnavailable:
      "Found your old dittos, but couldn't save them to your library. Nothing was changed; please try again later."
    }
  }

  /// The underlying error for `foundButUnreadable` and `libraryUnavailable`, nil otherwise.
  public var detail: String? {
    switch self {
    case .foundButUnreadable(let detail), .libraryUnavailable(let detail): return detail
    default: return nil
    }
  }

  /// The case name used in JSON (`inserted`, `nothingOnDisk`, `foundButUnreadable`, `emptyStore`, `salvaged`).
  public var kind: String {
    switch self {
    case .nothingOnDisk: "nothingOnDisk"
    case .foundButUnreadable: "foundButUnreadable"
    case .emptyStore: "emptyStore"
    case .inserted: "inserted"
    case .salvaged: "salvaged"
    case .libraryUnavailable: "libraryUnavailable"
    }
  }
}
