import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import LegacyStore
import LibraryMerge
import RecoveryFile

/// `ditto-recover status`: what the probe sees, without reading or writing anything.
struct StatusCommand: Command {
  static let name = "status"
  static let abstract = "Show the legacy store candidates, the chosen one and the completion flag."
  static let discussion: String? = """
    With --from FILE, describes that file instead (a .dittorecovery file or a 2.x store, read on a
    private copy): where a recovery file came from, when and by which tool it was written, its counts
    per source, and what the engine reads in it. Exits 65 when it cannot be read.
    """
  /// `--container` is required unless `--from` is given.
  /// The command's options, declared once.
  enum Options {
    static let from = Option<String>.path(
      "from", value: "file",
      help: "Describe this recovery file (or 2.x store) instead of a container.")
  }

  static let options =
    ContainerOptions.specs(
      containerHelp:
        "The App Group container folder copied from the device (not needed with --from).")
    + [Options.from.spec]

  let target: ContainerOptions
  let json: Bool
  let file: String?

  init(arguments: ParsedArguments) throws(UsageError) {
    target = try ContainerOptions(arguments)
    file = try arguments.value(of: Options.from)
    if file == nil, !target.hasContainer {
      throw UsageError.missing(ContainerOptions.container.spec)
    }
    json = arguments.isSet(CommonOptions.json)
  }

  func run(_ context: ToolContext) throws -> ExitCode {
    if let file { return try describe(file, context) }
    if let ambiguity = target.ambiguity {
      // Nothing is guessed: each folder that could be the container, with the command for it.
      let headline =
        "recoverable: unknown: \(ambiguity.given) holds \(ambiguity.choices.count) folders that could be the \(ambiguity.option.name) (\(ambiguity.choices.joined(separator: ", ")))"
      if json {
        let object: JSONValue = [
          "recoverable": .null, "ambiguous": .array(ambiguity.choices.map(JSONValue.string)),
          "next": .array(ambiguity.steps.commands.map(JSONValue.string)),
        ]
        context.standardOutput.write(object.rendered() + "\n")
      } else {
        context.standardOutput.write(
          ([headline] + ambiguity.steps.lines).joined(separator: "\n") + "\n")
      }
      return .success
    }
    try target.validate(context)
    let migrator = target.makeMigrator(context)
    let survey = migrator.survey(.contentsAndSalvage)
    var flagSet = false
    var flagError: String?
    do {
      flagSet = try migrator.flags.readFlags().isComplete
    } catch {
      flagError = error.description
    }
    let library = LibraryStatus(path: target.libraryPath)
    if json {
      var object: [String: JSONValue] = [
        "hasRecoverableLegacyData": .bool(survey.hasRecoverableLegacyData),
        "flagSet": .bool(flagSet),
        "candidates": .array(
          survey.stores.map { StatusRendering.storeJSON($0, chosen: survey.chosen) }),
        "otherStores": .array(
          survey.otherReadableStores.map { store in
            [
              "path": .string(store.candidate.relativePath),
              "root": .string(store.candidate.root.rawValue),
              "file": .string(store.candidate.path),
              "categories": .number(store.categories ?? 0), "dittos": .number(store.dittos ?? 0),
              "missing": store.missingFromChosen.map { .number($0) } ?? .null,
            ]
          }),
        "chosen": .optional(survey.chosen?.relativePath),
        "skipped": .array(survey.skipped.map(ReportRendering.skippedJSON)),
        "notOpened": .array(survey.skipped.map(ReportRendering.skippedJSON)),
        "transientReason": .optional(survey.transientReason?.rawValue),
        "orphanWALs": .array(survey.loneWALs.map(StatusRendering.loneWALJSON)),
        "library": library.json,
        "sources": .array(
          StatusRendering.sourcesJSON(survey, defaultsPath: target.layout.defaultsPath)),
        "recoverable": StatusRendering.recoverableJSON(survey),
      ]
      object.merge(target.resolvedJSON) { _, folder in folder }
      if let flagError { object["flagError"] = .string(flagError) }
      let next = StatusRendering.otherStoreSteps(survey, libraryPath: target.libraryPath)
      if !next.isEmpty { object["next"] = .array(next.commands.map(JSONValue.string)) }
      if case .failed(let error) = survey.defaults {
        object["defaultsError"] = .string(error.description)
      }
      context.standardOutput.write(JSONValue.object(object).rendered() + "\n")
      return .success
    }
    var lines = [StatusRendering.headline(survey), "container: \(target.layout.container)"]
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
        lines.append(StatusRendering.storeLine(store, chosen: survey.chosen))
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
        "not opened [\(skipped.root.rawValue)] \(skipped.relativePath): \(skipped.error.description)"
      )
    }
    if let reason = survey.transientReason {
      lines.append(
        "not read now (\(reason.rawValue)): says nothing about the dittos; a migration now would count for nothing"
      )
      if let error = survey.transientFailure {
        lines += NextSteps.transient(error, invocation: context.invocation).lines
      } else if case .failed(let error) = survey.defaults {
        lines += NextSteps.transient(error, invocation: context.invocation).lines
      }
    }
    for wal in survey.loneWALs {
      var line =
        "-wal without its store: [\(wal.candidate.root.rawValue)] \(wal.candidate.relativePath) (\(wal.candidate.bytes) bytes)"
      if case .rebuilt(_, let dittos) = wal.salvage {
        line += ": salvage rebuilds \(plural(dittos, "ditto"))"
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
      lines.append("App Group defaults unreadable: \(error.description)")
    }
    lines.append(library.line)
    lines += StatusRendering.otherStoreSteps(survey, libraryPath: target.libraryPath).lines
    context.standardOutput.write(lines.joined(separator: "\n") + "\n")
    return .success
  }
}

extension StatusCommand {
  /// `status --from FILE`: the recovery record and what the engine's reader finds in the file.
  func describe(_ file: String, _ context: ToolContext) throws -> ExitCode {
    try InputError.requireExisting(file, option: Options.from.spec)
    let summary: LegacyReadSummary
    do {
      let store = try CoreDataStore(path: file)
      defer { store.snapshot.remove() }
      summary = try LegacyStoreReader(store: store).count()
    } catch {
      throw DataError("\(error.description): not a recovery file or a Ditto 2.x store")
    }
    let info = try RecoveryFileInfo.read(path: file)
    if json {
      let object: JSONValue = [
        "file": .string(file),
        "recovery": info.map(RecoveryRendering.json) ?? .null,
        "categories": .number(summary.categories),
        "dittos": .number(summary.dittos),
      ]
      context.standardOutput.write(object.rendered() + "\n")
      return .success
    }
    var lines = ["file: \(file)"]
    lines += info.map(RecoveryRendering.lines) ?? ["a Ditto 2.x store (no recovery record)"]
    lines.append(
      "reads as: \(plural(summary.categories, "category", "categories")), \(plural(summary.dittos, "ditto")) (what 'recover --from' offers)"
    )
    context.standardOutput.write(lines.joined(separator: "\n") + "\n")
    return .success
  }
}

/// What `status` says about the app's library (read on a private snapshot; never written).
struct LibraryStatus {
  let path: String
  let summary: DittoStoreSummary?
  let error: DestinationError?

  init(path: String) {
    self.path = path
    do {
      summary = try DittoStoreFile.summary(at: path)
      error = nil
    } catch {
      summary = nil
      self.error = error
    }
  }

  /// `{"path", "exists", "categories", "dittos", "history", "cloudKit"}`, plus `error` when it could
  /// not be read.
  var json: JSONValue {
    var object: [String: JSONValue] = [
      "path": .string(path),
      "exists": .bool(summary?.exists ?? (error?.kind != .noLibrary)),
      "categories": .number(summary?.categories ?? 0),
      "dittos": .number(summary?.dittos ?? 0),
      "history": .bool(summary?.history ?? false),
      "cloudKit": .bool(summary?.cloudKit ?? false),
    ]
    if let summary {
      object["profiles"] = .number(summary.profiles)
      if let refusal = summary.writeRefusal { object["writeRefusal"] = .string(refusal) }
    }
    if let error, error.kind != .noLibrary {
      object["error"] = .string(error.description)
      object["errorCode"] = .string(error.code)
    }
    return .object(object)
  }

  var line: String {
    if let summary, summary.exists {
      var line =
        "library: \(path): \(plural(summary.categories, "category", "categories")), \(plural(summary.dittos, "ditto"))"
      if summary.cloudKit {
        line +=
          " (this library has iCloud sync tables; if sync is on, Ditto uploads new dittos the next time it syncs)"
      }
      if let refusal = summary.writeRefusal { line += "; will not be written: \(refusal)" }
      return line
    }
    if let error, error.kind != .noLibrary { return "library: \(error.description)" }
    return "library: \(path): none yet (run Ditto 3.0.2 on the device to create it)"
  }
}
