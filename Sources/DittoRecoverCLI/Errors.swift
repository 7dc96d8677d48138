import BackupCrypto
import BackupReader
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge
import OutcomeReport
import RecoveryFile
import SafeFiles

// WHAT A COMMAND THROWS, AND THE EXIT CODE IT BECOMES
//
// Commands throw the engine's own errors, or one of the few below; ExitCode.of(_:) (ExitCode.swift)
// is the one place that turns any of them into an exit code, and Tool prints the description once.

/// An error that knows the next step (``NextStep``): commands printed as `next: …` and sentences as
/// `note: …` after the `Error:` line; under `--json`, `"next": […]` and `"notes": […]`.
protocol GuidedError: Error {
  var nextSteps: [NextStep] { get }
}

/// Something the user named on the command line cannot be used as given (exit 66).
package struct InputError: Error, Sendable, Equatable, CustomStringConvertible, GuidedError {
  package let description: String
  /// What to do next (``GuidedError``).
  let nextSteps: [NextStep]

  init(_ description: String, next: [NextStep] = []) {
    self.description = description
    nextSteps = next
  }

  /// Nothing exists at `path`.
  static func missing(_ path: String, option: OptionSpec?, what: String = "file") -> InputError {
    InputError(
      "\(option.map { $0.synopsisName + " " } ?? "")\(ArgumentSpelling.shown(path: path)): no such \(what)"
    )
  }

  /// Throws unless a folder exists at `path` (links followed: the path is the user's choice).
  static func requireFolder(_ path: String, option: OptionSpec) throws(InputError) {
    let status: FileStatus?
    do {
      status = try FileStatus.following(path: path)
    } catch {
      throw InputError(
        "\(option.synopsisName) \(ArgumentSpelling.shown(path: path)): \(error.reason)")
    }
    guard let status else { throw missing(path, option: option, what: "folder") }
    guard status.kind == .directory else {
      throw InputError(
        "\(option.synopsisName) \(ArgumentSpelling.shown(path: path)): is a \(status.kind.humanName), not a folder"
      )
    }
  }

  /// Throws unless something exists at `path` (links not followed).
  static func requireExisting(_ path: String, option: OptionSpec?) throws(InputError) {
    let exists: Bool
    do {
      exists = try FileStatus.of(path: path) != nil
    } catch {
      throw InputError(ArgumentSpelling.described(error))
    }
    guard exists else { throw missing(path, option: option) }
  }
}

/// An output that already exists (exit 73: never overwritten) or cannot be written (exit 74).
package struct OutputError: Error, Sendable, Equatable, CustomStringConvertible, GuidedError {
  package let description: String
  /// True when the output exists (it was left as it was).
  package let exists: Bool
  /// What to do next (``GuidedError``): the same command with a name nothing has yet.
  let nextSteps: [NextStep]

  package static func exists(_ description: String) -> OutputError {
    OutputError(description: description, exists: true, nextSteps: [])
  }

  static func exists(_ description: String, next: [NextStep]) -> OutputError {
    OutputError(description: description, exists: true, nextSteps: next)
  }

  package static func cannotWrite(_ description: String) -> OutputError {
    OutputError(description: description, exists: false, nextSteps: [])
  }
}

/// The data a command was given cannot be read as what it should be (exit 65).
package struct DataError: Error, Sendable, Equatable, CustomStringConvertible, GuidedError {
  package let description: String
  /// What to do next (``GuidedError``).
  let nextSteps: [NextStep]

  init(_ description: String, next: [NextStep] = []) {
    self.description = description
    nextSteps = next
  }
}

/// Several backups, and one newer (or undated) than the best readable one could not be read (an
/// encrypted backup without its password, a damaged one): the older one is never used quietly
/// (exit 65). `newestDependsOn` names the backups the choice depends on.
struct UncertainBackupChoice: Error, Sendable, CustomStringConvertible, GuidedError {
  /// The backup that would have been used.
  let chosen: String
  /// The newer or undated backups that could not be read.
  let newestDependsOn: [String]
  let nextSteps: [NextStep]
  let words: String

  init(chosen: String, newer: [BackupSummary], next: [NextStep]) {
    self.chosen = chosen
    newestDependsOn = newer.map(\.backup.path)
    nextSteps = next
    words = BackupRendering.undecidedWords(newer)
  }

  var description: String {
    "\(words) and may hold more dittos than \(chosen), the newest that could be read: nothing was written; open the newer backup, or name the older one on purpose"
  }
}

/// The library cannot be used (exit 74): missing, refused, unreadable or not writable.
package struct LibraryFailure: Error, Sendable, Equatable, CustomStringConvertible, GuidedError {
  package let error: DestinationError
  /// Said instead of the usual advice (a backup made before 3.0: what its old files hold).
  package let explanation: String?
  /// What to do next (``GuidedError``).
  let nextSteps: [NextStep]

  init(_ error: DestinationError, explanation: String? = nil, next: [NextStep] = []) {
    self.error = error
    self.explanation = explanation
    nextSteps = next
  }

  package var description: String {
    if let explanation { return explanation }
    return error.kind == .noLibrary
      ? Self.missingMessage(error.file) : ArgumentSpelling.described(error)
  }

  /// What to do when there is no library.
  static func missingMessage(_ path: String) -> String {
    """
    \(ArgumentSpelling.shown(path: path)): no Ditto 3.x library (Ditto.store) here. ditto-recover never creates one: only the app \
    can make a store it will open. Run Ditto 3.0.2 on the device (it creates its library and migrates \
    by itself), or, here, see what would be recovered with 'recover --dry-run' or 'export --legacy FILE'.
    """
  }

  /// True when something exists at `path`, or when that cannot be told (``requireExisting(_:)`` then
  /// says why).
  static func exists(_ path: String) -> Bool {
    do {
      return try FileStatus.of(path: path) != nil
    } catch {
      return true  // requireExisting then reports why it cannot be examined
    }
  }

  /// Throws (no library) when nothing exists at `path`.
  static func requireExisting(_ path: String) throws(LibraryFailure) {
    let exists: Bool
    do {
      exists = try FileStatus.of(path: path) != nil
    } catch {
      throw LibraryFailure(DestinationError(.readFailed, file: path, reason: error.reason))
    }
    guard exists else {
      throw LibraryFailure(
        DestinationError(.noLibrary, file: path, reason: DestinationError.noLibraryReason))
    }
  }
}

extension DestinationError {
  /// Why a path without a file is not a library.
  static let noLibraryReason = "there is no Ditto 3.x library here (no such file)"
}

extension OptionSpec {
  /// `--container`, or `<backup>` for a positional: how a message names the argument.
  var synopsisName: String {
    switch kind {
    case .option, .flag: "--\(name)"
    case .positional(let value): "<\(value)>"
    }
  }
}
