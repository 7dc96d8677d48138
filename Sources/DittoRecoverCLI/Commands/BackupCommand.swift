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
        throw UsageError(
          "'\(passwordFile.spec.synopsis)' \(ArgumentSpelling.shown(path: path)) is too large for a password"
        )
      }
      bytes = try file.read(count: Int(file.size), at: 0)
    } catch let error as SafeFileError {
      throw InputError("\(passwordFile.spec.synopsisName) \(ArgumentSpelling.described(error))")
    } catch let error as FileAccessError {
      throw InputError("\(passwordFile.spec.synopsisName) \(ArgumentSpelling.described(error))")
    }
    let text = passwordText(bytes)
    let password = text.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    guard !password.isEmpty else {
      throw UsageError(
        "'\(passwordFile.spec.synopsis)' \(ArgumentSpelling.shown(path: path)) holds no password")
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
        switch backup.metadata.isEncrypted {
        case true:
          context.diagnose(
            "unlocking \(ArgumentSpelling.shown(path: path)) with the password (this takes a while)"
          )
        case false:
          context.diagnose(
            "note: \(ArgumentSpelling.shown(path: path)) is not encrypted; the password is not needed"
          )
        case nil:
          context.diagnose(
            "note: whether \(ArgumentSpelling.shown(path: path)) is encrypted is unknown: its Manifest.plist could not be read"
          )
        }
      }
      let unlocks = password != nil && backup.metadata.isEncrypted == true
      let what = unlocks ? "unlocking the backup and its manifest" : "reading the backup's manifest"
      return ProgressLine.whileRunning(what, context: context) {
        BackupSummary(backup: backup, password: password)
      }
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
        context.diagnose("warning: \(ArgumentSpelling.described(error))")
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
      (chosen, why) = (newest, "the newest that holds a Ditto store (or its -wal)")
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
      "using \(ArgumentSpelling.shown(path: chosen.backup.path)) (\(metadata.deviceName ?? "unknown device"), \(BackupRendering.isoDate(metadata.date) ?? "date unknown")): of \(summaries.count) backups, \(why)"
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

  /// Stops before anything is made when the chosen backup lists no file of Ditto at all: another
  /// app's backup, or a device without Ditto, is called what it is (never "made before Ditto 3.0"),
  /// and the backups that do hold Ditto files are named. Exit 66; 65 when other backups could not
  /// be read (they may hold Ditto's files: "nothing" is not proven).
  static func requireDittoFiles(
    _ chosen: BackupSummary, summaries: [BackupSummary], invocation: [String]
  ) throws {
    guard case .success(let listing) = chosen.listing, listing.entries.isEmpty else { return }
    let others = summaries.filter { $0.backup.path != chosen.backup.path && $0.hasDittoFiles }
    let unreadable = summaries.filter { $0.error != nil }
    let steps: [NextStep] = others.map { other in
      .command(
        Self.invocation(invocation, readingBackup: other.backup.path),
        label:
          "a backup that holds Ditto files (\(BackupRendering.isoDate(other.backup.metadata.date) ?? "undated"))"
      )
    }
    let message =
      "\(ArgumentSpelling.shown(path: chosen.backup.path)) (\(chosen.backup.metadata.deviceName ?? "unknown device")) lists no file of Ditto (\(listing.totalRows) files, none in Ditto's domains): a backup of a device without Ditto, or of another app; nothing was made"
    guard unreadable.isEmpty else {
      throw DataError(
        message
          + "; \(unreadable.count) other backups could not be read and may hold Ditto data",
        next: steps)
    }
    throw InputError(message, next: steps)
  }

  /// What the backup's plists say against it, before its files are read: every plist that could
  /// not be read (or a key of the wrong type), named; a snapshot that did not finish.
  static func warnAbout(_ metadata: BackupMetadata, context: ToolContext) {
    for problem in metadata.problems {
      context.diagnose("warning: \(problem)")
    }
    if metadata.isSnapshotUnfinished {
      context.diagnose(
        "warning: Status.plist says \(metadata.snapshotState ?? ""): the backup may be incomplete"
      )
    }
  }

  /// Names a file rebuilt in `folder` (private, and gone when the run ends) as the user knows
  /// it: the backup, then the file's domain and path in it
  /// (`…/Backup/00008030…: AppDomainGroup-group.io.kern.ditto/Ditto.sqlite: …`).
  static func namedInBackup(rebuiltIn folder: String, backup: String?)
    -> ReportRendering.FileNaming
  {
    let forms = Set([folder, OutputFolder.resolved(folder)]).map { $0 + "/" }
      .sorted { $0.count > $1.count }
    let name = (backup.map(ArgumentSpelling.shown(path:)) ?? "the backup") + ": "
    return { path in
      guard let form = forms.first(where: { path.hasPrefix($0) }) else { return path }
      return name + path.dropFirst(form.count)
    }
  }

  /// Stops (exit 65) before anything is imported or written when a store (or its `-wal`) the
  /// manifest lists could not be rebuilt from the backup (its stored file missing or unreadable):
  /// the backup's dittos could not be read, which is never "nothing on disk". The other backups
  /// that list a store are named with the command that reads each.
  static func requireListedStoresRebuilt(
    _ rebuild: RebuildReport, chosen: BackupSummary, summaries: [BackupSummary],
    invocation: [String]
  ) throws(DataError) {
    let lost = rebuild.failedEngineInputs.filter {
      let name = ($0.relativePath.split(separator: "/").last.map(String.init) ?? "").lowercased()
      return name == "ditto.sqlite" || name == "ditto.sqlite-wal"
    }
    guard !lost.isEmpty else { return }
    let others = summaries.filter {
      $0.backup.path != chosen.backup.path && $0.holdsLegacyStoreData
    }
    let files = lost.map {
      "\($0.domain)/\($0.relativePath) (\($0.status.rawValue)\($0.reason.map { ": " + $0 } ?? ""))"
    }
    throw DataError(
      "could not read the Ditto store of \(ArgumentSpelling.shown(path: chosen.backup.path)): the manifest lists \(files.joined(separator: ", ")), but the backup does not give its bytes; nothing was imported or written\(others.isEmpty ? "" : "; \(others.count == 1 ? "another backup lists" : "\(others.count) other backups list") a store")",
      next: others.map { other in
        .command(
          Self.invocation(invocation, readingBackup: other.backup.path),
          label:
            "the backup of \(BackupRendering.isoDate(other.backup.metadata.date) ?? "an unknown date"), which lists a store"
        )
      })
  }

  /// The command the user ran, reading the backup folder `path` instead of the one given.
  static func invocation(_ invocation: [String], readingBackup path: String) -> [String] {
    var words = invocation.filter { $0 != "--json" }
    // `ditto-recover backup <sub> [BACKUP]`: the first word after the subcommand that is no option.
    var index = 3
    while index < words.count {
      let word = words[index]
      if word.hasPrefix("-") {
        // Options with a value: --out, --library, --password-file.
        if !word.contains("="), ["--out", "--library", "--password-file"].contains(word) {
          index += 1
        }
        index += 1
        continue
      }
      words[index] = path
      return words
    }
    words.append(path)
    return words
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
