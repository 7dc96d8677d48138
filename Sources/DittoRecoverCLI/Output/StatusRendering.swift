import ContainerFiles
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge

/// `status`: the survey, as text and JSON. Every count is a count read for real (on snapshots);
/// a store that could not be read has `null` counts and its error, never 0.
enum StatusRendering {
  /// What "Recover Old Dittos" would import here (the manual path: salvage included); in JSON
  /// `{"categories", "dittos", "from", "salvaged"}`.
  struct Recoverable: Encodable {
    var categories: Int
    var dittos: Int
    /// The files it comes from, as named in the container (`Ditto.sqlite-wal`, `keyboard additions`).
    var from: [String]
    /// True when the dittos are rebuilt by salvage from bytes SQLite cannot read.
    var isSalvaged: Bool
    /// Dittos salvage finds only in `-wal` frames never committed: not in ``dittos`` (never
    /// imported unless asked for with `--include-never-committed`).
    var neverCommitted: Int
    /// When nothing is recoverable here and a copy of the container nearby holds legacy data:
    /// that copy (the one with the most dittos); omitted otherwise.
    var nearbyCopy: String?

    enum CodingKeys: String, CodingKey {
      case categories, dittos, from, neverCommitted, nearbyCopy
      case isSalvaged = "salvaged"
    }

    init(_ survey: LegacySurvey) { self.init(survey.preview(for: .manual)) }

    /// What `recover` imports into a library without these dittos, as the preview counts it.
    init(_ preview: RecoveryPreview) {
      categories = preview.categories
      dittos = preview.dittos
      from = preview.sourceNames
      isSalvaged = preview.isSalvaged
      neverCommitted = preview.neverCommitted
    }
  }

  /// For each store that reads besides the chosen one and holds dittos the chosen store lacks: the
  /// command that imports it into `libraryPath` (runnable as printed).
  static func otherStoreSteps(_ survey: LegacySurvey, libraryPath: String) -> [NextStep] {
    survey.otherReadableStores.filter { ($0.missingFromChosen ?? 1) > 0 }.map {
      .command(
        .recover(from: $0.candidate.path, library: libraryPath),
        label: "imports the dittos of \($0.candidate.relativePath) the chosen store lacks")
    }
  }

  /// For each copy of the container nearby: `status` on it.
  static func nearbyCopySteps(
    _ copies: [NearbyCopies.Copy], target: ContainerOptions, invocation: [String]
  ) -> [NextStep] {
    copies.map { copy in
      .command(
        ContainerPreflight(target).invocation(invocation, reading: copy),
        label:
          "a copy \(copy.relation == "below" ? "below it" : "beside it"): \(plural(copy.dittos, "ditto"))"
      )
    }
  }

  /// For dittos found only in `-wal` frames never committed: the `recover` command that imports
  /// them on purpose (they are never imported by default).
  static func neverCommittedSteps(_ survey: LegacySurvey, target: ContainerOptions) -> [NextStep] {
    guard survey.neverCommittedDittos > 0, target.hasContainer else { return [] }
    let recover = Invocation(RecoverCommand.self)
      .with(ContainerOptions.container, target.layout.container)
      .with(ContainerOptions.home.spec, ifAny: target.layout.home)
      .with(ContainerOptions.library.spec, ifAny: target.hasLibrary ? target.libraryPath : nil)
    return [
      .command(
        recover.with(\RecoverCommand.$includesNeverCommitted),
        label:
          "also imports the \(plural(survey.neverCommittedDittos, "ditto")) only in frames never committed"
      )
    ]
  }

  /// The first line: `recoverable: 24 dittos in 4 categories (Ditto.sqlite-wal)`, or why not.
  static func headline(_ survey: LegacySurvey) -> String {
    let preview = survey.preview(for: .manual)
    let recoverable = Recoverable(preview)
    let uncommitted =
      recoverable.neverCommitted > 0
      ? "; \(plural(recoverable.neverCommitted, "more ditto", "more dittos")) only in -wal frames never committed (not imported unless asked for)"
      : ""
    if recoverable.dittos > 0 {
      let how = recoverable.isSalvaged ? ", rebuilt by salvage" : ""
      return
        "recoverable: \(recoverable.dittos) \(recoverable.dittos == 1 ? "ditto" : "dittos") in \(recoverable.categories) \(recoverable.categories == 1 ? "category" : "categories") (\(recoverable.from.joined(separator: ", "))\(how))\(uncommitted)"
    }
    if recoverable.neverCommitted > 0 {
      return
        "recoverable: no committed ditto; \(plural(recoverable.neverCommitted, "ditto")) only in -wal frames never committed (\(preview.neverCommittedFiles.joined(separator: ", "))): imported only when asked for"
    }
    if let error = survey.decidingReadError
      ?? survey.leftBehindError(importing: preview.sources)
    {
      return "recoverable: nothing readable (\(ArgumentSpelling.described(error)))"
    }
    if let store = survey.storeToImport {
      return
        "recoverable: nothing (\(store.candidate.relativePath) was read in full and holds no ditto)"
    }
    if case .failed(let error) = survey.defaults {
      return "recoverable: nothing readable (\(ArgumentSpelling.described(error)))"
    }
    return "recoverable: nothing (no legacy file in any probed place)"
  }

  /// One text line per store: what it holds, or why it could not be read and what salvage finds.
  static func storeLine(_ store: LegacySurvey.Store, chosen: LegacyCandidate?) -> String {
    let mark = store.candidate == chosen ? "*" : " "
    let wal = store.candidate.walBytes > 0 ? " + -wal \(store.candidate.walBytes) bytes" : ""
    var line =
      "  \(mark) [\(store.candidate.root.rawValue)] \(store.candidate.relativePath) (\(store.candidate.bytes) bytes\(wal))"
    switch store.content {
    case .read(let categories, let dittos):
      line += ": \(plural(dittos, "ditto")) in \(plural(categories, "category", "categories"))"
      if let missing = store.missingFromChosen {
        line += ", \(missing) not in the chosen store"
      }
    case .failed(let error):
      line += ": cannot be read (\(error.code)\(error.isTransient ? ", may pass: try again" : ""))"
      if case .rebuilt(_, let dittos, let extra) = store.salvage, dittos + extra > 0 {
        line += "; salvage rebuilds \(plural(dittos, "ditto"))\(neverCommittedNote(extra))"
      }
    case nil:
      break
    }
    switch store.foreignWAL {
    case .read(_, let dittos)?:
      line +=
        "; its -wal is another store's (with it: \(plural(dittos, "ditto"))): read without it, not imported"
    case .failed(let error)?:
      line +=
        "; its -wal is another store's (with it: cannot be read, \(error.code)): read without it"
    case nil:
      break
    }
    return line
  }
}

extension StatusRendering {
  /// ` (+N only in frames never committed)`, or nothing for 0.
  static func neverCommittedNote(_ count: Int) -> String {
    count > 0 ? " (+\(count) only in frames never committed)" : ""
  }
}

extension LegacySurvey {
  /// True when the App Group defaults could not be read.
  var defaultsFailed: Bool {
    if case .failed = defaults { return true }
    return false
  }
}

extension StatusRendering {
  /// `status` for people: the headline, the folder read, the flag, each candidate, what was not
  /// opened or not read now, lone `-wal` files, the App Group defaults, the library and the steps.
  static func text(
    _ survey: LegacySurvey, flag: Result<Bool, FlagStoreError>, library: LibraryStatus,
    target: ContainerOptions, invocation: [String], nearby: NearbyCopies.Findings? = nil
  ) -> String {
    let nearbyCopies = nearby?.copies ?? []
    var flagSet = false
    var flagError: String?
    switch flag {
    case .success(let isComplete): flagSet = isComplete
    case .failure(let error): flagError = ArgumentSpelling.described(error)
    }
    var first = headline(survey)
    if !survey.hasRecoverableLegacyData, let best = nearbyCopies.first {
      // Never "nothing" while a copy one folder away holds the dittos.
      first =
        "recoverable: nothing in this folder; a copy of it nearby holds legacy data (\(plural(best.dittos, "ditto")) readable): \(ArgumentSpelling.shown(path: best.path))"
    } else if !survey.hasRecoverableLegacyData, let space = nearby?.space, !space.isExhaustive {
      // Never "nothing" about places that were not looked into.
      first =
        "recoverable: nothing in this folder; unknown nearby: \(ContainerPreflight.notOpenedList(space)) could not be searched"
    }
    var lines = [first, "container: \(ArgumentSpelling.shown(path: target.layout.container))"]
    for copy in nearbyCopies {
      lines.append(
        "\(copy.kind == "store" ? "store file" : "copy") nearby (\(copy.relation)): \(ArgumentSpelling.shown(path: copy.path)): \(plural(copy.dittos, "ditto")) \(copy.kind == "store" ? "it would give" : "readable")\(copy.missingHere.map { ", \($0) of them not in this folder" } ?? "")"
      )
    }
    if let space = nearby?.space {
      lines.append("nearby: \(space.sentence)")
      for place in space.notOpened.prefix(10) {
        lines.append(
          "not opened nearby: \(ArgumentSpelling.shown(path: place.path)): \(place.reason)")
      }
      if space.notOpened.count > 10 {
        lines.append("not opened nearby: \(space.notOpened.count - 10) more")
      }
    }
    lines.append("recoverable legacy data: \(survey.hasRecoverableLegacyData ? "yes" : "no")")
    lines.append(
      "completion flag (\(AppGroupDefaults.completionKey)): \(flagSet ? "set" : "not set")")
    // The defaults file holds the flags too: when it cannot be read, that is said once, below.
    if let flagError, !survey.defaultsFailed { lines.append("flag error: \(flagError)") }
    if survey.stores.isEmpty {
      lines.append("candidates: none")
    } else {
      lines.append("candidates:")
      for store in survey.stores {
        lines.append(storeLine(store, chosen: survey.chosen))
      }
      lines.append(
        "  (* = chosen: the store holding the most dittos, its -wal included; a migration imports it)"
      )
      let others = survey.otherReadableStores.filter { ($0.missingFromChosen ?? 1) > 0 }
      if !others.isEmpty {
        let count = others.reduce(0) { $0 + ($1.missingFromChosen ?? $1.dittos ?? 0) }
        lines.append(
          "other stores hold \(plural(count, "ditto")) the chosen store lacks: the app's automatic migration does not import them; Recover Old Dittos does (and so does the command below)"
        )
      }
    }
    for skipped in survey.skipped {
      lines.append(
        "not opened [\(skipped.root.rawValue)] \(skipped.relativePath): \(ArgumentSpelling.described(skipped.error))"
      )
    }
    if let reason = survey.transientReason {
      lines.append(
        "not read now (\(reason.rawValue)): says nothing about the dittos; a migration now would count for nothing"
      )
      if let error = survey.transientFailure {
        lines += NextSteps.transient(error, invocation: invocation).lines
      } else if case .failed(let error) = survey.defaults {
        lines += NextSteps.transient(error, invocation: invocation).lines
      }
    }
    for wal in survey.loneWALs {
      var line =
        "-wal without its store: [\(wal.candidate.root.rawValue)] \(wal.candidate.relativePath) (\(wal.candidate.bytes) bytes)"
      if case .rebuilt(_, let dittos, let extra) = wal.salvage {
        line += ": salvage rebuilds \(plural(dittos, "ditto"))\(neverCommittedNote(extra))"
      } else if case .failed(let error) = wal.salvage {
        line += ": salvage finds nothing (\(error.code))"
      }
      lines.append(line)
    }
    switch survey.defaults {
    case .none: break
    case .read(let content):
      for (name, categories) in [
        ("keyboard additions not yet merged", content.pending), ("1.x dittos", content.version1),
      ] where !categories.isEmpty {
        lines.append(
          "App Group defaults: \(name): \(plural(categories.count, "category", "categories")), \(plural(categories.reduce(0) { $0 + $1.dittos.count }, "ditto"))"
        )
      }
    case .failed(let error):
      lines.append("App Group defaults unreadable: \(ArgumentSpelling.described(error))")
    }
    lines.append(library.line)
    lines += otherStoreSteps(survey, libraryPath: target.libraryPath).lines
    lines += neverCommittedSteps(survey, target: target).lines
    lines += nearbyCopySteps(nearbyCopies, target: target, invocation: invocation).lines
    return lines.joined(separator: "\n") + "\n"
  }
}
