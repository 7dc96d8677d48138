import Foundation
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
  /// `word` quoted; an argument the run reaches through a stand-in is written as typed, in
  /// bash's `$'…'` form (``ArgumentSpelling``).
  static func quote(_ word: String) -> String {
    ArgumentSpelling.shellWord(word, quotingRest: plain) ?? plain(word)
  }

  /// `word` quoted, as it is.
  private static func plain(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,")
    if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
    return "'" + word.replacingScalar("'", with: "'\\''") + "'"
  }

  /// `words` as one pasteable command line.
  static func line(_ words: [String]) -> String {
    words.map(quote).joined(separator: " ")
  }
}

/// What to do about a failure that says nothing about the data (``TransientReason``): steps for a
/// support engineer at a terminal, in the order to try them: commands that paste and run as
/// printed, and a sentence where no command can help (``NextStep``).
enum NextSteps {
  /// The steps for `error` met while running `invocation`.
  static func transient(_ error: LegacyStoreError, invocation: [String]) -> [NextStep] {
    let again = NextStep.command(invocation, label: "then the same command again")
    switch error {
    case .permissionDenied(let file, _):
      var steps = [NextStep.note(permissionLine(file))]
      if geteuid() != 0 {
        steps.append(
          .command(ProgramName.asAdministrator(invocation), label: "as an administrator"))
      }
      steps.append(
        .note(
          "or copy the container again keeping its owners and modes (cp -Rp, as a user who can read it), then run the same command again"
        ))
      return steps
    case .busy, .changing, .notFound:
      return [
        .note(
          "another process is writing \(ArgumentSpelling.shown(path: error.file)): quit it (or copy the container while nothing writes to it)"
        ),
        again,
      ]
    case .ioError(let file, _):
      return [
        .note(
          "\(ArgumentSpelling.shown(path: file)) could not be read (an I/O error): a copy of a locked iPhone's data reads like this; copy it again with the iPhone unlocked, or check the disk it is on"
        ),
        again,
      ]
    case .noSpaceForSnapshot:
      return [
        .note(
          "free space in \(systemTemporaryDirectory()) (the private copy needs about the store's size), or use a folder with room for it:"
        ),
        .command(
          line: "TMPDIR=\"$HOME\" " + ShellWord.line(invocation),
          label: "private copies in your home folder"),
      ]
    case .notARegularFile(let file, let kind):
      if kind == .symbolicLink { return linkedStore(file, invocation: invocation) }
      return [
        .note(
          "\(ArgumentSpelling.shown(path: file)) is a \(kind.humanName), not the store: copy the real Ditto.sqlite (and its Ditto.sqlite-wal) from the device or backup to that path, then run the same command again"
        )
      ]
    case .linkedFolder(let file):
      return linkedFolder(file, invocation: invocation)
    case .notADatabase, .damaged, .notACoreDataStore, .notADittoStore, .ditto3Library,
      .unreadable:
      return []
    }
  }

  /// A store that is a symbolic link: its target and the target's `-wal` copied, as one set, into a
  /// new folder beside the container (nothing in the container is touched), then read from there.
  /// SQLite keeps a linked store's `-wal` beside the file the link points to.
  static func linkedStore(_ link: String, invocation: [String]) -> [NextStep] {
    guard let target = resolvedTarget(link) else {
      return [
        .note(
          "\(ArgumentSpelling.shown(path: link)) is a link to nothing that exists: copy the real Ditto.sqlite (and its -wal) to that path"
        )
      ]
    }
    let folder = copyFolder(beside: link)
    let copy = folder + "/Ditto.sqlite"
    var line = ShellWord.line(["mkdir", folder]) + " && " + ShellWord.line(["cp", target, copy])
    var wal: String?
    if isRegularFile(target + "-wal") {
      wal = target + "-wal"
    } else if isRegularFile(link + "-wal") {
      wal = link + "-wal"
    }
    if let wal { line += " && " + ShellWord.line(["cp", wal, copy + "-wal"]) }
    var recover = Invocation(RecoverCommand.self).with(\RecoverCommand.$file, copy)
    if let library = value(of: "--library", in: invocation) {
      recover = recover.with(ContainerOptions.library, library)
    } else if let container = value(of: "--container", in: invocation) {
      recover = recover.with(ContainerOptions.library, container + "/Ditto.store")
    }
    return [
      .note(
        "\(ArgumentSpelling.shown(path: link)) is a link: ditto-recover never follows links inside a container. Copy what it points to\(wal == nil ? "" : " with its -wal (every row not yet checkpointed is there)"), then read the copy:"
      ),
      .command(line: line, label: wal == nil ? "the store" : "the store and its -wal, as one set"),
      .command(recover, label: "reads the copy, merges into the library"),
    ]
  }

  /// A probed folder that is a link: the container copied with its links resolved, then the same
  /// command on the copy.
  static func linkedFolder(_ file: String, invocation: [String]) -> [NextStep] {
    guard let container = value(of: "--container", in: invocation) else {
      return [
        .note(
          "\(ArgumentSpelling.shown(path: file)) is a link to a folder: ditto-recover never follows links. Put a real copy of the folder in its place"
        )
      ]
    }
    let copy =
      container.hasSuffix("/") ? String(container.dropLast()) + ".copy" : container + ".copy"
    var rerun = invocation
    if let index = rerun.firstIndex(of: "--container"), index + 1 < rerun.count {
      rerun[index + 1] = copy
    }
    return [
      .note(
        "\(ArgumentSpelling.shown(path: file)) is a link to a folder: ditto-recover never follows links inside a container. Copy the container with its links resolved, then use the copy:"
      ),
      .command(["cp", "-RL", container, copy], label: "a copy with real folders"),
      .command(rerun, label: "the same command on the copy"),
    ]
  }

  /// A library with iCloud sync tables and no Profile yet: let iCloud finish on the device, or take
  /// the dittos there in a recovery file.
  static func awaitingICloud(invocation: [String]) -> [NextStep] {
    var steps = [
      NextStep.note(
        "open Ditto on the iPhone and let iCloud finish bringing in its library (it can take a few minutes on Wi-Fi), then copy the container again and run this again"
      )
    ]
    if invocation.count > 3, invocation[1] == "backup" {
      steps.append(
        .command(
          .backupExtract(invocation[3]),
          label: "or a recovery file to open in Ditto on the iPhone"))
    } else if let container = value(of: "--container", in: invocation) {
      steps.append(
        .command(
          Invocation(ExtractCommand.self).with(ContainerOptions.container, container),
          label: "or a recovery file to open in Ditto on the iPhone"))
    }
    return steps
  }

  /// An encrypted backup given without its password: a password file typed without showing it
  /// (never created over an existing file), then `invocation` again with it.
  static func encryptedBackup(invocation: [String]) -> [NextStep] {
    // A name nothing has here yet (a wrong password's file stays as it is).
    var file = "password.txt"
    var number = 2
    while FileManager.default.fileExists(atPath: file) {
      file = "password-\(number).txt"
      number += 1
    }
    var again = invocation
    if let index = again.firstIndex(of: "--password-file"), index + 1 < again.count {
      again.removeSubrange(index...(index + 1))
    }
    return [
      .note(
        "the backup is encrypted: its password goes on the first line of a file, never on the command line"
      ),
      .command(
        line:
          "(umask 077; set -C; exec 3> \(file) || exit; printf 'Backup password: '; stty -echo; IFS= read -r p; stty echo; echo; printf '%s\\n' \"$p\" >&3)",
        label: "asks for the password without showing it, into \(file)"),
      .command(again + ["--password-file", file], label: "again, with the password"),
    ]
  }

  /// A library without write permission: it is the user's copy, so give it back its write
  /// permission (with its -wal and -shm when they are there), then run the same command.
  static func readOnlyLibrary(_ library: String, invocation: [String]) -> [NextStep] {
    let files = [library, library + "-wal", library + "-shm"].filter { path in
      var info = stat()
      return lstat(path, &info) == 0
    }
    return [
      .note(
        "\(ArgumentSpelling.shown(path: library)) is read-only, so nothing was written; it is left as it was"
      ),
      .command(["chmod", "u+w"] + files, label: "let its owner write it"),
      .command(invocation, label: "the same command again"),
    ]
  }

  /// The steps for App Group defaults that could not be read now.
  static func transient(_ error: DefaultsError, invocation: [String]) -> [NextStep] {
    guard case .inaccessible(let file, _) = error else { return [] }
    var steps = [NextStep.note(permissionLine(file))]
    if geteuid() != 0 {
      steps.append(.command(ProgramName.asAdministrator(invocation), label: "as an administrator"))
    }
    return steps
  }

  /// "`file` belongs to root (mode 0600); this runs as nobody (uid 65534)".
  static func permissionLine(_ file: String) -> String {
    let runner = userName(geteuid())
    var info = stat()
    guard lstat(file, &info) == 0 else {
      return
        "\(ArgumentSpelling.shown(path: file)) cannot be read by \(runner) (uid \(geteuid())): a folder on the way may not be searchable"
    }
    let mode = String(info.st_mode & 0o7777, radix: 8)
    return
      "\(ArgumentSpelling.shown(path: file)) belongs to \(userName(info.st_uid)) (mode 0\(mode)) and cannot be read by \(runner) (uid \(geteuid()))"
  }

  private static func userName(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return String(cString: name)
  }

  /// The value after `option` in `invocation`.
  static func value(of option: String, in invocation: [String]) -> String? {
    guard let index = invocation.firstIndex(of: option), index + 1 < invocation.count else {
      return nil
    }
    return invocation[index + 1]
  }

  /// What `link` finally points to (links followed), when it exists.
  private static func resolvedTarget(_ link: String) -> String? {
    guard let real = realpath(link, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// A folder name beside the container holding `link` that does not exist yet.
  private static func copyFolder(beside link: String) -> String {
    let parent = PrivateDirectory.parent(of: PrivateDirectory.parent(of: link))
    let base = parent + "/Ditto-linked-store"
    var candidate = base
    var number = 2
    while FileManager.default.fileExists(atPath: candidate) {
      candidate = base + "-\(number)"
      number += 1
    }
    return candidate
  }
}
