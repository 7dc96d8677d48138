import BackupReader
import Exchange

/// `ditto-recover backup list`: each backup's device, date, iOS version, encryption and Ditto files.
struct BackupListCommand: Command {
  static let name = "list"
  static let abstract = "Show each backup's device, date, iOS version and the Ditto files it holds."
  static let discussion: String? = """
    With several backups, also names the newest one that holds a Ditto store. Exits 65 when a backup's
    manifest cannot be read (for example an encrypted backup); the others are still listed.
    """
  static let options = [BackupCommand.backup.spec, BackupCommand.passwordFile.spec]

  let backup: String
  let passwordFile: String?
  let json: Bool

  init(arguments: ParsedArguments) throws(UsageError) {
    backup = try arguments.value(of: BackupCommand.backup) ?? "."
    passwordFile = try arguments.value(of: BackupCommand.passwordFile)
    json = arguments.isSet(CommonOptions.json)
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    let password = try passwordFile.map(BackupCommand.readPassword)
    let paths = try BackupCommand.locate(backup)
    let summaries = BackupCommand.summarize(paths, password: password, context: context)
    let newest = BackupSummary.newestWithDittoStore(summaries)
    for summary in summaries {
      if let error = summary.error { context.printError(error.description) }
    }
    if json {
      let object: JSONValue = [
        "backups": .array(summaries.map(BackupRendering.listJSON)),
        "newestWithDittoStore": .optional(newest?.backup.path),
      ]
      context.standardOutput.write(object.rendered() + "\n")
    } else {
      context.standardOutput.write(BackupRendering.listText(summaries, newest: newest))
    }
    return summaries.contains { $0.error != nil } ? .dataError : .success
  }
}
