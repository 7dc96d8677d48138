import ContainerFiles
import DittoStore
import Exchange
import LegacyMigration
import SafeFiles

/// The options every command takes; the tool adds them to each command's own.
public enum CommonOptions {
  /// `--json`: one JSON object on standard output, also on failure.
  public static let json = Flag("json", help: "Print one JSON object on standard output.")
  /// `--verbose`: info-level log lines and the causes of errors on standard error.
  public static let verbose = Flag("verbose", help: "Show info-level log lines and error causes.")

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
  /// `--container` as given, when it is an Xcode `.xcappdata` bundle (its `AppData` is read).
  let appDataBundle: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    var container = try arguments.value(of: Self.container)
    hasContainer = container != nil
    // An Xcode "Download Container" bundle: the app's own data is in its AppData folder.
    if let given = container, given.hasSuffix(".xcappdata"), Self.isFolder(given + "/AppData") {
      appDataBundle = given
      container = given + "/AppData"
    } else {
      appDataBundle = nil
    }
    layout = ContainerLayout(
      container: container ?? UserPath.resolved("."), home: try arguments.value(of: Self.home))
    let library = try arguments.value(of: Self.library)
    hasLibrary = library != nil
    libraryPath = library ?? layout.defaultLibraryPath
  }

  /// True when a folder is at `path` (links followed); false when there is none or it cannot be
  /// examined (the path is then used as given, and its own checks say why).
  private static func isFolder(_ path: String) -> Bool {
    do {
      return try FileStatus.following(path: path)?.kind == .directory
    } catch {
      return false
    }
  }

  /// Checks that the folders exist, so a typo is an error rather than "nothing on disk", and that
  /// `--container` is not another kind of input (a backup, a store, a recovery file); says so when
  /// an `.xcappdata` bundle is read through its `AppData` folder.
  ///
  /// - Throws: ``InputError``.
  func validate(_ context: ToolContext) throws(InputError) {
    if let bundle = appDataBundle {
      context.standardError.write(
        "note: \(bundle) is an Xcode app-data bundle: reading its AppData folder (the app's own data; Ditto's App Group container, where 2.x kept Ditto.sqlite, is not in such a bundle)\n"
      )
    }
    do {
      try InputError.requireFolder(layout.container, option: Self.container.spec)
    } catch {
      throw WrongKind.forContainer(layout.container) ?? error
    }
    if let wrongKind = WrongKind.forContainer(layout.container) { throw wrongKind }
    if let home = layout.home { try InputError.requireFolder(home, option: Self.home.spec) }
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

  /// The format asked for; nil when neither `--format` nor `--json` is given.
  ///
  /// - Throws: ``UsageError`` when `--json` comes with another format.
  static func chosen(_ arguments: ParsedArguments, _ option: Option<ExportFormat>)
    throws(UsageError) -> ExportFormat?
  {
    let named = try arguments.value(of: option)
    guard arguments.isSet(CommonOptions.json) else { return named }
    if let named, named != .json {
      throw UsageError("'--json' and '--format \(named.rawValue)' cannot be used together")
    }
    return .json
  }
}
