import BackupReader
import Exchange
import Foundation
import LegacyMigration
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ditto-recover guide` (and `ditto-recover` alone, on a terminal): a Ditto user's way back to
/// their dittos from an iPhone backup on this computer, one question at a time.
///
///   STEP  WHAT                                             DEFAULT (Return)
///   1     look where Finder/iTunes keep backups: ~/Library/  —; none found or readable: ask
///         Application Support/MobileSync/Backup (any system,    for the folder
///         a copied Mac home too) and, under WSL, every
///         Windows user's iTunes and Microsoft Store folder
///   2     each device and date with what it holds            —
///   3     which backup                                     the newest holding dittos (the rule
///                                                          of 'backup extract')
///   4     an encrypted backup's password, not echoed        —
///   5     where the recovery file goes                      the Desktop, else this folder
///   6     'backup extract', then 'status --from' on the     —
///         file; the one step left on the phone
///
/// Every step prints the plain command it runs, so support can repeat it. Ctrl-C at any point
/// leaves nothing (the commands' own outputs appear whole or not at all; the password is kept
/// only in a private folder of this run, removed when it ends or is stopped).
struct GuideCommand: Command {
  static let name = "guide"
  static let abstract =
    "Walk through getting dittos back from an iPhone backup on this computer, one question at a time."
  static let discussion: String? = """
    Run with no arguments on a terminal, ditto-recover starts this guide. It finds the backups
    where Finder and iTunes keep them (also in a copied Mac home, and under WSL in every Windows
    user's folders), says what each holds, recommends one, asks for an encrypted backup's password
    without showing it, writes a recovery file to the Desktop (or this folder) with 'backup
    extract', checks it, and says the one step left on the iPhone. Every question has a default
    (Return takes it); Ctrl-C stops and leaves nothing. Each command it runs is printed first.
    """
  @Argument(
    .path(
      "backups", value: "dir",
      help: "The folder holding the backups (default: where Finder and iTunes keep them).",
      kind: .folder))
  var backups: String?

  func run(_ context: ToolContext) throws -> CommandOutput {
    do {
      return try guide(context)
    } catch is GuideStopped {
      // Ctrl-D at a question: the person stopped, as with no answer where one is needed.
      return Self.stopped("the input ended at a question")
    }
  }

  private func guide(_ context: ToolContext) throws -> CommandOutput {
    if context.isJSON {
      throw UsageError(
        "guide asks questions: it has no --json (use 'backup list' and 'backup extract')")
    }
    let dialog = Dialog(context: context)
    dialog.say("Ditto recovery: getting your dittos back from an iPhone backup on this computer.")
    dialog.say(
      "Press Return to take the answer in [brackets]; Ctrl-C stops at any point and leaves nothing.\n"
    )

    // 1. Where the backups are.
    var root = backups
    if root == nil {
      let places = Self.backupFolders(home: Self.home)
      let (found, unreadable) = Self.look(in: places)
      for (place, reason) in unreadable {
        dialog.say("Cannot read \(place): \(reason).")
        #if os(macOS)
          dialog.say(
            "  On a Mac, Terminal needs Full Disk Access to read backups: System Settings > Privacy & Security > Full Disk Access, turn Terminal on, then run ditto-recover again."
          )
          dialog.say(
            "  $ open 'x-apple.systempreferences:com.apple.preference.security?Privacy_AllFiles'")
        #endif
      }
      if found.count == 1 {
        root = found[0]
      } else if found.count > 1 {
        dialog.say("Backups are kept in several places:")
        for (index, place) in found.enumerated() { dialog.say("  \(index + 1)) \(place)") }
        let choice = try dialog.choose("Which one?", count: found.count, default: 1)
        root = found[choice - 1]
      } else {
        dialog.say(
          "No backup folder was found in the usual places (\(places.joined(separator: ", "))).")
        guard let typed = try dialog.ask("The folder holding your iPhone backups", default: nil)
        else {
          return Self.stopped("no backup folder given")
        }
        root = typed
      }
    }
    guard let root else { return Self.stopped("no backup folder given") }
    dialog.say("Looking at the backups in \(root)")
    dialog.command(Invocation(BackupListCommand.self).with(BackupCommand.backup, root))

    // 2. What each backup holds.
    let paths = try BackupCommand.locate(root)
    let summaries = BackupCommand.summarize(paths, password: nil, context: context)
      .sorted {
        ($0.backup.metadata.date ?? .distantPast) > ($1.backup.metadata.date ?? .distantPast)
      }
    var recommended = 1
    if let best = BackupSummary.newestWithDittoStore(summaries),
      let index = summaries.firstIndex(where: { $0.backup.path == best.backup.path })
    {
      recommended = index + 1
    }
    for (index, summary) in summaries.enumerated() {
      let metadata = summary.backup.metadata
      let date = BackupRendering.isoDate(metadata.date) ?? "date unknown"
      let what: String
      switch summary.listing {
      case .failure(.encrypted):
        what = "encrypted (its password opens it)"
      case .failure(let error):
        what = "cannot be read: \(ArgumentSpelling.described(error))"
      case .success(let listing) where listing.entries.isEmpty:
        what = "no Ditto in it"
      case .success:
        let survey = BackupListCommand.survey(summary, context: context)
        let dittos = survey.map { $0.preview(for: .manual).dittos } ?? 0
        what = dittos > 0 ? plural(dittos, "ditto") : "Ditto files, but no ditto to recover"
      }
      let mark = index + 1 == recommended ? "  (recommended)" : ""
      dialog.say(
        "  \(index + 1)) \(metadata.deviceName ?? "unknown device"), \(date): \(what)\(mark)")
    }

    // 3. Which one.
    let choice = try dialog.choose("Which backup?", count: summaries.count, default: recommended)
    let chosen = summaries[choice - 1]

    // 4. Its password.
    var passwordFile: String?
    var secret: PrivateDirectory?
    defer { secret?.remove() }
    if chosen.backup.metadata.isEncrypted == true {
      guard
        let password = try dialog.askSecret(
          "This backup is encrypted. Its password (the one set in Finder or iTunes; not shown as you type)"
        )
      else { return Self.stopped("no password given") }
      let folder = try PrivateDirectory(prefix: "ditto-guide-")
      secret = folder
      let file = folder.path + "/password"
      try NewFile.write(Array(password.utf8), to: file)
      passwordFile = file
    }

    // 5. Where the file goes.
    let desktop = Self.home + "/Desktop"
    let folder = Self.isFolder(desktop) ? desktop : FileManager.default.currentDirectoryPath
    let save =
      try dialog.ask("Save the recovery file in this folder", default: folder) ?? folder
    let date = chosen.backup.metadata.date ?? Date()
    let out = RecoveryRendering.freeName(
      like: save + "/" + RecoveryRendering.defaultFileName(for: date))

    // 6. The recovery file, checked.
    let extract = Invocation(BackupExtractCommand.self).with(
      BackupCommand.backup, chosen.backup.path
    )
    .with(RecoveryFileOutput.out, out)
    let password = BackupCommand.passwordFile.spec
    // Shown with a placeholder where the password file goes; run with the file.
    dialog.command(
      extract.with(password, ifAny: passwordFile.map { _ in "FILE-HOLDING-THE-PASSWORD" }))
    let extracted = Tool.main(extract.with(password, ifAny: passwordFile).words, context: context)
    guard extracted == ExitCode.success.rawValue else {
      dialog.say(
        "\nThat did not give a recovery file (exit \(extracted)): the lines above say why. Nothing else was written."
      )
      return .result(
        GuideOutput(out: nil), text: "", exitCode: ExitCode(rawValue: extracted) ?? .dataError)
    }
    let check = Invocation.status(from: out)
    dialog.command(check)
    _ = Tool.main(check.words, context: context)
    let text = """

      Done: \(out)
      The one step left, on the iPhone: AirDrop this file to it (or save it to Files), open it, and
      choose Ditto (3.0.2 or later): your dittos are added to your library.

      """
    return .result(GuideOutput(out: out), text: text)
  }

  /// What the guide made, for `--json`-free callers and tests.
  struct GuideOutput: Encodable {
    let out: String?
  }

  private static func stopped(_ why: String) -> CommandOutput {
    .result(GuideOutput(out: nil), text: "Stopped (\(why)); nothing was written.\n")
  }

  /// The user's home (`HOME`, else the password database's).
  static var home: String {
    if let value = ProcessInfo.processInfo.environment["HOME"], !value.isEmpty { return value }
    return NSHomeDirectory()
  }

  /// Where Finder and iTunes keep backups, in the order they are looked at: the Mac's, under
  /// `home` (a copied Mac home too), then, under WSL, every Windows user's iTunes and Microsoft
  /// Store folders.
  static func backupFolders(home: String, windowsUsers: String = "/mnt/c/Users") -> [String] {
    var folders = [home + "/Library/Application Support/MobileSync/Backup"]
    do {
      for user in try DirectoryWalker.names(in: windowsUsers).compactMap({ UserPath.validUTF8($0) })
        .sorted()
      {
        folders.append(
          windowsUsers + "/" + user + "/AppData/Roaming/Apple Computer/MobileSync/Backup")
        folders.append(windowsUsers + "/" + user + "/Apple/MobileSync/Backup")
      }
    } catch {
      // Not WSL (nothing there), or Windows' users that cannot be listed: those are looked at
      // (and named as not readable) rather than passed over.
      if !error.isNotFound { folders.append(windowsUsers) }
    }
    return folders
  }

  /// The folders among `places` that hold something, and those that exist but cannot be read.
  static func look(in places: [String]) -> (found: [String], unreadable: [(String, String)]) {
    var found: [String] = []
    var unreadable: [(String, String)] = []
    for place in places {
      do {
        if try !DirectoryWalker.names(in: place).isEmpty { found.append(place) }
      } catch {
        if !error.isNotFound { unreadable.append((place, error.reason)) }
      }
    }
    return (found, unreadable)
  }

  private static func isFolder(_ path: String) -> Bool {
    (try? FileStatus.following(path: path))??.kind == .directory
  }
}

/// The guide's questions and answers, on standard output and standard input.
struct Dialog {
  let context: ToolContext

  func say(_ line: String) { context.converse(line + "\n") }

  /// Prints the plain command a step runs, as support would type it.
  func command(_ invocation: Invocation) {
    say("$ " + ShellWord.line(invocation.commandLine))
  }

  /// Asks `question`; Return takes `defaultAnswer`. Nil at the end of the input (Ctrl-D) or when
  /// there is no default and nothing was typed.
  func ask(_ question: String, default defaultAnswer: String?) throws -> String? {
    context.converse(question + (defaultAnswer.map { " [\($0)]" } ?? "") + ": ")
    guard let line = readLine() else {
      say("")
      return nil
    }
    let answer = line.trimmingCharacters(in: .whitespaces)
    return answer.isEmpty ? defaultAnswer : answer
  }

  /// Asks for a number from 1 to `count` until one is given; Return takes `defaultChoice`.
  func choose(_ question: String, count: Int, default defaultChoice: Int) throws -> Int {
    while true {
      guard let answer = try ask(question, default: String(defaultChoice)) else {
        throw GuideStopped()
      }
      if let number = Int(answer), (1...count).contains(number) { return number }
      say("Type a number from 1 to \(count), or press Return for \(defaultChoice).")
    }
  }

  /// Asks for a secret with the terminal's echo off (restored after, also on Ctrl-C).
  func askSecret(_ question: String) throws -> String? {
    context.converse(question + ": ")
    let restore = TerminalEcho.off(STDIN_FILENO)
    defer {
      restore()
      say("")
    }
    guard let line = readLine(), !line.isEmpty else { return nil }
    return line
  }
}

/// The input ended (Ctrl-D) at a question that needs an answer (the guide says it stopped).
struct GuideStopped: Error {}

/// Turning a terminal's echo off for a password, and back on.
enum TerminalEcho {
  /// Turns echo off on `descriptor` when it is a terminal; returns what turns it back on (also
  /// called if the run is interrupted meanwhile).
  static func off(_ descriptor: Int32) -> () -> Void {
    var saved = termios()
    guard isatty(descriptor) == 1, tcgetattr(descriptor, &saved) == 0 else { return {} }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    _ = tcsetattr(descriptor, TCSAFLUSH, &quiet)
    let kept = saved
    Interruption.onStop { restoreTerminal(descriptor, kept) }
    return {
      restoreTerminal(descriptor, saved)
      Interruption.onStop(nil)
    }
  }

  private static func restoreTerminal(_ descriptor: Int32, _ saved: termios) {
    var saved = saved
    _ = tcsetattr(descriptor, TCSAFLUSH, &saved)
  }
}
