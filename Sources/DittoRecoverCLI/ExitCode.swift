import BackupCrypto
import BackupReader
import ByteStreams
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge
import OutcomeReport
import RecoveryFile
import SafeFiles
import UnifiedLog

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

  /// The exit code of an error a command throws: the one its type gives
  /// (``ExitCodeGiving``); an error of any other type is a bug (exit 1).
  static func of(_ error: any Error) -> ExitCode {
    (error as? any ExitCodeGiving)?.exitCode ?? .failure
  }
}

/// An error a command may end a run with, and the exit code it gives: each type decides its own,
/// below (`ExitCodeTests` lists every error type of the package and what it gives, so a new one
/// is a decision, never a silent exit 1).
protocol ExitCodeGiving: Error {
  var exitCode: ExitCode { get }
}

extension UsageError: ExitCodeGiving {
  var exitCode: ExitCode { .usage }
}

extension InputError: ExitCodeGiving {
  var exitCode: ExitCode { .noInput }
}

extension OutputError: ExitCodeGiving {
  var exitCode: ExitCode { exists ? .cannotCreate : .ioError }
}

extension DataError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension UncertainBackupChoice: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension LibraryFailure: ExitCodeGiving {
  var exitCode: ExitCode { .ioError }
}

extension DestinationError: ExitCodeGiving {
  var exitCode: ExitCode { .ioError }
}

extension ImportFailure: ExitCodeGiving {
  var exitCode: ExitCode {
    switch reason {
    case .library, .cancelled: .ioError
    case .source: .dataError
    }
  }
}

extension LegacyStoreError: ExitCodeGiving {
  var exitCode: ExitCode {
    if case .notFound = self { return .noInput }
    return .dataError
  }
}

extension DefaultsError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension CSVError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension CryptoError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension CSVImportError: ExitCodeGiving {
  var exitCode: ExitCode {
    if case .unreadable = self { return .noInput }
    return .dataError
  }
}

extension RecoveryFileError: ExitCodeGiving {
  var exitCode: ExitCode {
    switch kind {
    case .alreadyExists: .cannotCreate
    case .writeFailed: .ioError
    case .unreadable, .malformed: .dataError
    }
  }
}

extension BackupError: ExitCodeGiving {
  var exitCode: ExitCode {
    switch self {
    case .notFound, .notABackup, .unreadable: .noInput
    case .malformed, .encrypted, .unsupportedFormat, .manifestUnreadable, .notADatabase,
      .wrongPassword, .decryptionFailed:
      .dataError
    }
  }
}

extension OutcomeReportError: ExitCodeGiving {
  var exitCode: ExitCode {
    if case .cannotOpen(_, let code) = self, code == ENOENT { return .noInput }
    if case .notAnInput = self { return .noInput }
    return .ioError
  }
}

extension FlagStoreError: ExitCodeGiving {
  var exitCode: ExitCode { .ioError }
}

/// A file or folder of this run's (a private folder, a new output) that could not be made or
/// written, or an input that could not be read for a reason other than its content.
extension FileAccessError: ExitCodeGiving {
  var exitCode: ExitCode { .ioError }
}

extension SafeFileError: ExitCodeGiving {
  var exitCode: ExitCode {
    switch self {
    case .access: .ioError
    case .notARegularFile: .noInput
    }
  }
}

extension NewFileError: ExitCodeGiving {
  var exitCode: ExitCode {
    switch self {
    case .exists: .cannotCreate
    case .failed: .ioError
    }
  }
}

extension ZipError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension GzipError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension TarError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension MBFileError: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension SourceReadFailure: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension UnifiedLogProblem: ExitCodeGiving {
  var exitCode: ExitCode { .dataError }
}

extension InvalidValue: ExitCodeGiving {
  var exitCode: ExitCode { .usage }
}
