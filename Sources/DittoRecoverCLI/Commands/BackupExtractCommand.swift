import BackupReader
import Exchange
import Foundation
import LegacyMigration
import RecoveryFile
import SafeFiles

/// `ditto-recover backup extract`: a backup's Ditto data as one `.dittorecovery` file.
struct BackupExtractCommand: Command {
  static let name = "extract"
  static let abstract = "Write everything recoverable in a backup into one recovery file."
  static let discussion: String? = """
    Rebuilds Ditto's files from the backup into a private temporary folder (removed afterwards,
    also when interrupted), then writes what 'extract' would: the 2.x store with its -wal folded
    in, the 1.x list and keyboard additions (and, with --salvage, salvaged dittos), as one file in
    the 2.x store layout, with the backup's device name and date in it. Default name: Ditto-recovered-<backup date>.dittorecovery.
    Given several backups, uses the newest that holds a Ditto store. The backup is only read; an
    existing file is never overwritten (exit 73). An encrypted backup needs --password-file.
    """
  @Argument(BackupCommand.backup) var backupRoot: String = "."
  @Argument(RecoveryFileOutput.out) var out: String?
  @Argument(BackupCommand.passwordFile) var passwordFile: String?
  @Argument(RecoveryFileOutput.salvage) var salvage: Bool
  @Argument(RecoveryFileOutput.includeNeverCommitted) var includesNeverCommitted: Bool

  func run(_ context: ToolContext) throws -> CommandOutput {
    let (chosen, listing, summaries) = try BackupCommand.chooseListing(
      root: backupRoot, passwordFile: passwordFile, context: context)
    try BackupCommand.requireDittoFiles(
      chosen, summaries: summaries, invocation: context.invocation)
    let metadata = chosen.backup.metadata
    BackupCommand.warnAbout(metadata, context: context)
    let now = Date()
    let out =
      self.out ?? RecoveryRendering.defaultOutput(for: metadata.date ?? now)
    try RecoveryFileOutput.requireOutside(out, inputs: [backupRoot, chosen.backup.path])
    try RecoveryFileWriterCheck.requireFree(out)

    // Decrypted and rebuilt files live only in our own private folder.
    let scratch: PrivateDirectory
    do {
      scratch = try PrivateDirectory(prefix: "ditto-extract-")
    } catch {
      throw OutputError.cannotWrite("cannot make a private folder: \(error)")
    }
    defer { scratch.remove() }
    let progress = ProgressLine(
      "rebuilding the backup's Ditto files", totalBytes: 0, context: context)
    let rebuild = BackupRebuilder(backup: chosen.backup, output: scratch.path).rebuild(
      listing, contents: chosen.contentReader
    ) { done, total in progress.update(done: done, total: total) }
    progress.finish()
    for file in rebuild.files where file.status != .copied {
      context.diagnose(
        "warning: \(file.domain)/\(file.relativePath): \(file.status.rawValue): \(file.reason ?? "")"
      )
    }
    for problem in rebuild.folderProblems + listing.problems {
      context.diagnose("warning: \(problem)")
    }
    try BackupCommand.requireListedStoresRebuilt(
      rebuild, chosen: chosen, summaries: summaries, invocation: context.invocation)
    let layout = ContainerLayout(container: rebuild.container, home: rebuild.home)
    let extraction = RecoveryExtraction(
      layout: layout, includesSalvage: salvage || includesNeverCommitted,
      includesNeverCommitted: includesNeverCommitted, logger: context.logger)

    var info = RecoveryFileInfo(origin: .backup, createdAt: now, toolVersion: Tool.version)
    info.deviceName = metadata.deviceName
    info.backupDate = metadata.date
    info.backupPath = ArgumentSpelling.shown(path: OutputFolder.resolved(chosen.backup.path))
    let backupOutput = Combined(
      BackupIdentity(chosen.backup),
      BackupExtractOutput(backupsFound: summaries.count, rebuild: rebuild))
    var output = try RecoveryFileOutput.finish(
      extraction, info: info, out: out, source: BackupMember(backup: backupOutput),
      context: context,
      naming: BackupCommand.namedInBackup(rebuiltIn: scratch.path, backup: info.backupPath))
    let failedInputs = rebuild.failedEngineInputs
    if !failedInputs.isEmpty {
      // After the result, as the last word.
      output.trailer.append(
        "Error: \(plural(failedInputs.count, "Ditto data file")) listed in the backup could not be rebuilt (\(failedInputs.map(\.relativePath).joined(separator: ", "))): the file holds only what could be read"
      )
      if output.exitCode == .success { output.exitCode = .dataError }
    }
    return output
  }
}

/// The writer's own check, early: a backup is not unlocked and rebuilt for an output that exists.
enum RecoveryFileWriterCheck {
  static func requireFree(_ out: String) throws(RecoveryFileError) {
    try RecoveryFileWriter.requireFree(out)
  }
}
