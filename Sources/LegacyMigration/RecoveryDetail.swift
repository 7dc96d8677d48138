import Foundation
import LegacyStore
import LibraryMerge

/// Why old data could not be read (or the library saved), for the person holding the iPhone: the
/// file's name, never its path; what happened, in words; what to do when it is "not now".
///
/// ``RecoveryResult/foundButUnreadable(_:)`` and ``RecoveryResult/libraryUnavailable(_:)`` carry
/// ``text``. To localize, look ``key`` up with ``englishFormat`` as the default value and fill in
/// ``fileName`` (`%@`, when the format has one). The technical error (paths, system calls) is in
/// ``MigrationReport/technicalDetail`` and in the log, never here.
public struct RecoveryDetail: Sendable, Equatable {
  /// What happened, as a stable code: the last part of ``key``.
  package enum Problem: String, Sendable, Equatable, CaseIterable {
    /// Not a database (a zero-length file, other bytes, a partial copy).
    case notADatabase
    /// A database, but damaged.
    case damaged
    /// A database, but not Ditto's old data.
    case notDittoData
    /// A Ditto 3 library where old data was expected.
    case newLibrary
    /// Protected until the iPhone is unlocked (permission refused). Transient.
    case protected
    /// In use by another process. Transient.
    case busy
    /// Could not be read right now (an I/O error; a locked iPhone). Transient.
    case notReadableNow
    /// Changed while it was being read. Transient.
    case changing
    /// Not enough free storage to read it safely. Transient.
    case noSpace
    /// A link or a folder has the data file's name. Transient (it says nothing about the data).
    case notAFile
    /// The app said protected data is not available (before the first unlock). Transient.
    case deviceLocked
    /// The attempt was cancelled before it wrote anything. Transient.
    case cancelled
    /// The App Group settings (1.x dittos, keyboard additions) cannot be read right now. Transient.
    case settingsNotAvailable
    /// The App Group settings are not readable.
    case settingsDamaged
    /// The current library could not be read.
    case libraryNotReadable
    /// The current library could not be saved.
    case libraryNotSaved
    /// Anything else that could not be read.
    case unreadable
  }

  /// What happened.
  package let problem: Problem
  /// The name of the file it is about (`Ditto.sqlite`), nil when it is about no one file.
  public let fileName: String?
  /// True when it says nothing about the old data: a later attempt may read it.
  public let isTransient: Bool

  /// The localization key, `recovery.detail.<problem>`.
  public var key: String { "recovery.detail." + problem.rawValue }

  /// The English text with `%@` where ``fileName`` goes: the default value for ``key``.
  public var englishFormat: String {
    switch problem {
    case .notADatabase:
      "“%@” is not a file Ditto can read: it may be damaged, or it was only partly copied."
    case .damaged: "“%@” is damaged."
    case .notDittoData: "“%@” is not Ditto's old data."
    case .newLibrary: "“%@” is a Ditto 3 library, not old data."
    case .protected:
      "Your old dittos are protected until this iPhone is unlocked: unlock it and try again."
    case .busy: "Another part of Ditto is using “%@”: try again in a moment."
    case .notReadableNow:
      "“%@” could not be read right now (on an iPhone, usually because it is still locked): unlock it and try again."
    case .changing: "“%@” was being changed while it was read: try again in a moment."
    case .noSpace:
      "There is not enough free storage to read your old dittos safely: free some space (Settings › General › iPhone Storage) and try again."
    case .notAFile:
      "Something named “%@” is a link or a folder, not the data file itself, so it was not opened."
    case .deviceLocked:
      "Your old dittos can't be read until this iPhone has been unlocked: unlock it and try again."
    // What was not done; the alert's own sentence (`RecoveryResult.cancelled`) says the rest.
    case .cancelled: "Your old dittos were not imported."
    case .settingsNotAvailable:
      "Ditto's shared settings could not be read right now (on an iPhone, usually because it is still locked): unlock it and try again."
    case .settingsDamaged: "Ditto's shared settings could not be read."
    case .libraryNotReadable: "Your current library could not be opened."
    case .libraryNotSaved: "Your current library could not be saved."
    case .unreadable: "“%@” could not be read."
    }
  }

  /// The English text, ``fileName`` filled in.
  public var text: String {
    let format = englishFormat
    guard format.contains("%@") else { return format }
    return format.replacingOccurrences(of: "%@", with: fileName ?? "the data file")
  }

  init(_ problem: Problem, file: String?, isTransient: Bool) {
    self.problem = problem
    fileName = file.map(Self.name(of:))
    self.isTransient = isTransient
  }

  /// The last component of `path`.
  static func name(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// The detail of a store that could not be read.
  init(_ error: LegacyStoreError) {
    let problem: Problem =
      switch error {
      case .notADatabase: .notADatabase
      case .damaged: .damaged
      case .notACoreDataStore, .notADittoStore: .notDittoData
      case .ditto3Library: .newLibrary
      case .permissionDenied: .protected
      case .busy: .busy
      case .ioError: .notReadableNow
      case .changing, .notFound: .changing
      case .noSpaceForSnapshot: .noSpace
      case .notARegularFile, .linkedFolder: .notAFile
      case .unreadable: .unreadable
      }
    self.init(problem, file: error.file, isTransient: error.isTransient)
  }

  /// The detail of App Group defaults that could not be read.
  init(_ error: DefaultsError) {
    let transient = error.kind.transientReason != nil
    self.init(
      transient ? .settingsNotAvailable : .settingsDamaged, file: nil, isTransient: transient)
  }

  /// The detail of a library that could not be read or saved.
  init(_ error: DestinationError) {
    let problem: Problem =
      switch error.kind {
      case .writeFailed: .libraryNotSaved
      case .noLibrary, .refused, .readFailed: .libraryNotReadable
      }
    self.init(problem, file: nil, isTransient: true)
  }

  /// The detail of an attempt interrupted for `reason` (`locked`, `cancelled`).
  init(interruption reason: TransientReason) {
    self.init(reason == .cancelled ? .cancelled : .deviceLocked, file: nil, isTransient: true)
  }
}
