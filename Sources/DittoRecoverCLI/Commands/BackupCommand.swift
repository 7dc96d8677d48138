import BackupReader
import SafeFiles

/// `ditto-recover backup`: the group of commands that read a Finder/iTunes backup folder.
struct BackupCommand: Command {
  static let name = "backup"
  static let abstract =
    "List, recover or extract the Ditto files in a Finder/iTunes backup folder."
  static let discussion: String? = """
    BACKUP is one backup (…/MobileSync/Backup/<id>) or the folder holding several
    (…/MobileSync/Backup). The backup is only ever read: Manifest.db is read on a private copy, and
    files are rebuilt in a folder of your choice, never inside the backup.
    """
  static var subcommands: [any Command.Type] {
    [BackupListCommand.self, BackupRecoverCommand.self, BackupExtractCommand.self]
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    // The tool dispatches to a subcommand and shows a group's help itself: never reached.
    .stream { output in
      output.write(
        HelpFormatter.help(for: CommandPath(tool: Tool.definition.name, commands: [Self.self])))
      return .success
    }
  }

  /// The shared `BACKUP` argument.
  static let backup = Option<String>.positionalPath(
    "backup", value: "backup",
    help: "A backup folder (…/MobileSync/Backup/<id>) or the folder holding several.",
    kind: .folder)

  /// `--password-file FILE`: the password is read from a file, never from the command line.
  static let passwordFile = Option<String>.path(
    "password-file", value: "file",
    help: "A file holding the password of an encrypted backup (its first line).")

  /// The password in `path`: the file's first line (without its `\n`, `\r\n` or `\r`), as UTF-8
  /// bytes. A byte-order mark is not part of it: a file saved as UTF-8 with a BOM, or as UTF-16
  /// (Notepad's "Unicode"), gives the password that was typed.
  static func readPassword(_ path: String) throws -> [UInt8] {
    let bytes: [UInt8]
    do {
      let file = try ReadOnlyFile(path: path)
      guard file.size <= 4096 else {
        throw UsageError("'\(passwordFile.spec.synopsis)' \(path) is too large for a password")
      }
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch let error as SafeFileError {
      throw InputError("\(passwordFile.spec.synopsisName) \(error.description)")
    } catch let error as FileAccessError {
      throw InputError("\(passwordFile.spec.synopsisName) \(error.description)")
    }
    let text = passwordText(bytes)
    let password = text.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    guard !password.isEmpty else {
      throw UsageError("'\(passwordFile.spec.synopsis)' \(path) holds no password")
    }
    return Array(password)
  }

  /// A password file's bytes as UTF-8, without a byte-order mark (UTF-16 files converted).
  static func passwordText(_ bytes: [UInt8]) -> [UInt8] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
    let littleEndian = bytes.starts(with: [0xFF, 0xFE])
    guard littleEndian || bytes.starts(with: [0xFE, 0xFF]) else { return bytes }
    var units: [UInt16] = []
    var index = 2
    while index + 1 < bytes.count {
      let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
      units.append(littleEndian ? first | second << 8 : first << 8 | second)
      index += 2
    }
    return Array(String(decoding: units, as: UTF16.self).utf8)
  }

  /// Reads each backup at `paths`, unlocking encrypted ones with `password`; notes the slow part.
  static func summarize(_ paths: [String], password: [UInt8]?, context: ToolContext)
    -> [BackupSummary]
  {
    paths.map { path in
      let backup = Backup(path: path)
      if password != nil {
        if backup.metadata.isEncrypted == true {
          context.diagnose("unlocking \(path) with the password (this takes a while)")
        } else {
          context.diagnose("note: \(path) is not encrypted; the password is not needed")
        }
      }
      return BackupSummary(backup: backup, password: password)
    }
  }

  /// The backups at `path`.
  ///
  /// - Throws: ``BackupError`` naming why there are none; ``InputError`` naming what `path` is
  ///   instead (a container, a store, a recovery file) and the command that fits it.
  static func locate(_ path: String) throws -> [String] {
    do {
      return try BackupLocator.locate(path)
    } catch .notABackup(let at, let reason) {
      if let wrongKind = WrongKind.forBackup(path) { throw wrongKind }
      throw BackupError.notABackup(path: at, reason: reason)
    }
  }

  /// The only backup, or among several the newest holding a Ditto store (else the newest readable one
  /// with Ditto files, else the newest readable one); says which on standard error.
  /// The backups under `root` (unlocked with the password in `passwordFile`), the one to use and
  /// its manifest listing: the first steps of `backup recover` and `backup extract`.
  static func chooseListing(root: String, passwordFile: String?, context: ToolContext) throws
    -> (chosen: BackupSummary, listing: ManifestListing, summaries: [BackupSummary])
  {
    let password = try passwordFile.map(readPassword)
    let summaries = summarize(try locate(root), password: password, context: context)
    let chosen = try choose(from: summaries, root: root, context: context)
    switch chosen.listing {
    case .success(let listing): return (chosen, listing, summaries)
    case .failure(.encrypted(let backup, let reason)) where password == nil:
      throw DataError(
        BackupError.encrypted(backup: backup, reason: reason).description,
        next: NextSteps.encryptedBackup(invocation: context.invocation))
    case .failure(.wrongPassword(let backup)):
      // Ask again, into a new file: the one given stays as it is.
      throw DataError(
        BackupError.wrongPassword(backup: backup).description,
        next: NextSteps.encryptedBackup(invocation: context.invocation))
    case .failure(let error): throw error
    }
  }

  static func choose(from summaries: [BackupSummary], root backupRoot: String, context: ToolContext)
    throws -> BackupSummary
  {
    guard summaries.count > 1 else {
      guard let only = summaries.first else {
        throw BackupError.notABackup(path: backupRoot, reason: "no backup found")
      }
      return only
    }
    for summary in summaries {
      if let error = summary.error {
        context.diagnose("warning: \(error.description)")
      }
    }
    let readable = summaries.filter { $0.error == nil }
    let withDittoFiles = readable.filter {
      if case .success(let listing) = $0.listing { return !listing.entries.isEmpty }
      return false
    }
    let why: String
    let chosen: BackupSummary
    if let newest = BackupSummary.newestWithDittoStore(summaries) {
      (chosen, why) = (newest, "the newest that holds a Ditto store")
    } else if let newest = BackupSummary.newest(withDittoFiles) {
      (chosen, why) = (newest, "none holds a Ditto store; the newest with Ditto files")
    } else if let newest = BackupSummary.newest(readable) {
      (chosen, why) = (newest, "none holds Ditto files; the newest readable one")
    } else {
      guard let newest = BackupSummary.newest(summaries) else {
        throw BackupError.notABackup(path: backupRoot, reason: "no backup found")
      }
      (chosen, why) = (newest, "none can be read; the newest")
    }
    let metadata = chosen.backup.metadata
    context.diagnose(
      "using \(chosen.backup.path) (\(metadata.deviceName ?? "unknown device"), \(BackupRendering.isoDate(metadata.date) ?? "date unknown")): of \(summaries.count) backups, \(why)"
    )
    let undecided = BackupSummary.unreadable(newerThan: chosen, in: summaries)
    if !undecided.isEmpty {
      // Never a silent second-best: a newer backup that could not be read may hold more.
      throw UncertainBackupChoice(
        chosen: chosen.backup.path, newer: undecided,
        next: uncertainChoiceSteps(
          chosen: chosen, undecided: undecided, root: backupRoot, invocation: context.invocation))
    }
    return chosen
  }

  /// What to do when a newer backup could not be read: open it (the password steps, when it is
  /// encrypted), or name the older backup on purpose (its own folder as BACKUP).
  static func uncertainChoiceSteps(
    chosen: BackupSummary, undecided: [BackupSummary], root: String, invocation: [String]
  ) -> [NextStep] {
    var steps: [NextStep] = []
    let encrypted = undecided.contains {
      if case .failure(.encrypted) = $0.listing { return true }
      return false
    }
    if encrypted { steps += NextSteps.encryptedBackup(invocation: invocation) }
    // The BACKUP word as the user typed it (the root given may have been resolved since).
    var older = invocation.filter { $0 != "--json" }
    let resolvedRoot = UserPath.resolved(root)
    if let index = older.indices.dropFirst(3).last(where: {
      !older[$0].hasPrefix("-")
        && (older[$0] == root || UserPath.resolved(older[$0]) == resolvedRoot)
    }) {
      older[index] = chosen.backup.path
    } else {
      older.append(chosen.backup.path)
    }
    steps.append(
      .command(
        older,
        label:
          "the older backup on purpose (\(BackupRendering.isoDate(chosen.backup.metadata.date) ?? "undated"))"
      ))
    return steps
  }
}
