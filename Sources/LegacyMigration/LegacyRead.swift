import LegacyStore
import LibraryMerge
import Telemetry

/// The legacy side of one attempt: the survey, and what the attempt took from it. Everything an
/// attempt reports about the legacy data (the store, its error, salvage, the sources, the files
/// left behind) is derived here from the survey, never copied from it.
package struct LegacyRead: Sendable {
  /// What was found and read (empty when the attempt stopped before reading).
  package let survey: LegacySurvey
  /// Which sources the attempt takes.
  package let selection: SourceSelection
  /// True for a file the user picked (it is legacy data by being picked).
  package let isPickedFile: Bool
  /// A store the survey read whose stream could not be opened for the merge: its dittos are not
  /// offered, and its error is the attempt's.
  package internal(set) var unopened: (candidate: LegacyCandidate, error: LegacyStoreError)?
  /// The sources the selection takes, in order (see
  /// ``LegacySurvey/sources(salvaging:everyStore:includingNeverCommitted:)``): worked out once,
  /// every fact below is read from it.
  package let selected: [LegacySurvey.Source]

  /// The legacy side of an attempt taking `selection` from `survey` (a picked file's or the probed
  /// places'); a store whose stream then cannot be opened is recorded in ``unopened``.
  package init(survey: LegacySurvey, selection: SourceSelection, isPickedFile: Bool) {
    self.survey = survey
    self.selection = selection
    self.isPickedFile = isPickedFile
    selected = survey.sources(
      salvaging: selection.salvaging, everyStore: selection.everyStore,
      includingNeverCommitted: selection.includesNeverCommitted)
  }

  /// The legacy side of an attempt that stopped before reading anything.
  package static func notRead(_ trigger: MigrationSource) -> LegacyRead {
    LegacyRead(
      survey: LegacySurvey(layout: nil, depth: .presence), selection: SourceSelection(trigger),
      isPickedFile: false)
  }

  /// The source salvage rebuilt, when the attempt takes one.
  private var salvageSource: (source: LegacySurvey.Source, candidate: LegacyCandidate)? {
    for source in selected {
      if case .salvage(let candidate) = source.origin { return (source, candidate) }
    }
    return nil
  }

  /// A store file, a path with a store's name, a defaults source (or its error) or a lone `-wal`
  /// that is not empty was found (a picked file always is).
  package var foundLegacyData: Bool {
    isPickedFile || survey.chosen != nil || !survey.skipped.isEmpty || defaultsError != nil
      || !orphanWALs.isEmpty || selected.contains { $0.origin == .defaults }
  }

  /// The store that was read (what salvage rebuilt from, when it did), or, when none could be
  /// read, the one that was chosen; nil when no legacy data was found.
  package var store: LegacyCandidate? {
    guard foundLegacyData else { return nil }
    if let salvage = salvageSource { return salvage.candidate }
    return survey.storeToImport?.candidate ?? survey.chosen
  }

  /// Why the store could not be read: a stream that could not be opened, else the survey's
  /// deciding error, else a lone `-wal` left behind; nil once a store (or salvage) was read.
  package var readError: LegacyStoreError? {
    guard foundLegacyData else { return nil }
    if let unopened { return unopened.error }
    if salvageSource != nil { return nil }
    return survey.decidingReadError ?? survey.leftBehindError(importing: selected)
  }

  /// Why the App Group defaults' legacy keys could not be read.
  package var defaultsError: DefaultsError? {
    if case .failed(let error) = survey.defaults { return error }
    return nil
  }

  /// Dittos rebuilt by salvage, when its rows are used.
  package var salvaged: Int? { salvageSource?.source.dittos }

  /// Lone `-wal` files whose store is gone and which are not empty.
  package var orphanWALs: [LegacyCandidate] {
    survey.loneWALs.filter(\.mayHoldData).map(\.candidate)
  }

  /// Paths with a store's name that are not regular files (never opened).
  package var skipped: [SkippedCandidate] { survey.skipped }

  /// Dittos salvage found only in `-wal` frames no commit covers that the attempt leaves out (0
  /// when it takes them, or does not salvage).
  package var neverCommittedLeft: Int {
    selection.salvaging && !selection.includesNeverCommitted ? survey.neverCommittedDittos : 0
  }

  /// Dittos found only in frames never committed that the attempt takes on purpose.
  package var neverCommittedIncluded: Int {
    guard selection.includesNeverCommitted else { return 0 }
    return selected.reduce(0) { total, source in
      switch source.origin {
      case .salvage(let candidate): total + survey.neverCommitted(in: candidate)
      case .neverCommitted: total + source.dittos
      case .store, .defaults: total
      }
    }
  }

  /// The first failure met that says nothing about the legacy data (see
  /// ``LegacySurvey/transientReason``), when legacy data was found.
  package var transientReason: TransientReason? {
    foundLegacyData ? survey.transientReason : nil
  }

  /// Other stores that read and hold dittos besides the one taken first, with whether the
  /// attempt takes them too.
  package var otherStores: [OtherLegacyStore] {
    guard foundLegacyData else { return [] }
    return survey.otherReadableStores.map { store in
      OtherLegacyStore(
        candidate: store.candidate, categories: store.categories ?? 0, dittos: store.dittos ?? 0,
        missing: store.missingFromChosen,
        imported: selected.contains { $0.origin == .store(store.candidate) })
    }
  }

  /// One report per source taken (a store whose stream could not be opened left out), and one for
  /// unreadable defaults.
  package var sources: [LegacySourceReport] {
    guard foundLegacyData else { return [] }
    var reports: [LegacySourceReport] = []
    for source in selected {
      let path: String
      switch source.origin {
      case .store(let candidate):
        if candidate == unopened?.candidate { continue }
        path = candidate.path
      case .salvage(let candidate), .neverCommitted(let candidate): path = candidate.path
      case .defaults: path = survey.defaultsName
      }
      var report = LegacySourceReport(kind: source.kind, path: path)
      report.categories = source.categories
      report.dittos = source.dittos
      reports.append(report)
    }
    if let defaultsError {
      var entry = LegacySourceReport(kind: .defaults, path: survey.defaultsName)
      entry.failure = defaultsError.problem
      reports.append(entry)
    }
    return reports
  }

  /// Categories and dittos the sources offer, as read.
  package var offered: (categories: Int, dittos: Int) {
    let sources = sources
    return (sources.reduce(0) { $0 + $1.categories }, sources.reduce(0) { $0 + $1.dittos })
  }
}

/// A store that reads and holds dittos besides the one an attempt imported: the automatic path
/// leaves it for "Recover Old Dittos" (which imports it after the chosen store, duplicates skipped);
/// reports name it with a next step.
public struct OtherLegacyStore: Sendable, Equatable {
  /// The file.
  package var candidate: LegacyCandidate
  /// Categories it holds.
  public package(set) var categories: Int
  /// Dittos it holds.
  public package(set) var dittos: Int
  /// How many of its dittos the imported store lacks (by category title and text); nil when they
  /// could not be compared. What "Recover Old Dittos" would add from it.
  public package(set) var missing: Int?
  /// True when this attempt imported it too (the manual path).
  public package(set) var imported: Bool

  /// The file, relative to the place it was found in (`Library/Application Support/Ditto.sqlite`):
  /// for logs and support, never a path the user chose.
  public var relativePath: String { candidate.relativePath }

  /// A store at `candidate` holding `categories` and `dittos`, `missing` of them not in the
  /// imported store, imported by this attempt or not.
  package init(
    candidate: LegacyCandidate, categories: Int, dittos: Int, missing: Int?, imported: Bool
  ) {
    self.candidate = candidate
    self.categories = categories
    self.dittos = dittos
    self.missing = missing
    self.imported = imported
  }
}
