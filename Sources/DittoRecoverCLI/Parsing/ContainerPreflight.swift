import ContainerFiles
import LegacyMigration
import SafeFiles

/// The checks a command makes on its container options before the engine reads anything: the
/// folders exist and are what they should be, no copy nearby holds what the folder lacks, there is
/// a library to write; and the commands that read a copy instead.
struct ContainerPreflight {
  /// The options checked.
  let options: ContainerOptions

  init(_ options: ContainerOptions) {
    self.options = options
  }

  /// Checks that the folders exist, so a typo is an error rather than "nothing on disk", and that
  /// `--container` is not another kind of input (a backup, a store, a recovery file); says which
  /// folder is read when it is not the one given (a bundle's `AppData`, a folder one level down).
  ///
  /// - Throws: ``InputError``; when a folder given holds several that could be it, each is named.
  func validate(_ context: ToolContext) throws(InputError) {
    if let ambiguity = options.ambiguity {
      throw InputError(
        "\(ambiguity.option.synopsisName) \(ArgumentSpelling.shown(path: ambiguity.given)) holds \(ambiguity.choices.count) folders that could be it (\(ambiguity.choices.map(ArgumentSpelling.shown(path:)).joined(separator: ", "))): give the one to read",
        next: ambiguity.steps)
    }
    for (what, resolution) in [
      ("container", options.containerResolution), ("home", options.homeResolution),
    ] {
      switch resolution {
      case .appData(let bundle, let appData):
        context.diagnose(
          "note: \(ArgumentSpelling.shown(path: bundle)) is an Xcode app-data bundle: reading its AppData folder as the \(what), \(ArgumentSpelling.shown(path: appData))\(what == "container" ? " (the app's own data; Ditto's App Group container, where 2.x kept Ditto.sqlite, is not in such a bundle)" : "")"
        )
      case .oneLevelDown(let given, let folder):
        context.diagnose(
          "note: reading the \(what) \(ArgumentSpelling.shown(path: folder)) (the folder \(ArgumentSpelling.shown(path: given)) holds it)"
        )
      case .asGiven, .ambiguous, nil:
        break
      }
    }
    do {
      try InputError.requireFolder(
        options.layout.container, option: ContainerOptions.container.spec)
    } catch {
      throw WrongKind.forContainer(options.layout.container) ?? error
    }
    if let wrongKind = WrongKind.forContainer(options.layout.container) { throw wrongKind }
    if let home = options.layout.home {
      try InputError.requireFolder(home, option: ContainerOptions.home.spec)
    }
  }

  /// The search around the container (``NearbyCopies``): the copies that hold legacy data the
  /// folder read does not (every copy when the folder read holds none, else those that would give
  /// more dittos than it) and the space searched. Nil without `--container`.
  ///
  /// - Parameter survey: the folder read's survey, when the caller has one (else it is made).
  func nearby(given survey: LegacySurvey? = nil) -> NearbyCopies.Findings? {
    nearbyAndHere(given: survey)?.findings
  }

  /// ``nearby(given:)`` and the folder read's survey.
  private func nearbyAndHere(given survey: LegacySurvey?)
    -> (findings: NearbyCopies.Findings, here: LegacySurvey)?
  {
    guard let findings = search() else { return nil }
    let here = survey ?? surveyRead()
    return (Self.copies(findings, lacking: here), here)
  }

  /// The search around the container, unfiltered; nil without `--container`.
  private func search() -> NearbyCopies.Findings? {
    guard options.hasContainer, let resolution = options.containerResolution else { return nil }
    return NearbyCopies.search(given: resolution.given, folder: options.layout.container)
  }

  /// For a manual attempt, which reads the folder itself (its stores once, salvage included):
  /// before it, the search nearby and a look at what is present here, no store opened. Stops as
  /// ``requireNoBetterCopy(_:stopsWhenFewer:)`` does when nothing is here; otherwise returns the
  /// search, for ``noteBetterCopies(_:comparedWith:context:)`` once the attempt has read the folder.
  ///
  /// - Throws: ``InputError``.
  func searchBeforeAttempt(_ context: ToolContext) throws(InputError) -> NearbyCopies.Findings? {
    guard let findings = search() else { return nil }
    let present = LegacySurvey.of(
      options.layout, defaults: AppGroupDefaults(path: options.layout.defaultsPath),
      depth: .presence)
    guard present.hasRecoverableLegacyData else {
      try requireNoBetterCopy(
        context, findings: Self.copies(findings, lacking: present), here: present,
        stopsWhenFewer: false)
      return nil
    }
    return findings
  }

  /// Names the copies of `findings` that hold dittos `read` (the attempt's survey of the folder)
  /// does not give, each with the command that reads it.
  func noteBetterCopies(
    _ findings: NearbyCopies.Findings, comparedWith read: LegacySurvey, context: ToolContext
  ) {
    do {
      try requireNoBetterCopy(
        context, findings: Self.copies(findings, lacking: read), here: read, stopsWhenFewer: false)
    } catch {
      // Never thrown for a folder that holds legacy data without stopsWhenFewer.
    }
  }

  /// The copies of `found` worth naming beside the folder surveyed as `here`: every copy when it
  /// holds no legacy data, else those holding dittos it does not give.
  private static func copies(_ found: NearbyCopies.Findings, lacking here: LegacySurvey)
    -> NearbyCopies.Findings
  {
    var findings = found
    // A store the folder's own probe names through a link is that link's, not a copy.
    let linkedHere = Set(here.skipped.compactMap { NearbyCopies.resolved($0.path) })
    findings.copies.removeAll {
      $0.kind == "store" && linkedHere.contains(NearbyCopies.resolved($0.path))
    }
    if here.hasRecoverableLegacyData, !findings.copies.isEmpty {
      // A copy is named when it holds dittos the folder read does not give, more or fewer.
      let hereKeys = NearbyCopies.dittoKeys(of: here)
      findings.copies = findings.copies.compactMap { copy in
        let keys =
          copy.kind == "store"
          ? NearbyCopies.dittoKeys(ofFile: copy.path)
          : NearbyCopies.dittoKeys(of: copy.survey?.value ?? NearbyCopies.survey(of: copy.path))
        // What could not be read on either side is unknown: the copy is named (missingHere
        // null), never dropped as holding nothing more.
        guard let keys, let hereKeys else { return copy }
        var copy = copy
        copy.missingHere = keys.subtracting(hereKeys).count
        return copy.missingHere ?? 0 > 0 ? copy : nil
      }
    }
    return findings
  }

  /// The command that reads `copy` instead of the container: for a container copy, the command
  /// the user ran with `--container` replaced (the library stays the one the command would have
  /// written: the folder's own `Ditto.store` when it exists); for a store file, `status --from`
  /// after `status`, else `recover --from` into that library (`--dry-run` kept).
  func invocation(_ invocation: [String], reading copy: NearbyCopies.Copy) -> [String] {
    guard copy.kind == "store" else { return self.invocation(invocation, readingCopy: copy.path) }
    let program = invocation.first ?? "ditto-recover"
    if invocation.dropFirst().first == "status" {
      return [program, "status", "--from", copy.path]
    }
    var words = [program, "recover", "--from", copy.path, "--library", options.libraryPath]
    if invocation.contains("--dry-run") { words.append("--dry-run") }
    return words
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
    if !options.hasLibrary, Self.isRegularFile(options.libraryPath) {
      words += ["--library", options.libraryPath]
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
  /// read holds no legacy data and a copy nearby does, or when it holds none and the search
  /// nearby could not look everywhere (a folder not opened: "nothing" would be a guess); when the
  /// folder read holds fewer dittos than a copy, stops too if `stopsWhenFewer` (the automatic
  /// path, which would set its flag), else names the copies on standard error and goes on. Never
  /// guesses: each copy is named with the command that reads it, and the space searched is said.
  ///
  /// - Returns: the folder read's survey (``surveyRead()``) when there is a container to search
  ///   around: what an attempt on it reads, for the caller to use rather than survey again.
  /// - Throws: ``InputError``.
  @discardableResult
  func requireNoBetterCopy(_ context: ToolContext, stopsWhenFewer: Bool) throws(InputError)
    -> LegacySurvey?
  {
    guard let (findings, here) = nearbyAndHere(given: nil) else { return nil }
    try requireNoBetterCopy(context, findings: findings, here: here, stopsWhenFewer: stopsWhenFewer)
    return here
  }

  /// What the folder read holds, surveyed as an attempt reads it (the container and the home,
  /// salvage counted, the App Group defaults' keys), nothing logged or written.
  func surveyRead() -> LegacySurvey {
    LegacySurvey.of(options.layout, defaults: AppGroupDefaults(path: options.layout.defaultsPath))
  }

  private func requireNoBetterCopy(
    _ context: ToolContext, findings: NearbyCopies.Findings, here: LegacySurvey,
    stopsWhenFewer: Bool
  ) throws(InputError) {
    let copies = findings.copies
    let space = findings.space
    guard !copies.isEmpty else {
      guard !here.hasRecoverableLegacyData else { return }
      guard space.isExhaustive else {
        throw InputError(
          "--container \(ArgumentSpelling.shown(path: options.layout.container)) holds no legacy data, and the search for copies nearby could not look everywhere (\(space.sentence)): \(Self.notOpenedList(space)); nothing was read or written (no flag): give the folder that holds the copy, or make these readable and run the command again",
          next: [.command(context.invocation, label: "again, once they can be read")])
      }
      context.diagnose("note: no copy nearby holds legacy data: \(space.sentence)")
      return
    }
    let steps = copies.map { copy in
      NextStep.command(
        invocation(context.invocation, reading: copy),
        label:
          "\(copy.relation == "below" ? "below it" : "beside it"): \(plural(copy.dittos, "ditto"))")
    }
    let names = copies.map { copy in
      let missing = copy.missingHere.map { ", \($0) not in this folder" } ?? ""
      return
        "\(ArgumentSpelling.shown(path: copy.path)) (\(plural(copy.dittos, "ditto"))\(missing))"
    }.joined(separator: ", ")
    if !here.hasRecoverableLegacyData {
      throw InputError(
        "--container \(ArgumentSpelling.shown(path: options.layout.container)) holds no legacy data, but \(copies.count == 1 ? "a copy of it nearby does" : "\(copies.count) copies of it nearby do"): \(names); nothing was read or written: run the command on the copy",
        next: steps)
    }
    if stopsWhenFewer {
      throw InputError(
        "--container \(ArgumentSpelling.shown(path: options.layout.container)) holds \(plural(here.preview(for: .manual).dittos, "ditto")), and \(copies.count == 1 ? "a copy of it nearby holds dittos" : "copies of it nearby hold dittos") it does not: \(names); nothing was written (no flag): run the command on the copy, or on this folder on purpose with 'recover'",
        next: steps)
    }
    context.diagnose(
      "note: \(copies.count == 1 ? "a copy" : "\(copies.count) copies") of this container nearby \(copies.count == 1 ? "holds" : "hold") dittos this folder does not: \(names)\n"
        + steps.lines.joined(separator: "\n"))
  }

  /// The places a search could not open, one phrase each (the first 10, then a count).
  static func notOpenedList(_ space: NearbyCopies.Space) -> String {
    var parts = space.notOpened.prefix(10).map {
      "\(ArgumentSpelling.shown(path: $0.path)) (\($0.reason))"
    }
    if space.notOpened.count > 10 { parts.append("\(space.notOpened.count - 10) more") }
    if !space.complete { parts.append("the rest of the space, past the search's limit") }
    return parts.joined(separator: ", ")
  }

  /// Stops (exit 74) when there is no library to write into: a `Ditto.store` is never created here
  /// (its model hashes can only come from the app).
  ///
  /// - Throws: ``LibraryFailure``.
  func requireLibrary() throws(LibraryFailure) {
    try LibraryFailure.requireExisting(options.libraryPath)
  }
}
