import LegacyMigration
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `--container`, `--home` and `--library` options shared by migrate, recover and status.
struct MigrationTarget {
  static let options: [OptionSpec] = [.container, .home, .library]

  let layout: ContainerLayout
  let libraryPath: String?

  init(arguments: ParsedArguments) {
    layout = ContainerLayout(
      container: arguments.value("container") ?? ".", home: arguments.value("home"))
    libraryPath = arguments.value("library")
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

  /// The migrator for this target, logging through the context.
  ///
  /// When `DITTO_RECOVER_CRASH_AFTER_WRITES=N` is set (crash tests only), the process stops dead with
  /// SIGKILL right after the Nth row an import writes.
  func makeMigrator(_ context: ToolContext) -> LegacyDataMigrator {
    let migrator = LegacyDataMigrator(
      layout: layout, libraryPath: libraryPath, logger: context.logger)
    if let text = context.environment["DITTO_RECOVER_CRASH_AFTER_WRITES"], let limit = Int(text),
      limit > 0
    {
      migrator.writeStepHook = { count in
        if count >= limit { kill(getpid(), SIGKILL) }
      }
    }
    return migrator
  }
}
