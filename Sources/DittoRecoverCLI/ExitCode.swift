import BackupCrypto
import BackupReader
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge
import OutcomeReport
import RecoveryFile

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process exit codes (sysexits.h values, as swift-argument-parser uses them).
package enum ExitCode: Int32, Sendable, Equatable {
  /// Every outcome but `found_unreadable` and `library_error`.
  case success = 0
  /// Anything unforeseen: a bug.
  case failure = 1
  /// The command line is wrong (EX_USAGE).
  case usage = 64
  /// A store exists but cannot be read: `found_unreadable` (EX_DATAERR).
  case dataError = 65
  /// An input file or folder does not exist (EX_NOINPUT).
  case noInput = 66
  /// The output file already exists and is never overwritten (EX_CANTCREAT).
  case cannotCreate = 73
  /// The library cannot be opened or written, or an output cannot be written (EX_IOERR).
  case ioError = 74

  /// The one mapping from an attempt's report to an exit code.
  static func of(_ report: MigrationReport) -> ExitCode {
    if report.destinationError != nil { return .ioError }
    switch report.outcome {
    case .foundUnreadable: return .dataError
    case .libraryError: return .ioError
    case .success, .noNewData, .emptyStore, .nothingOnDisk: return .success
    }
  }

  /// The one mapping from an error a command throws to an exit code. Anything not listed is a bug
  /// (exit 1).
  static func of(_ error: any Error) -> ExitCode {
    switch error {
    case is UsageError: return .usage
    case is InputError: return .noInput
    case let error as OutputError: return error.exists ? .cannotCreate : .ioError
    case is DataError, is UncertainBackupChoice: return .dataError
    case is LibraryFailure, is DestinationError: return .ioError
    case let error as ImportFailure:
      switch error.reason {
      case .library, .cancelled: return .ioError
      case .source: return .dataError
      }
    case let error as LegacyStoreError:
      if case .notFound = error { return .noInput }
      return .dataError
    case is DefaultsError, is CSVError, is CryptoError: return .dataError
    case let error as CSVImportError:
      if case .unreadable = error { return .noInput }
      return .dataError
    case let error as RecoveryFileError:
      switch error.kind {
      case .alreadyExists: return .cannotCreate
      case .writeFailed: return .ioError
      case .unreadable, .malformed: return .dataError
      }
    case let error as BackupError:
      switch error {
      case .notFound, .notABackup, .unreadable: return .noInput
      case .malformed, .encrypted, .unsupportedFormat, .manifestUnreadable, .notADatabase,
        .wrongPassword, .decryptionFailed:
        return .dataError
      }
    case let error as OutcomeReportError:
      if case .cannotOpen(_, let code) = error, code == ENOENT { return .noInput }
      return .ioError
    default:
      return .failure
    }
  }
}
