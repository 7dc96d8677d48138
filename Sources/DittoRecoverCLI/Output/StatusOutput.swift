import Exchange
import JSONOutput
import LegacyMigration
import LegacyStore
import LibraryMerge

/// `status --json`: the survey as one value (every count one read for real; a store that could not
/// be read has `null` counts and its error, never 0). Text rendering reads the same survey.
struct StatusOutput: Encodable {
  let hasRecoverableLegacyData: Bool
  /// The completion flag as stored.
  let flagSet: Bool
  let candidates: [Candidate]
  let otherStores: [OtherStore]
  /// The chosen store's path in its root.
  let chosen: String?
  /// The paths the probe found but did not open; `notOpened` is the same list (its later name).
  let skipped: [SkippedOutput]
  let notOpened: [SkippedOutput]
  let transientReason: String?
  let orphanWALs: [LoneWAL]
  let library: LibraryOutput
  let sources: [SourceOutput]
  var recoverable: StatusRendering.Recoverable
  /// The container folder read (null when none was given).
  let container: String?
  let home: String?
  @OmittedWhenNil var flagError: String? = nil
  /// The commands that import the stores the chosen store lacks, when there are any.
  @OmittedWhenNil var next: [String]? = nil
  @OmittedWhenNil var defaultsError: String? = nil
  /// Copies of the container nearby holding legacy data the folder read does not (every one when
  /// it holds none; else those that would give more dittos): `{"path", "dittos", "hasLegacyData",
  /// "relation", "kind"}`, most dittos first. Always present (empty when there are none).
  var nearbyCopies: [NearbyCopies.Copy] = []
  /// Where the copies were looked for: `{"root", "depth", "folders", "filesExamined",
  /// "complete", "notOpened": [{"path", "reason"}]}`; omitted without `--container`.
  @OmittedWhenNil var nearbySearch: NearbyCopies.Space? = nil

  /// Adds the copies nearby, the space searched, and the command that reads each copy (first
  /// among `next`).
  mutating func add(
    nearby: NearbyCopies.Findings?, survey: LegacySurvey, target: ContainerOptions,
    invocation: [String]
  ) {
    nearbySearch = nearby?.space
    let copies = nearby?.copies ?? []
    nearbyCopies = copies
    guard !copies.isEmpty else { return }
    let steps = StatusRendering.nearbyCopySteps(copies, target: target, invocation: invocation)
    next = steps.commands + (next ?? [])
    if !survey.hasRecoverableLegacyData, let best = copies.first {
      recoverable.nearbyCopy = best.path
    }
  }

  init(
    survey: LegacySurvey, flag: Result<Bool, FlagStoreError>, library: LibraryStatus,
    target: ContainerOptions
  ) {
    hasRecoverableLegacyData = survey.hasRecoverableLegacyData
    switch flag {
    case .success(let isComplete): flagSet = isComplete
    case .failure(let error):
      flagSet = false
      flagError = ArgumentSpelling.described(error)
    }
    candidates = survey.stores.map { Candidate($0, chosen: survey.chosen) }
    otherStores = survey.otherReadableStores.map(OtherStore.init)
    chosen = survey.chosen?.relativePath
    skipped = survey.skipped.map(SkippedOutput.init)
    notOpened = skipped
    transientReason = survey.transientReason?.rawValue
    orphanWALs = survey.loneWALs.map(LoneWAL.init)
    self.library = LibraryOutput(library)
    sources = SourceOutput.all(survey, defaultsPath: target.layout.defaultsPath)
    recoverable = StatusRendering.Recoverable(survey)
    container = target.hasContainer ? target.layout.container : nil
    home = target.layout.home
    let steps =
      StatusRendering.otherStoreSteps(survey, libraryPath: target.libraryPath)
      + StatusRendering.neverCommittedSteps(survey, target: target)
    next = steps.isEmpty ? nil : steps.commands
    if case .failed(let error) = survey.defaults {
      defaultsError = ArgumentSpelling.described(error)
    }
  }

  /// `categories`, `dittos` (null when not read), `error`, `errorCode`, `transient`.
  struct Content: Encodable {
    var categories: Int?
    var dittos: Int?
    var error: String?
    var errorCode: String?
    var transient: Bool?

    init(_ content: LegacySurvey.Content?) {
      switch content {
      case .read(let categories, let dittos):
        self.categories = categories
        self.dittos = dittos
      case .failed(let error):
        self.error = ArgumentSpelling.described(error)
        errorCode = error.code
        transient = error.isTransient
      case nil: break
      }
    }
  }

  /// A probed store: where, how large, whether chosen, what it holds.
  struct Candidate: Encodable {
    let path: String
    let bytes: Int64
    let walBytes: Int64
    let root: String
    let chosen: Bool
    /// Its dittos the chosen store lacks (null for the chosen store or when not compared).
    let missing: Int?
    let categories: Int?
    let dittos: Int?
    let error: String?
    let errorCode: String?
    let transient: Bool?
    /// Dittos salvage rebuilds; null when salvage was not run or found nothing it could decode.
    let salvageable: Int?
    /// Dittos salvage finds only in `-wal` frames never committed (not imported unless asked
    /// for); null when salvage was not run or found nothing.
    let neverCommitted: Int?
    /// When the `-wal` beside it is another store's: what the two together hold (`categories`,
    /// `dittos`, or `error`), never imported; the counts above are then the main file alone's.
    let foreignWAL: StatusOutput.Content?

    init(_ store: LegacySurvey.Store, chosen: LegacyCandidate?) {
      path = store.candidate.relativePath
      bytes = store.candidate.bytes
      walBytes = store.candidate.walBytes
      root = store.candidate.root.rawValue
      self.chosen = store.candidate == chosen
      missing = store.missingFromChosen
      let content = StatusOutput.Content(store.content)
      categories = content.categories
      dittos = content.dittos
      error = content.error
      errorCode = content.errorCode
      transient = content.transient
      salvageable = store.salvage?.rebuiltDittos
      neverCommitted = store.salvage?.rebuiltDittos == nil ? nil : store.salvage?.neverCommitted
      foreignWAL = store.foreignWAL.map { StatusOutput.Content($0) }
    }
  }

  /// A store that reads besides the chosen one.
  struct OtherStore: Encodable {
    let path: String
    let root: String
    let file: String
    let categories: Int
    let dittos: Int
    let missing: Int?

    init(_ store: LegacySurvey.Store) {
      path = store.candidate.relativePath
      root = store.candidate.root.rawValue
      file = store.candidate.path
      categories = store.categories ?? 0
      dittos = store.dittos ?? 0
      missing = store.missingFromChosen
    }
  }

  /// A `-wal` without its store.
  struct LoneWAL: Encodable {
    let path: String
    let bytes: Int64
    let root: String
    let hasValidFrames: Bool
    let salvageable: Int?
    /// Dittos only in frames never committed (see ``Candidate/neverCommitted``).
    let neverCommitted: Int?

    init(_ wal: LegacySurvey.LoneWAL) {
      path = wal.candidate.relativePath
      bytes = wal.candidate.bytes
      root = wal.candidate.root.rawValue
      hasValidFrames = wal.hasValidFrames
      salvageable = wal.salvage?.rebuiltDittos
      neverCommitted = wal.salvage?.rebuiltDittos == nil ? nil : wal.salvage?.neverCommitted
    }
  }

}

/// `{"path", "root", "reason", "error", "errorCode"}` of a path the probe found but did not open.
struct SkippedOutput: Encodable {
  let path: String
  let root: String
  let reason: String
  let error: String
  let errorCode: String

  init(_ skipped: SkippedCandidate) {
    path = skipped.relativePath
    root = skipped.root.rawValue
    reason = skipped.reason
    error = ArgumentSpelling.described(skipped.error)
    errorCode = skipped.error.code
  }
}

/// `{"path", "exists", "categories", "dittos", "history", "cloudKit"}`, `profiles` and
/// `writeRefusal` when read, `error` and `errorCode` when it could not be read.
struct LibraryOutput: Encodable {
  let path: String
  let exists: Bool
  let categories: Int
  let dittos: Int
  let history: Bool
  let cloudKit: Bool
  @OmittedWhenNil var profiles: Int? = nil
  @OmittedWhenNil var writeRefusal: String? = nil
  @OmittedWhenNil var error: String? = nil
  @OmittedWhenNil var errorCode: String? = nil

  init(_ status: LibraryStatus) {
    path = status.path
    exists = status.summary?.exists ?? (status.error?.kind != .noLibrary)
    categories = status.summary?.categories ?? 0
    dittos = status.summary?.dittos ?? 0
    history = status.summary?.history ?? false
    cloudKit = status.summary?.cloudKit ?? false
    profiles = status.summary?.profiles
    writeRefusal = status.summary?.writeRefusal
    if let error = status.error, error.kind != .noLibrary {
      self.error = ArgumentSpelling.described(error)
      errorCode = error.code
    }
  }
}

extension LegacySurvey.SalvageCount {
  /// The dittos salvage rebuilt, or nil when it found nothing it could decode.
  var rebuiltDittos: Int? {
    guard case .rebuilt(_, let dittos, _) = self else { return nil }
    return dittos
  }
}

/// `{"kind", "path", "categories", "dittos", "error"}` of a legacy source (`status`, `migrate`,
/// `recover`, `extract`): counts null when the source could not be read.
struct SourceOutput: Encodable {
  let kind: String
  let path: String
  let categories: Int?
  let dittos: Int?
  let error: String?
}

extension SourceOutput {
  /// A source an attempt read, its file named by `naming`.
  init(
    _ source: LegacySourceReport, naming: @escaping ReportRendering.FileNaming = { $0 }
  ) {
    let naming = ReportRendering.shown(naming)
    self.init(
      kind: source.kind.rawValue, path: naming(source.path), categories: source.categories,
      dittos: source.dittos, error: source.failure?.described(naming: naming))
  }
}

extension SourceOutput {
  /// Every legacy source the survey found: each store (counts read, or null with the error), then
  /// the App Group defaults' keys.
  static func all(_ survey: LegacySurvey, defaultsPath: String) -> [SourceOutput] {
    var sources = survey.stores.map { store in
      let content = StatusOutput.Content(store.content)
      return SourceOutput(
        kind: LegacySourceReport.Kind.coreData.rawValue, path: store.candidate.path,
        categories: content.categories, dittos: content.dittos, error: content.error)
    }
    switch survey.defaults {
    case .none: break
    case .read(let content):
      for (kind, categories) in [
        (LegacySourceReport.Kind.pending, content.pending), (.v1, content.version1),
      ] where !categories.isEmpty {
        sources.append(
          SourceOutput(
            kind: kind.rawValue, path: defaultsPath, categories: categories.count,
            dittos: categories.reduce(0) { $0 + $1.dittos.count }, error: nil))
      }
    case .failed(let error):
      sources.append(
        SourceOutput(
          kind: LegacySourceReport.Kind.defaults.rawValue, path: defaultsPath, categories: nil,
          dittos: nil, error: ArgumentSpelling.described(error)))
    }
    return sources
  }
}
