import BackupReader
import DittoStore
import Exchange
import JSONOutput
import LegacyMigration
import LegacyStore
import RecoveryFile
import Salvage

// The `--json` outputs of the commands, as values encoded once by `JSONValueEncoder` (keys sorted,
// absent values written as null unless declared `OmittedWhenNil`). Text rendering reads the same
// engine values.

/// A recovery file's metadata record (`inspect`, `status --from`, `extract`).
struct RecoveryOutput: Encodable {
  let format: Int
  let origin: String
  let deviceName: String?
  let backupDate: String?
  let backupPath: String?
  let container: String?
  let createdAt: String
  let toolVersion: String
  let categories: Int
  let dittos: Int
  let salvaged: Int?
  let sources: [Source]
  /// Dittos only in `-wal` frames never committed that the file holds (omitted when none).
  @OmittedWhenNil var neverCommitted: Int? = nil

  /// `{"kind", "categories", "dittos"}` of one source the file was made from.
  struct Source: Encodable {
    let kind: String
    let categories: Int
    let dittos: Int
  }

  init(_ info: RecoveryFileInfo) {
    format = info.format
    origin = info.origin.rawValue
    deviceName = info.deviceName
    backupDate = info.backupDate.map(RecoveryFileInfo.isoDate)
    backupPath = info.backupPath
    container = info.container
    createdAt = RecoveryFileInfo.isoDate(info.createdAt)
    toolVersion = info.toolVersion
    categories = info.categories
    dittos = info.dittos
    salvaged = info.salvaged
    neverCommitted = info.neverCommitted
    sources = info.sources.map {
      Source(kind: $0.kind, categories: $0.categories, dittos: $0.dittos)
    }
  }
}

/// `status --from FILE`: the recovery record (null for a plain 2.x store) and what reads in it.
struct FileDescriptionOutput: Encodable {
  let file: String
  let recovery: RecoveryOutput?
  let categories: Int
  let dittos: Int
}

/// `status` when `--container` or `--home` holds several folders that could be it.
struct AmbiguousFolderOutput: Encodable {
  /// Always null: nothing is guessed.
  let recoverable: StatusRendering.Recoverable? = nil
  let ambiguous: [String]
  let next: [String]
}

/// `migrate` and `recover` (and `backup recover`'s report): the seed's keys, the manual path's
/// `result`/`message`/`detail`, a preview's `dryRun` keys and the advice.
struct ReportOutput: Encodable {
  let attempted = true
  let source: String
  let outcome: String
  let legacyStore: String?
  let legacyRoot: String?
  let legacyBytes: Int64
  let legacyWALBytes: Int64
  let categories: Int
  let dittos: Int
  let insertedCategories: Int
  let inserted: Int
  let skipped: Int
  /// Of `skipped`, the dittos the library already held (the rest were read twice and imported once).
  let alreadyInLibrary: Int
  /// The completion flag as it stands after the attempt (set now or before); `settled` is the same.
  let flagSet: Bool
  let settled: Bool
  /// True when this attempt set the completion flag (only `migrate` ever does).
  let flagSetByThisAttempt: Bool
  let otherStores: [OtherStore]
  let error: String?
  let library: String
  let libraryCloudKit: Bool
  let sources: [SourceOutput]
  let transient: Bool
  @OmittedWhenNil var errorCode: String? = nil
  @OmittedWhenNil var flagError: String? = nil
  @OmittedWhenNil var attempts: Int? = nil
  @OmittedWhenNil var salvaged: Int? = nil
  /// Dittos found only in `-wal` frames never committed that were left out (omitted when none).
  @OmittedWhenNil var neverCommitted: Int? = nil
  /// On the automatic path, what salvage would rebuild from what it did not read (omitted when
  /// nothing): "Recover Old Dittos" imports it.
  @OmittedWhenNil var salvageable: Int? = nil
  @OmittedWhenNil var orphanWALs: [Probed]? = nil
  @OmittedWhenNil var notOpened: [SkippedOutput]? = nil
  @OmittedWhenNil var reason: String? = nil
  /// Every step as printed after "next: " or "note: "; `next` the commands alone; `notes` the
  /// sentences.
  @OmittedWhenNil var advice: [String]? = nil
  @OmittedWhenNil var next: [String]? = nil
  @OmittedWhenNil var notes: [String]? = nil
  @OmittedWhenNil var defaultsError: String? = nil
  @OmittedWhenNil var result: String? = nil
  @OmittedWhenNil var message: String? = nil
  /// The manual path's detail line (written as null when it has none).
  @OmittedWhenNil var detail: String?? = nil
  @OmittedWhenNil var dryRun: Bool? = nil
  @OmittedWhenNil var preview: String? = nil
  @OmittedWhenNil var libraryWarning: String? = nil
  @OmittedWhenNil var categoriesReceivingDittos: Int? = nil

  /// `{"path", "bytes", "root"}` of a probed file.
  struct Probed: Encodable {
    let path: String
    let bytes: Int64
    let root: String

    init(_ candidate: LegacyCandidate) {
      path = candidate.relativePath
      bytes = candidate.bytes
      root = candidate.root.rawValue
    }
  }

  /// A store that reads besides the one imported (`missing`: its dittos the imported store lacks).
  struct OtherStore: Encodable {
    let path: String
    let root: String
    let file: String
    let bytes: Int64
    let walBytes: Int64
    let categories: Int
    let dittos: Int
    let missing: Int?
    let imported: Bool

    init(_ other: OtherLegacyStore, naming: ReportRendering.FileNaming) {
      path = other.candidate.relativePath
      root = other.candidate.root.rawValue
      file = naming(other.candidate.path)
      bytes = other.candidate.bytes
      walBytes = other.candidate.walBytes
      categories = other.categories
      dittos = other.dittos
      missing = other.missing
      imported = other.imported
    }
  }

  init(
    _ report: MigrationReport, libraryPath: String, steps: [NextStep],
    naming: @escaping ReportRendering.FileNaming = { $0 }
  ) {
    let naming = ReportRendering.shown(naming)
    source = report.trigger.rawValue
    outcome = report.outcome.rawValue
    legacyStore = report.store?.relativePath
    legacyRoot = report.store?.root.rawValue
    legacyBytes = report.store?.bytes ?? 0
    legacyWALBytes = report.store?.walBytes ?? 0
    categories = report.counts.categoriesRead
    dittos = report.counts.dittosRead
    insertedCategories = report.counts.insertedCategories
    inserted = report.counts.inserted
    skipped = report.counts.skipped
    alreadyInLibrary = report.counts.alreadyInLibrary
    flagSet = report.settled
    settled = report.settled
    flagSetByThisAttempt = report.flagSet
    otherStores = report.otherStores.map { OtherStore($0, naming: naming) }
    error = report.failure?.described(naming: naming)
    library = libraryPath
    libraryCloudKit = report.libraryFacts?.hasCloudKitTables ?? false
    sources = report.sources.map { SourceOutput($0, naming: naming) }
    transient = report.transientReason != nil
    errorCode = report.destinationError?.code ?? report.readError?.code
    flagError = report.flagError.map { naming($0.store) + ": " + $0.reason }
    attempts = report.attempts
    salvaged = report.salvaged
    if report.neverCommittedLeft > 0 { neverCommitted = report.neverCommittedLeft }
    if !report.orphanWALs.isEmpty { orphanWALs = report.orphanWALs.map(Probed.init) }
    if !report.skipped.isEmpty { notOpened = report.skipped.map(SkippedOutput.init) }
    reason = report.transientReason?.rawValue
    if !steps.isEmpty {
      advice = steps.map(\.pasteable)
      if !steps.commands.isEmpty { next = steps.commands }
      if !steps.notes.isEmpty { notes = steps.notes }
    }
    defaultsError = report.defaultsError?.problem.described(naming: naming)
    if report.trigger == .manual {
      result = report.recoveryResult.kind
      message = report.recoveryResult.message
      detail = .some(report.recoveryResult.detail)
    }
    if report.isDryRun {
      dryRun = true
      preview = ReportRendering.previewLine(report)
      libraryWarning = report.libraryWarning?.description
      categoriesReceivingDittos = report.counts.categoriesReceivingDittos
    }
  }
}

/// `salvage --json`: the rebuilt categories, where the rows came from, and notes.
struct SalvageOutput: Encodable {
  let categories: [Category]
  let sources: [Source]
  let usedSQLite: Bool
  let neverCommitted: Int
  let notes: [String]
  /// Deleted rows, with `--include-deleted` only.
  @OmittedWhenNil var deleted: [Ditto]? = nil

  struct Category: Encodable {
    let title: String
    let dittos: [Ditto]
  }

  struct Ditto: Encodable {
    let text: String
    let useCount: Int64
    /// True for a ditto found only in `-wal` frames no commit covers (omitted for the others).
    @OmittedWhenNil var neverCommitted: Bool? = nil

    init(_ ditto: LegacyDitto, neverCommitted: Bool = false) {
      text = ditto.text
      useCount = ditto.useCount
      if neverCommitted { self.neverCommitted = true }
    }
  }

  struct Source: Encodable {
    let kind: String
    let pages: Int
    let rows: Int
  }

  init(_ result: SalvageResult, includeDeleted: Bool) {
    // Every row, those of frames never committed after the committed ones and marked.
    let committed = Dictionary(
      result.committedLibrary.categories.map { ($0.title, Set($0.dittos.map(\.text))) },
      uniquingKeysWith: { $0.union($1) })
    categories = result.library.categories.map { category in
      Category(
        title: category.title,
        dittos: category.dittos.map {
          Ditto($0, neverCommitted: committed[category.title]?.contains($0.text) != true)
        })
    }
    sources = result.sources.map {
      Source(kind: $0.kind.rawValue, pages: Int($0.pages), rows: Int($0.rows))
    }
    usedSQLite = result.usedSQLite
    neverCommitted = result.neverCommitted
    notes = result.notes
    if includeDeleted { deleted = result.deleted.map { Ditto($0) } }
  }
}

/// `import --json`: what was read, inserted and skipped.
struct ImportOutput: Encodable {
  let categories: Int
  let dittos: Int
  let insertedCategories: Int
  let inserted: Int
  let skipped: Int
  let skippedEmptyTexts: Int
  /// New categories (and their dittos) over the app's limit of 8.
  let skippedCategories: Int
  let skippedDittos: Int
  let library: String
}

/// `inspect --json`: a Core Data store's entities with their row counts, its metadata and the
/// recovery record when it is a recovery file.
struct InspectOutput: Encodable {
  let entities: [Entity]
  let storeUUID: String?
  let journal: String
  let frameworkVersion: Int?
  let storeType: String?
  let hasWAL: Bool
  let recovery: RecoveryOutput?
  @OmittedWhenNil var recoveryError: String? = nil

  /// An entity: its name, number (`ent`), table, rows (null when they could not be counted) and
  /// its super-entity's number.
  struct Entity: Encodable {
    let name: String
    let ent: Int64
    let table: String?
    let rows: Int?
    let `super`: Int64
  }
}

/// What every backup object says about the backup: where, which device, when, which iOS, whether
/// encrypted, and `Status.plist`'s snapshot state. Each backup output is this and its own members.
struct BackupIdentity: Encodable {
  let path: String
  let deviceName: String?
  let date: String?
  let iosVersion: String?
  let encrypted: Bool
  let snapshotState: String?

  init(_ backup: Backup) {
    let metadata = backup.metadata
    path = backup.path
    deviceName = metadata.deviceName
    date = BackupRendering.isoDate(metadata.date)
    iosVersion = metadata.iosVersion
    encrypted = metadata.isEncrypted == true
    snapshotState = metadata.snapshotState
  }
}

/// Two values encoded as one JSON object: the members of both (the second's win on a shared key).
struct Combined<First: Encodable, Second: Encodable>: Encodable {
  let first: First
  let second: Second

  init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  func encode(to encoder: any Encoder) throws {
    try first.encode(to: encoder)
    try second.encode(to: encoder)
  }
}

/// `{"backup": …}`: the backup member of `backup recover --json` beside the report's keys.
struct BackupMember<Value: Encodable>: Encodable {
  let backup: Value
}

/// `backup list --json`: each backup, the newest holding a Ditto store, and the steps.
struct BackupListOutput: Encodable {
  let backups: [Combined<BackupIdentity, Backup>]
  let newestWithDittoStore: String?
  /// Backups that could not be read and may hold a newer store (the choice depends on them).
  let newestDependsOn: [String]
  @OmittedWhenNil var next: [String]? = nil
  @OmittedWhenNil var notes: [String]? = nil

  /// One backup beyond its identity: its Ditto files (null, with `error`, when the manifest could
  /// not be read), whether it holds a store, its problems, and what "Recover Old Dittos" would
  /// import. `encrypted` is true as well when the listing says so.
  struct Backup: Encodable {
    let encrypted: Bool
    let decrypted: Bool
    let dittoFiles: [File]?
    let hasDittoStore: Bool
    let error: String?
    @OmittedWhenNil var errorCode: String? = nil
    let problems: [String]
    let recoverable: StatusRendering.Recoverable?

    struct File: Encodable {
      let domain: String
      let relativePath: String
      let bytes: Int64?
    }
  }
}

/// The `backup` key of `backup extract --json` beyond the backup's identity: how many backups were
/// found and each Ditto file's fate.
struct BackupExtractOutput: Encodable {
  let backupsFound: Int
  let files: [File]

  struct File: Encodable {
    let domain: String
    let relativePath: String
    let status: String
    let reason: String?
  }

  init(backupsFound: Int, rebuild: RebuildReport) {
    self.backupsFound = backupsFound
    files = rebuild.files.map {
      File(
        domain: $0.domain, relativePath: $0.relativePath, status: $0.status.rawValue,
        reason: $0.reason)
    }
  }
}

/// The `backup` key of `backup recover --json` beyond the backup's identity: the container rebuilt
/// from it and each Ditto file's fate.
struct BackupRecoverOutput: Encodable {
  let decrypted: Bool
  let backupsFound: Int
  let out: String
  let container: String
  let home: String?
  let foldersCreated: Int
  let files: [File]
  let problems: [String]

  struct File: Encodable {
    let domain: String
    let relativePath: String
    let bytes: Int64?
    let copiedBytes: Int64?
    let status: String
    let reason: String?
  }

  init(
    _ summary: BackupSummary, listing: ManifestListing, rebuild: RebuildReport, output: String,
    backupsFound: Int
  ) {
    decrypted = summary.keys != nil
    self.backupsFound = backupsFound
    out = output
    container = rebuild.container
    home = rebuild.home
    foldersCreated = rebuild.folders
    files = rebuild.files.map {
      File(
        domain: $0.domain, relativePath: $0.relativePath, bytes: $0.expectedBytes,
        copiedBytes: $0.copiedBytes, status: $0.status.rawValue, reason: $0.reason)
    }
    problems = summary.backup.metadata.problems + listing.problems + rebuild.folderProblems
  }
}

/// Under `--json`, a command that fails prints this one object: the error's words, the exit code
/// and the steps (`next`: commands, `notes`: sentences); an interruption adds the signal and what
/// was removed.
struct FailureOutput: Encodable {
  let error: String
  let exitCode: Int32
  @OmittedWhenNil var next: [String]? = nil
  @OmittedWhenNil var notes: [String]? = nil
  @OmittedWhenNil var signal: String? = nil
  @OmittedWhenNil var removed: [String]? = nil
  @OmittedWhenNil var leftBehind: [String]? = nil
  /// The newer backups that could not be read, when the choice of a backup depends on them.
  @OmittedWhenNil var newestDependsOn: [String]? = nil

  init(error: String, exitCode: Int32, next: [NextStep] = []) {
    self.error = error
    self.exitCode = exitCode
    if !next.commands.isEmpty { self.next = next.commands }
    if !next.notes.isEmpty { notes = next.notes }
  }
}

/// `migrate --json` when the completion flag is already set: no attempt.
struct AlreadyCompleteOutput: Encodable {
  let attempted = false
  let source = "auto"
  let reason = "already_complete"
  let flagSet = true
}

/// `inventory --json`: the folders read and the inventory lines the migrator logs.
struct InventoryOutput: Encodable {
  let container: String
  let home: String?
  let lines: [String]
}

/// `completion --json`: the shell and its script.
struct CompletionOutput: Encodable {
  let shell: String
  let script: String
}

/// The folders a command read, added to its JSON: `container` (null when none was given) and
/// `home`.
struct FoldersReadOutput: Encodable {
  let container: String?
  let home: String?
}
