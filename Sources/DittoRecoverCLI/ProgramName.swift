import Foundation

/// The program as the user ran it, for the commands `next:` lines print: `ditto-recover` when it
/// was found on `PATH`, else the path it was run by (`./ditto-recover`, `~/bin/…` as expanded by
/// the shell), so that a line pasted in the same folder runs the same program.
package enum ProgramName {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var name = "ditto-recover"

  /// The name commands are printed with.
  package static var asRun: String { lock.withLock { name } }

  /// Takes the name from `argv[0]`: a path (it holds a `/`) is kept as run; a bare name means
  /// the shell found it on `PATH`, where `ditto-recover` finds it again.
  package static func use(argv0: String?) {
    guard let argv0, argv0.contains("/") else { return }
    lock.withLock { name = argv0 }
  }

  /// The program's absolute path, for a command that runs it where `PATH` is not the user's
  /// (`sudo`'s `secure_path` leaves out `~/bin` and `/opt/homebrew/bin`): the name as run made
  /// absolute, else the first executable of that name on `PATH`, else the name as run.
  static var absolutePath: String {
    let name = asRun
    if name.contains("/") {
      return name.hasPrefix("/") ? name : FileManager.default.currentDirectoryPath + "/" + name
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") where folder.hasPrefix("/") {
      let candidate = folder + "/" + name
      if access(candidate, X_OK) == 0 { return String(candidate) }
    }
    return name
  }

  /// `invocation` (the program's name first) run as an administrator: `sudo` and the program's
  /// absolute path.
  static func asAdministrator(_ invocation: [String]) -> [String] {
    ["sudo", absolutePath] + invocation.dropFirst()
  }

  /// `words` with a leading `ditto-recover` replaced by the name as run.
  static func naming(_ words: [String]) -> [String] {
    guard words.first == "ditto-recover" else { return words }
    return [asRun] + words.dropFirst()
  }
}
