import ContainerFiles
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
          option == Self.container.spec
            ? .status(container: choice)
            : .status(container: layout.container).with(Self.home, choice))
      }
      return (option, given, choices, steps)
    }
    return nil
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
