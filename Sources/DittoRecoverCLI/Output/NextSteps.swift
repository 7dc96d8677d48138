import LegacyMigration
import LegacyStore
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A word as a POSIX shell reads it back unchanged: bare when it holds only safe characters,
/// otherwise in single quotes (a quote inside written `'\''`).
enum ShellWord {
  static func quote(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,")
    if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
    return "'" + word.replacingScalar("'", with: "'\\''") + "'"
  }

  /// `words` as one pasteable command line.
  static func line(_ words: [String]) -> String {
    words.map(quote).joined(separator: " ")
  }
}

/// What to do about a failure that says nothing about the data (``TransientReason``): lines for a
/// support engineer at a terminal, each a sentence or a command to paste, in the order to try them.
enum NextSteps {
  /// The advice for `error` met while running `invocation`.
  static func transient(_ error: LegacyStoreError, invocation: [String]) -> [String] {
    let again = "then run the same command again: \(ShellWord.line(invocation))"
    switch error {
    case .permissionDenied(let file, _):
      var lines = [permissionLine(file)]
      if geteuid() != 0 {
        lines.append("as an administrator: sudo \(ShellWord.line(invocation))")
      }
      lines.append(
        "or copy the container again keeping its owners and modes (cp -Rp, as a user who can read it), \(again)"
      )
      return lines
    case .busy, .changing, .notFound:
      return [
        "another process is writing \(error.file): quit it (or copy the container while nothing writes to it), \(again)"
      ]
    case .ioError(let file, _):
      return [
        "\(file) could not be read (an I/O error): a copy of a locked iPhone's data reads like this; copy it again with the iPhone unlocked, or check the disk it is on, \(again)"
      ]
    case .noSpaceForSnapshot:
      return [
        "free space in \(systemTemporaryDirectory()) (the private copy needs about the store's size), or point TMPDIR at a folder with room: TMPDIR=/path/with/room \(ShellWord.line(invocation))"
      ]
    case .notARegularFile(let file, let kind):
      if kind == .symbolicLink {
        return [
          "\(file) is a link: ditto-recover never follows links. Put the real file in its place:",
          "cp -L \(ShellWord.quote(file)) \(ShellWord.quote(file + ".real")) && mv \(ShellWord.quote(file + ".real")) \(ShellWord.quote(file))",
          again,
        ]
      }
      return [
        "\(file) is a \(kind.humanName), not the store: copy the real Ditto.sqlite from the device or backup to that path (cp -L when the source is a link), \(again)"
      ]
    case .linkedFolder(let file):
      return [
        "\(file) is a link to a folder: ditto-recover never follows links. Put a real copy of the folder in its place:",
        "cp -RL \(ShellWord.quote(file)) \(ShellWord.quote(file + ".real")) && rm \(ShellWord.quote(file)) && mv \(ShellWord.quote(file + ".real")) \(ShellWord.quote(file))",
        again,
      ]
    case .notADatabase, .damaged, .notACoreDataStore, .notADittoStore, .ditto3Library,
      .unreadable:
      return []
    }
  }

  /// A library with iCloud sync tables and no Profile yet: let iCloud finish on the device, or take
  /// the dittos there in a recovery file.
  static func awaitingICloud(invocation: [String]) -> [String] {
    var lines = [
      "open Ditto on the iPhone and let iCloud finish bringing in its library (it can take a few minutes on Wi-Fi), then copy the container again and run this again"
    ]
    if invocation.count > 3, invocation[1] == "backup" {
      lines.append(
        "or make a recovery file to open in Ditto on the iPhone: "
          + ShellWord.line(["ditto-recover", "backup", "extract", invocation[3]]))
    } else if let index = invocation.firstIndex(of: "--container"), index + 1 < invocation.count {
      lines.append(
        "or make a recovery file to open in Ditto on the iPhone: "
          + ShellWord.line(["ditto-recover", "extract", "--container", invocation[index + 1]]))
    }
    return lines
  }

  /// The advice for App Group defaults that could not be read now.
  static func transient(_ error: DefaultsError, invocation: [String]) -> [String] {
    guard case .inaccessible(let file, _) = error else { return [] }
    var lines = [permissionLine(file)]
    if geteuid() != 0 { lines.append("as an administrator: sudo \(ShellWord.line(invocation))") }
    return lines
  }

  /// "`file` belongs to root (mode 0600); this runs as nobody (uid 65534)".
  static func permissionLine(_ file: String) -> String {
    let runner = userName(geteuid())
    var info = stat()
    guard lstat(file, &info) == 0 else {
      return
        "\(file) cannot be read by \(runner) (uid \(geteuid())): a folder on the way may not be searchable"
    }
    let mode = String(info.st_mode & 0o7777, radix: 8)
    return
      "\(file) belongs to \(userName(info.st_uid)) (mode 0\(mode)) and cannot be read by \(runner) (uid \(geteuid()))"
  }

  private static func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return String(cString: name)
  }
}
