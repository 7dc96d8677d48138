import Exchange
import LegacyMigration
import LegacyStore

/// `status`: the survey, as text and JSON. Every count is a count read for real (on snapshots);
/// a store that could not be read has `null` counts and its error, never 0.
enum StatusRendering {
  /// What "Recover Old Dittos" would import here (the manual path: salvage included).
  struct Recoverable {
    var categories: Int
    var dittos: Int
    /// The files it comes from, as named in the container (`Ditto.sqlite-wal`, `keyboard additions`).
    var from: [String]
    /// True when the dittos are rebuilt by salvage from bytes SQLite cannot read.
    var isSalvaged: Bool

    init(_ survey: LegacySurvey) {
      let sources = survey.sources(for: .manual)
      categories = sources.reduce(0) { $0 + $1.categories }
      dittos = sources.reduce(0) { $0 + $1.dittos }
      from = sources.map { source in
        switch source.origin {
        case .store(let candidate), .salvage(let candidate): candidate.relativePath
        case .defaults: source.kind == .pending ? "keyboard additions" : "1.x dittos"
        }
      }
      isSalvaged = sources.contains {
        if case .salvage = $0.origin { return true }
        return false
      }
    }
  }

  /// For each store that reads besides the chosen one and holds dittos the chosen store lacks: the
  /// command that imports it into `libraryPath` (runnable as printed).
  static func otherStoreSteps(_ survey: LegacySurvey, libraryPath: String) -> [NextStep] {
    survey.otherReadableStores.filter { ($0.missingFromChosen ?? 1) > 0 }.map {
      .command(
        ["ditto-recover", "recover", "--from", $0.candidate.path, "--library", libraryPath],
        label: "imports the dittos of \($0.candidate.relativePath) the chosen store lacks")
    }
  }

  /// The first line: `recoverable: 24 dittos in 4 categories (Ditto.sqlite-wal)`, or why not.
  static func headline(_ survey: LegacySurvey) -> String {
    let recoverable = Recoverable(survey)
    if recoverable.dittos > 0 {
      let how = recoverable.isSalvaged ? ", rebuilt by salvage" : ""
      return
        "recoverable: \(recoverable.dittos) \(recoverable.dittos == 1 ? "ditto" : "dittos") in \(recoverable.categories) \(recoverable.categories == 1 ? "category" : "categories") (\(recoverable.from.joined(separator: ", "))\(how))"
    }
    if let error = survey.decidingReadError {
      return "recoverable: nothing readable (\(error.description))"
    }
    if let store = survey.storeToImport {
      return
        "recoverable: nothing (\(store.candidate.relativePath) was read in full and holds no ditto)"
    }
    if case .failed(let error) = survey.defaults {
      return "recoverable: nothing readable (\(error.description))"
    }
    return "recoverable: nothing (no legacy file in any probed place)"
  }

  static func storeJSON(_ store: LegacySurvey.Store, chosen: LegacyCandidate?) -> JSONValue {
    var object: [String: JSONValue] = [
      "path": .string(store.candidate.relativePath), "bytes": .number(store.candidate.bytes),
      "walBytes": .number(store.candidate.walBytes), "root": .string(store.candidate.root.rawValue),
      "chosen": .bool(store.candidate == chosen),
      "missing": store.missingFromChosen.map { .number($0) } ?? .null,
    ]
    object.merge(contentJSON(store.content)) { _, new in new }
    object["salvageable"] = salvageJSON(store.salvage)
    return .object(object)
  }

  static func loneWALJSON(_ wal: LegacySurvey.LoneWAL) -> JSONValue {
    [
      "path": .string(wal.candidate.relativePath), "bytes": .number(wal.candidate.bytes),
      "root": .string(wal.candidate.root.rawValue), "hasValidFrames": .bool(wal.hasValidFrames),
      "salvageable": salvageJSON(wal.salvage),
    ]
  }

  /// `categories`, `dittos` (null when not read), `error`, `errorCode`, `transient`.
  static func contentJSON(_ content: LegacySurvey.Content?) -> [String: JSONValue] {
    switch content {
    case .read(let categories, let dittos):
      return [
        "categories": .number(categories), "dittos": .number(dittos), "error": .null,
        "errorCode": .null, "transient": .null,
      ]
    case .failed(let error):
      return [
        "categories": .null, "dittos": .null, "error": .string(error.description),
        "errorCode": .string(error.code), "transient": .bool(error.isTransient),
      ]
    case nil:
      return [
        "categories": .null, "dittos": .null, "error": .null, "errorCode": .null,
        "transient": .null,
      ]
    }
  }

  /// Dittos salvage rebuilds; null when salvage was not run or found nothing it could decode.
  static func salvageJSON(_ salvage: LegacySurvey.SalvageCount?) -> JSONValue {
    guard case .rebuilt(_, let dittos) = salvage else { return .null }
    return .number(dittos)
  }

  /// Every legacy source found: each store (counts read, or null with the error), then the App
  /// Group defaults' keys.
  static func sourcesJSON(_ survey: LegacySurvey, defaultsPath: String) -> [JSONValue] {
    var sources: [JSONValue] = survey.stores.map { store in
      var object: [String: JSONValue] = [
        "kind": .string(LegacySourceReport.Kind.coreData.rawValue),
        "path": .string(store.candidate.path),
      ]
      let content = contentJSON(store.content)
      for key in ["categories", "dittos", "error"] { object[key] = content[key] }
      return .object(object)
    }
    switch survey.defaults {
    case .none: break
    case .read(let content):
      for (kind, categories) in [
        (LegacySourceReport.Kind.pending, content.pending), (.v1, content.version1),
      ] where !categories.isEmpty {
        sources.append([
          "kind": .string(kind.rawValue), "path": .string(defaultsPath),
          "categories": .number(categories.count),
          "dittos": .number(categories.reduce(0) { $0 + $1.dittos.count }), "error": .null,
        ])
      }
    case .failed(let error):
      sources.append([
        "kind": .string(LegacySourceReport.Kind.defaults.rawValue), "path": .string(defaultsPath),
        "categories": .null, "dittos": .null, "error": .string(error.description),
      ])
    }
    return sources
  }

  static func recoverableJSON(_ survey: LegacySurvey) -> JSONValue {
    let recoverable = Recoverable(survey)
    return [
      "categories": .number(recoverable.categories), "dittos": .number(recoverable.dittos),
      "from": .array(recoverable.from.map(JSONValue.string)),
      "salvaged": .bool(recoverable.isSalvaged),
    ]
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
      if case .rebuilt(_, let dittos) = store.salvage, dittos > 0 {
        line += "; salvage rebuilds \(plural(dittos, "ditto"))"
      }
    case nil:
      break
    }
    return line
  }
}

extension LegacySurvey {
  /// True when the App Group defaults could not be read.
  var defaultsFailed: Bool {
    if case .failed = defaults { return true }
    return false
  }
}
