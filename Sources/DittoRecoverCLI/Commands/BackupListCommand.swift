import BackupReader
import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import SafeFiles

/// `ditto-recover backup list`: each backup's device, date, iOS version, encryption and Ditto files.
struct BackupListCommand: Command {
  static let name = "list"
  static let abstract = "Show each backup's device, date, iOS version and the Ditto files it holds."
  static let discussion: String? = """
    With several backups, also names the newest one that holds a Ditto store. Each backup's Ditto
    files are rebuilt into a private folder (removed afterwards, also when interrupted) and
    surveyed as 'status' surveys a container: how many dittos it could give back (JSON:
    "recoverable"). An encrypted backup given without --password-file is listed as encrypted, with
    the next step; exits 65 only when a backup could not be read otherwise (a wrong password, a
    damaged manifest); the others are still listed.
    """
  @Argument(BackupCommand.backup) var backup: String = "."
  @Argument(BackupCommand.passwordFile) var passwordFile: String?

  func run(_ context: ToolContext) throws -> CommandOutput {
    let password = try passwordFile.map(BackupCommand.readPassword)
    let paths = try BackupCommand.locate(backup)
    let summaries = BackupCommand.summarize(paths, password: password, context: context)
    let newest = BackupSummary.newestWithDittoStore(summaries)
    let undecided =
      summaries.count > 1 ? BackupSummary.unreadable(newerThan: newest, in: summaries) : []
    // An encrypted backup listed without its password is listed, not a failure: the next step
    // says how to open it. Any other backup that could not be read is an error (exit 65).
    let locked = summaries.filter {
      if case .failure(.encrypted) = $0.listing { return password == nil }
      return false
    }
    let failed = summaries.filter { summary in
      summary.error != nil && !locked.contains { $0.backup.path == summary.backup.path }
    }
    for summary in failed {
      if let error = summary.error { context.printError(ArgumentSpelling.described(error)) }
    }
    var next: [NextStep] = []
    if !locked.isEmpty {
      next = NextSteps.encryptedBackup(invocation: context.invocation)
      let names = locked.map { ArgumentSpelling.shown(path: $0.backup.path) }.joined(
        separator: ", ")
      next.insert(
        .note(
          "\(plural(locked.count, "backup is", "backups are")) encrypted and listed without their files: \(names)"
        ), at: 0)
    }
    if let newest, !undecided.isEmpty {
      // The newest readable backup is not certainly the newest: say how to take it on purpose.
      next.append(
        .command(
          .backupExtract(newest.backup.path),
          label: "the older backup on purpose, if the newer one cannot be opened"))
    }
    let view = BackupListView(
      summaries: summaries, surveys: summaries.map { Self.survey($0, context: context) },
      newest: newest, undecided: undecided, next: next)
    return .result(
      view.value, text: view.text, exitCode: failed.isEmpty ? .success : .dataError,
      trailer: next.lines)
  }

  /// What the engine's survey finds in a backup's Ditto files, rebuilt into a private folder (nil
  /// when its manifest could not be read or it lists no Ditto file).
  static func survey(_ summary: BackupSummary, context: ToolContext) -> LegacySurvey? {
    guard case .success(let listing) = summary.listing, !listing.entries.isEmpty else {
      return nil
    }
    let scratch: PrivateDirectory
    do {
      scratch = try PrivateDirectory(prefix: "ditto-list-")
    } catch {
      return nil
    }
    defer { scratch.remove() }
    let rebuild = BackupRebuilder(backup: summary.backup, output: scratch.path).rebuild(
      listing, contents: summary.contentReader)
    let layout = ContainerLayout(container: rebuild.container, home: rebuild.home)
    return LegacySurvey.of(
      layout, defaults: AppGroupDefaults(path: layout.defaultsPath), depth: .contentsAndSalvage,
      logger: context.logger)
  }
}
