import ContainerFiles
import DittoStore
import LegacyMigration
import LibraryMerge
import SafeFiles

/// The `--container`, `--home` and `--library` options shared by migrate, recover and status.
struct MigrationTarget {
  static let options: [OptionSpec] = [.container, .home, .library]

  let layout: ContainerLayout
  /// The app's library: `--library`, or `<container>/Ditto.store`.
  let libraryPath: String
  /// The library as the migrator's destination.
  let destination: DittoStoreDestination

  init(arguments: ParsedArguments) {
    layout = ContainerLayout(
      container: arguments.value("container") ?? ".", home: arguments.value("home"))
    libraryPath = arguments.value("library") ?? layout.defaultLibraryPath
    destination = DittoStoreDestination(path: libraryPath)
  }

  /// Checks that the folders exist, so a typo is an error rather than "nothing on disk".
  func validate() throws {
    try Self.requireDirectory(layout.container, option: "--container")
    if let home = layout.home { try Self.requireDirectory(home, option: "--home") }
  }

  static func requireDirectory(_ path: String, option: String) throws {
    let status: FileStatus?
    do {
      status = try FileStatus.of(path: path)
    } catch {
      throw CommandFailure("\(option) \(path): \(error.reason)", exitCode: .noInput)
    }
    guard let status else {
      throw CommandFailure("\(option) \(path): no such folder", exitCode: .noInput)
    }
    guard status.kind == .directory else {
      throw CommandFailure(
        "\(option) \(path): is a \(status.kind.humanName), not a folder", exitCode: .noInput)
    }
  }

  /// Stops with exit 74 when there is no library to write into: a `Ditto.store` is never created
  /// here (its model hashes can only come from the app).
  func requireLibrary() throws {
    try LibraryFile.requireExisting(libraryPath)
  }

  /// The migrator for this target: the library file as its destination, the container's App Group
  /// defaults plist as its flag store and legacy source, logging through the context.
  func makeMigrator(_ context: ToolContext) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: layout, destination: destination,
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: context.logger)
  }
}

/// The app's library file, `Ditto.store`, as the commands need it.
enum LibraryFile {
  /// What to do when there is no library: the message of exit 74.
  static func missingMessage(_ path: String) -> String {
    """
    \(path): no Ditto 3.x library (Ditto.store) here. ditto-recover never creates one: only the app \
    can make a store it will open. Run Ditto 3.0.2 on the device (it creates its library and migrates \
    by itself), or, here, see what would be recovered with 'recover --dry-run' or 'export --legacy FILE'.
    """
  }

  /// Throws exit 74 with ``missingMessage(_:)`` when nothing exists at `path`.
  static func requireExisting(_ path: String) throws {
    let exists: Bool
    do {
      exists = try FileStatus.of(path: path) != nil
    } catch {
      throw CommandFailure("\(path): \(error.reason)", exitCode: .ioError)
    }
    guard exists else { throw CommandFailure(missingMessage(path), exitCode: .ioError) }
  }

  /// Exit 74 for a library error, with the message for a missing one.
  static func failure(_ error: DestinationError) -> CommandFailure {
    CommandFailure(
      error.kind == .noLibrary ? missingMessage(error.file) : error.description,
      exitCode: .ioError)
  }
}
