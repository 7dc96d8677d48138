import BackupReader
import SafeFiles

/// `ditto-recover backup`: the group of commands that read a Finder/iTunes backup folder.
struct BackupCommand: Command {
  static let name = "backup"
  static let abstract = "List or recover the Ditto files in a Finder/iTunes backup folder."
  static let discussion: String? = """
    BACKUP is one backup (…/MobileSync/Backup/<id>) or the folder holding several
    (…/MobileSync/Backup). The backup is only ever read: Manifest.db is read on a private copy, and
    files are rebuilt in a folder of your choice, never inside the backup.
    """
  static let options: [OptionSpec] = []
  static var subcommands: [any Command.Type] {
    [BackupListCommand.self, BackupRecoverCommand.self]
  }

  init(arguments: ParsedArguments) {}

  func run(_ context: ToolContext) throws -> ExitCode {
    // The tool dispatches to a subcommand; a group itself only shows its help.
    context.standardOutput.write(HelpFormatter.help(for: Self.self))
    return .success
  }

  /// The shared `BACKUP` argument.
  static let backupArgument = OptionSpec.positional(
    "backup", value: "backup",
    help: "A backup folder (…/MobileSync/Backup/<id>) or the folder holding several.")

  /// `--password-file FILE`: the password is read from a file, never from the command line.
  static let passwordFileOption = OptionSpec.option(
    "password-file", value: "file",
    help: "A file holding the password of an encrypted backup (its first line).")

  /// The password in `path`: the file's first line (without its `\n` or `\r\n`), as bytes.
  static func readPassword(_ path: String) throws -> [UInt8] {
    let bytes: [UInt8]
    do {
      let file = try ReadOnlyFile(path: path)
      guard file.size <= 4096 else {
        throw UsageError("'\(passwordFileOption.synopsis)' \(path) is too large for a password")
      }
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch let error as SafeFileError {
      throw CommandFailure(
        "\(passwordFileOption.synopsis) \(error.description)", exitCode: .noInput)
    } catch let error as FileAccessError {
      throw CommandFailure(
        "\(passwordFileOption.synopsis) \(error.description)", exitCode: .noInput)
    }
    var password =
      bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .first ?? []
    if password.last == UInt8(ascii: "\r") { password = password.dropLast() }
    guard !password.isEmpty else {
      throw UsageError("'\(passwordFileOption.synopsis)' \(path) holds no password")
    }
    return Array(password)
  }

  /// Reads each backup at `paths`, unlocking encrypted ones with `password`; notes the slow part.
  static func summarize(_ paths: [String], password: [UInt8]?, context: ToolContext)
    -> [BackupSummary]
  {
    paths.map { path in
      let backup = Backup(path: path)
      if password != nil {
        if backup.metadata.isEncrypted == true {
          context.standardError.write("unlocking \(path) with the password (this takes a while)\n")
        } else {
          context.standardError.write(
            "note: \(path) is not encrypted; the password is not needed\n")
        }
      }
      return BackupSummary(backup: backup, password: password)
    }
  }

  /// The one mapping from a backup error to an exit code.
  static func exitCode(for error: BackupError) -> ExitCode {
    switch error {
    case .notFound, .notABackup, .unreadable: .noInput
    case .malformed, .encrypted, .unsupportedFormat, .manifestUnreadable, .notADatabase,
      .wrongPassword, .decryptionFailed:
      .dataError
    }
  }

  /// The backups at `path`, or a failure naming why there are none.
  static func locate(_ path: String) throws -> [String] {
    do {
      return try BackupLocator.locate(path)
    } catch {
      throw CommandFailure(error.description, exitCode: exitCode(for: error))
    }
  }
}
