import BackupReader

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
