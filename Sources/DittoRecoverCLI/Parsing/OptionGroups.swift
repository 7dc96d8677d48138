import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import SafeFiles

/// The options every command takes; the tool adds them to each command's own.
package enum CommonOptions {
  /// `--json`: one JSON object on standard output, also on failure.
  package static let json = Flag("json", help: "Print one JSON object on standard output.")
  /// `--verbose`: info-level log lines and the causes of errors on standard error.
  package static let verbose = Flag("verbose", help: "Show info-level log lines and error causes.")

  static let specs = [json.spec, verbose.spec]
}

/// `--container`, `--home`, `--library`: a container copied from a device, the app's own home, and
/// the app's library (by default the container's `Ditto.store`).
struct ContainerOptions {
  static let container = Option<String>.path(
    "container", value: "dir", help: "The App Group container folder copied from the device.",
    required: true, kind: .folder)
  static let home = Option<String>.path(
    "home", value: "dir",
    help: "The app's own data container (its Library and Documents), if copied.", kind: .folder)
  static let library = Option<String>.path(
    "library", value: "file",
    help: "The app's library, a Ditto 3.x Ditto.store (default: <container>/Ditto.store).")

  /// The group as a command declares it (`--container` required).
  static let specs = [container.spec, home.spec, library.spec]

  /// The group with `--container` optional (for commands that also take `--from FILE`).
  static func specs(containerHelp: String) -> [OptionSpec] {
    var optional = container.spec
    optional.isRequired = false
    optional.help = containerHelp
    return [optional, home.spec, library.spec]
  }

  let layout: ContainerLayout
  /// The app's library: `--library`, or `<container>/Ditto.store`.
  let libraryPath: String
  /// False when `--container` was not given (allowed only where it is optional).
  let hasContainer: Bool
  /// True when `--library` was given.
  let hasLibrary: Bool
  /// What `--container` turned out to be (the container itself, the folder holding it, an
  /// `.xcappdata` bundle); nil without `--container`.
  let containerResolution: FolderResolution?
  /// What `--home` turned out to be; nil without `--home`.
  let homeResolution: FolderResolution?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let container = try arguments.value(of: Self.container)
    let home = try arguments.value(of: Self.home)
    hasContainer = container != nil
    containerResolution = container.map { FolderResolution.resolve($0, as: .appGroupContainer) }
    homeResolution = home.map { FolderResolution.resolve($0, as: .appHome) }
    layout = ContainerLayout(
      container: containerResolution?.folder ?? container ?? UserPath.resolved("."),
      home: homeResolution?.folder ?? home)
    let library = try arguments.value(of: Self.library)
    hasLibrary = library != nil
    libraryPath = library ?? layout.defaultLibraryPath
  }

  /// `"container"` and `"home"`, the folders read, for a command's JSON.
  var foldersRead: FoldersReadOutput {
    FoldersReadOutput(container: hasContainer ? layout.container : nil, home: layout.home)
  }

  /// When `--container` or `--home` holds several folders that could be it: each, with the
  /// command to run on it (nothing is guessed).
  var ambiguity: (option: OptionSpec, given: String, choices: [String], steps: [NextStep])? {
    for (option, resolution) in [
      (Self.container.spec, containerResolution), (Self.home.spec, homeResolution),
    ] {
      guard case .ambiguous(let given, let choices) = resolution else { continue }
      let steps = choices.map { choice in
        NextStep.command(
          ["ditto-recover", "status"]
            + (option.name == "container"
              ? ["--container", choice]
              : ["--container", layout.container, "--home", choice]))
      }
      return (option, given, choices, steps)
    }
    return nil
  }

  /// Checks that the folders exist, so a typo is an error rather than "nothing on disk", and that
  /// `--container` is not another kind of input (a backup, a store, a recovery file); says which
  /// folder is read when it is not the one given (a bundle's `AppData`, a folder one level down).
  ///
  /// - Throws: ``InputError``; when a folder given holds several that could be it, each is named.
  func validate(_ context: ToolContext) throws(InputError) {
    if let ambiguity {
      throw InputError(
        "\(ambiguity.option.synopsisName) \(ambiguity.given) holds \(ambiguity.choices.count) folders that could be it (\(ambiguity.choices.joined(separator: ", "))): give the one to read",
        next: ambiguity.steps)
    }
    for (what, resolution) in [("container", containerResolution), ("home", homeResolution)] {
      switch resolution {
      case .appData(let bundle, let appData):
        context.diagnose(
          "note: \(bundle) is an Xcode app-data bundle: reading its AppData folder as the \(what), \(appData)\(what == "container" ? " (the app's own data; Ditto's App Group container, where 2.x kept Ditto.sqlite, is not in such a bundle)" : "")"
        )
      case .oneLevelDown(let given, let folder):
        context.diagnose(
          "note: reading the \(what) \(folder) (the folder \(given) holds it)")
      case .asGiven, .ambiguous, nil:
        break
      }
    }
    do {
      try InputError.requireFolder(layout.container, option: Self.container.spec)
    } catch {
      throw WrongKind.forContainer(layout.container) ?? error
    }
    if let wrongKind = WrongKind.forContainer(layout.container) { throw wrongKind }
    if let home = layout.home { try InputError.requireFolder(home, option: Self.home.spec) }
  }

  /// The copies of the container nearby (beside it, or up to three folders below the folder
  /// given) that hold legacy data the folder read does not: every copy when the folder read holds
  /// none, else those holding more dittos than it. Empty without `--container`, or when no
  /// folder nearby has a container's layout (nothing is read then).
  ///
  /// - Parameter survey: the folder read's survey, when the caller has one (else it is made).
  func nearbyCopies(given survey: LegacySurvey? = nil) -> [NearbyCopies.Copy] {
    nearbyCopiesAndHere(given: survey)?.copies ?? []
  }

  /// The copies nearby that hold more than the folder read, and that folder's survey; nil when no
  /// folder nearby has a container's layout (then nothing was surveyed). The places nearby are
  /// listed once, and each surveyed once.
  private func nearbyCopiesAndHere(given survey: LegacySurvey?)
    -> (copies: [NearbyCopies.Copy], here: LegacySurvey)?
  {
    guard hasContainer, let resolution = containerResolution else { return nil }
    let candidates = NearbyCopies.candidates(given: resolution.given, folder: layout.container)
    guard !candidates.isEmpty else { return nil }
    let here = survey ?? NearbyCopies.survey(of: layout.container)
    let copies = NearbyCopies.find(in: candidates)
    guard here.hasRecoverableLegacyData else { return (copies, here) }
    return (copies.filter { $0.dittos > here.readableDittos }, here)
  }

  /// The command the user ran, reading `copy` as the container instead; the library stays the
  /// one the command would have written (the folder's own `Ditto.store` when it exists).
  func invocation(_ invocation: [String], readingCopy copy: String) -> [String] {
    var words: [String] = []
    var index = 0
    while index < invocation.count {
      let word = invocation[index]
      if word == "--container", index + 1 < invocation.count {
        words += ["--container", copy]
        index += 2
        continue
      }
      if word.hasPrefix("--container=") {
        words += ["--container", copy]
      } else {
        words.append(word)
      }
      index += 1
    }
    if !hasLibrary, Self.isRegularFile(libraryPath) {
      words += ["--library", libraryPath]
    }
    return words
  }

  /// True when `path` is a regular file (links followed); false when it cannot be looked at.
  private static func isRegularFile(_ path: String) -> Bool {
    do {
      return try FileStatus.following(path: path)?.kind == .regular
    } catch {
      return false
    }
  }

  /// Stops (exit 66) before anything is read into a library or a flag is written when the folder
  /// read holds no legacy data and a copy nearby does; when the folder read holds fewer dittos
  /// than a copy, stops too if `stopsWhenFewer` (the automatic path, which would set its flag),
  /// else names the copies on standard error and goes on. Never guesses: each copy is named with
  /// the command that reads it.
  ///
  /// - Throws: ``InputError``.
  func requireNoBetterCopy(_ context: ToolContext, stopsWhenFewer: Bool) throws(InputError) {
    guard let (copies, here) = nearbyCopiesAndHere(given: nil), !copies.isEmpty else { return }
    let steps = copies.map { copy in
      NextStep.command(
        invocation(context.invocation, readingCopy: copy.path),
        label:
          "\(copy.relation == "below" ? "below it" : "beside it"): \(plural(copy.dittos, "ditto"))")
    }
    let names = copies.map { "\($0.path) (\(plural($0.dittos, "ditto")))" }.joined(separator: ", ")
    if !here.hasRecoverableLegacyData {
      throw InputError(
        "--container \(layout.container) holds no legacy data, but \(copies.count == 1 ? "a copy of it nearby does" : "\(copies.count) copies of it nearby do"): \(names); nothing was read or written: run the command on the copy",
        next: steps)
    }
    if stopsWhenFewer {
      throw InputError(
        "--container \(layout.container) holds \(plural(here.readableDittos, "ditto")), fewer than \(copies.count == 1 ? "a copy of it nearby" : "copies of it nearby"): \(names); nothing was written (no flag): run the command on the copy, or on this folder on purpose with 'recover'",
        next: steps)
    }
    context.diagnose(
      "note: \(copies.count == 1 ? "a copy" : "\(copies.count) copies") of this container nearby \(copies.count == 1 ? "holds" : "hold") more dittos: \(names)\n"
        + steps.lines.joined(separator: "\n"))
  }

  /// Stops (exit 74) when there is no library to write into: a `Ditto.store` is never created here
  /// (its model hashes can only come from the app).
  ///
  /// - Throws: ``LibraryFailure``.
  func requireLibrary() throws(LibraryFailure) {
    try LibraryFailure.requireExisting(libraryPath)
  }

  /// The migrator for this container: the library file as its destination, the container's App
  /// Group defaults plist as its flag store and legacy source, logging through the context.
  func makeMigrator(_ context: ToolContext) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: layout, destination: DittoStoreDestination(path: libraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: context.logger)
  }
}

/// `--format <format>` (`json` or `csv`), parsed into its enum; `--json` means `--format json`.
enum FormatOption {
  static func make(help: String) -> Option<ExportFormat> {
    .choice("format", value: "format", help: help)
  }

  /// Refuses `--json` with another `--format`.
  ///
  /// - Throws: ``UsageError`` when `--json` comes with another format.
  static func check(_ named: ExportFormat?, json: Bool) throws(UsageError) {
    if json, let named, named != .json {
      throw UsageError("'--json' and '--format \(named.rawValue)' cannot be used together")
    }
  }
}
