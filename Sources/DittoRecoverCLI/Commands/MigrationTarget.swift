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
  /// Crash tests only: `DITTO_RECOVER_CRASH_AFTER_WRITES=N` stops the process dead (SIGKILL) right
  /// after the Nth write step of an import; `DITTO_RECOVER_CRASH_AT=committed` (or `flag-written`)
  /// right after the commit (or after the flag is written).
  func makeMigrator(_ context: ToolContext) -> LegacyDataMigrator {
    let migrator = LegacyDataMigrator(
      layout: layout, libraryPath: libraryPath, logger: context.logger)
    let limit = context.environment["DITTO_RECOVER_CRASH_AFTER_WRITES"].flatMap { Int($0) }
    let stage = context.environment["DITTO_RECOVER_CRASH_AT"]
    if limit != nil || stage != nil {
      migrator.faultHook = { point in
        switch point {
        case .wrote(let count): if let limit, count >= limit { kill(getpid(), SIGKILL) }
        case .committed: if stage == "committed" { kill(getpid(), SIGKILL) }
        case .flagWritten: if stage == "flag-written" { kill(getpid(), SIGKILL) }
        }
      }
    }
    return migrator
  }
}
