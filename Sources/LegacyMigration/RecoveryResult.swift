import Foundation

/// What "Recover Old Dittos" tells the user.
///
/// The messages are the seed's, word for word.
public enum RecoveryResult: Sendable, Equatable {
  /// No store file exists anywhere we looked.
  case nothingOnDisk
  /// A store file exists but could not be read; carries why, in words for a person (the file's
  /// name, what to do when it is "not now": ``RecoveryDetail/text``). The technical error is
  /// ``MigrationReport/technicalDetail``.
  case foundButUnreadable(String)
  /// The store was read and holds no dittos.
  case emptyStore
  /// This many dittos were added (0: they were all already in the library).
  case inserted(Int)
  /// The store could not be opened normally; this many dittos were rebuilt from its damaged bytes.
  case salvaged(Int)
  /// The old dittos were read, but the current library could not be written; nothing changed.
  /// Carries why, in words for a person (``RecoveryDetail/text``).
  case libraryUnavailable(String)
  /// The user (or the app) cancelled the recovery before it wrote anything: nothing changed. Its
  /// own words, never those of a failure; the telemetry line keeps `reason=cancelled`.
  case cancelled

  /// The text shown in the alert, in English: the seed's sentence (``englishFormat`` with the
  /// count filled in).
  public var message: String {
    englishFormat.replacingOccurrences(of: "%ld", with: String(count ?? 0))
  }

  /// A stable key for the alert's sentence, for the app to localize it (`recovery.<case>`;
  /// `.inserted(0)` has its own, `recovery.alreadyInLibrary`). ``englishFormat`` is its default.
  public var messageKey: String {
    switch self {
    case .nothingOnDisk: "recovery.nothingOnDisk"
    case .foundButUnreadable: "recovery.foundButUnreadable"
    case .emptyStore: "recovery.emptyStore"
    case .inserted(0): "recovery.alreadyInLibrary"
    case .inserted: "recovery.inserted"
    case .salvaged: "recovery.salvaged"
    case .libraryUnavailable: "recovery.libraryUnavailable"
    case .cancelled: "recovery.cancelled"
    }
  }

  /// The seed's English sentence with `%ld` where ``count`` goes.
  public var englishFormat: String {
    switch self {
    case .nothingOnDisk:
      "No legacy dittos were found on this device. If you had dittos in an older version, they may have been removed by an earlier 3.0 update."
    case .foundButUnreadable:
      "Found old data on this device, but couldn't read it. Please send a sysdiagnose so we can investigate."
    case .emptyStore:
      "Found an old data file on this device, but it had no dittos in it."
    case .inserted(0):
      "Your old dittos were already in your current library — nothing new to recover."
    case .inserted:
      "Recovered %ld dittos from your previous version."
    case .salvaged:
      "Recovered %ld dittos from damaged data. Some dittos may be missing."
    case .libraryUnavailable:
      "Found your old dittos, but couldn't save them to your library. Nothing was changed; please try again later."
    case .cancelled:
      "The recovery was cancelled before it finished. Nothing was changed; you can start it again at any time."
    }
  }

  /// The number in the sentence (dittos recovered), nil for the cases without one.
  public var count: Int? {
    switch self {
    case .inserted(let count), .salvaged(let count): count
    default: nil
    }
  }

  /// What could not be read or saved, in words for a person (``RecoveryDetail/text``), for
  /// `foundButUnreadable` and `libraryUnavailable`; nil otherwise.
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
    case .cancelled: "cancelled"
    }
  }
}
