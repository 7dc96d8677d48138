import LegacyMigration

/// The process exit codes (sysexits.h values, as swift-argument-parser uses them).
public enum ExitCode: Int32, Sendable, Equatable {
  /// Every outcome but `found_unreadable` and `library_error`.
  case success = 0
  /// Anything unforeseen.
  case failure = 1
  /// The command line is wrong (EX_USAGE).
  case usage = 64
  /// A store exists but cannot be read: `found_unreadable` (EX_DATAERR).
  case dataError = 65
  /// An input file or folder does not exist (EX_NOINPUT).
  case noInput = 66
  /// The output file already exists and is never overwritten (EX_CANTCREAT).
  case cannotCreate = 73
  /// The library cannot be opened or written (EX_IOERR).
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
}
