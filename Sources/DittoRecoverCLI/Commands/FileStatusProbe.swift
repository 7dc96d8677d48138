import SafeFiles

/// Small file checks for commands.
enum FileStatusProbe {
  /// True when something exists at `path` (links are not followed).
  static func exists(_ path: String) throws -> Bool {
    do {
      return try FileStatus.of(path: path) != nil
    } catch {
      throw CommandFailure(error.description, exitCode: .noInput)
    }
  }
}
